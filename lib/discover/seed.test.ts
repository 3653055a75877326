import { describe, expect, it } from 'vitest';
import { isActivityId } from '../activities';
import { bitsToGrid, countSlots } from '../availability';
import { slugSchema } from '../contract/schemas';
import { distanceKm } from '../geo';
import { missingFields } from '../profiles/onboarding';
import { seededRandom } from '../seeded-random';
import { DEMO_NAME_LISTS, demoProfile, seedReference } from './seed';

const ref = seedReference();
const now = new Date('2026-06-01T12:00:00Z');
const people = (seed: number, n: number) => {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => demoProfile(i, 'tst', ref, random, now));
};

describe('demo population', () => {
  const sample = people(7, 2000);

  it('is reproducible from its seed', () => {
    expect(people(7, 50)).toEqual(sample.slice(0, 50));
    expect(people(8, 50)).not.toEqual(sample.slice(0, 50));
  });

  it('only makes complete profiles with valid, unique slugs and emails', () => {
    for (const p of sample) {
      const row = { ...p, photo_url: p.photo_url, birthday: p.birthday, gender: p.gender as 'female' };
      expect(missingFields(row)).toEqual([]);
      expect(slugSchema.safeParse(p.slug).success).toBe(true);
      expect(p.activities.every(isActivityId)).toBe(true);
      expect(p.activities.length).toBeGreaterThanOrEqual(1);
      expect(p.activities.length).toBeLessThanOrEqual(6);
      expect(countSlots(bitsToGrid(p.schedule))).toBeGreaterThan(0);
    }
    expect(new Set(sample.map((p) => p.slug)).size).toBe(sample.length);
    expect(new Set(sample.map((p) => p.email)).size).toBe(sample.length);
  });

  it('places people near a real city named by their public label', () => {
    for (const p of sample.slice(0, 300)) {
      // Labels can repeat (two towns of one name in one country): any of them will do.
      const cities = ref.places.filter((place) => place.label === p.public_location);
      expect(cities.length).toBeGreaterThan(0);
      expect(cities.some((city) => distanceKm(p, city) < 6 * city.spreadKm + 1)).toBe(true);
    }
  });

  it('follows population: the largest city gets many more people than a small one', () => {
    const count = (label: string) => sample.filter((p) => p.public_location === label).length;
    const largest = ref.places[0]!.label;
    expect(count(largest)).toBeGreaterThan(5);
    expect(count(largest)).toBeGreaterThan(count(ref.places[ref.places.length - 1]!.label));
  });

  it('has plausible ages, a gender mix and recent activity', () => {
    const ages = sample.map((p) => now.getUTCFullYear() - Number(p.birthday.slice(0, 4)));
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(18);
    expect(Math.max(...ages)).toBeLessThanOrEqual(71);
    expect(new Set(sample.map((p) => p.gender))).toEqual(
      new Set(['male', 'female', 'non_binary', 'prefer_not_to_say']),
    );
    expect(sample.every((p) => p.last_active_at <= now && p.created_at <= p.last_active_at)).toBe(true);
  });

  it('gives names that agree with the gender ("Rafael W." is never female)', () => {
    const first = (p: { display_name: string }) => p.display_name.split(' ')[0]!;
    const feminine = new Set<string>(DEMO_NAME_LISTS.female);
    const masculine = new Set<string>(DEMO_NAME_LISTS.male);
    for (const p of sample) {
      if (p.gender === 'female') expect(masculine.has(first(p)), p.display_name).toBe(false);
      if (p.gender === 'male') expect(feminine.has(first(p)), p.display_name).toBe(false);
    }
    expect(masculine.has('Rafael') && feminine.has('Sofia')).toBe(true);
  });

  it('stores avatars as paths of this site, never as URLs of the host that seeded them', () => {
    for (const p of sample.slice(0, 200)) expect(p.photo_url).toMatch(/^\/demo-avatars\/[A-Z]{2}-\d{1,3}\.svg$/);
  });
});
