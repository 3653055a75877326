import { describe, expect, it } from 'vitest';
import type { UserRow } from '@/db/types';
import { discoverCardSchema } from '../contract/discover';
import { publicProfileSchema } from '../contract/profiles';
import { userCardSchema } from '../contract/schemas';
import { siteUrl, toDiscoverCard, toOwnProfile, toPublicProfile, toUserCard } from './records';

const BASE = 'https://buddy.example';

const row: UserRow = {
  id: '0f6c2a8e-7a51-4a8e-9d0b-3c1e2f4a5b6c',
  email: 'jo@example.com',
  password_hash: 'secret-hash',
  slug: 'jo-hikes',
  display_name: 'Jo',
  about_me: 'Up for trails most weekends.',
  city: null,
  location: '221B Baker Street, London',
  home_location: null,
  public_location: 'London, England, GB',
  latitude: 51.5237,
  longitude: -0.1585,
  coords_source: 'client',
  timezone: 'Europe/Lisbon',
  timezone_source: 'coords',
  location_seed: '5b0e1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4',
  public_latitude: 51.5301,
  public_longitude: -0.1712,
  gender: 'female',
  birthday: '1990-04-02',
  show_age_by_decade: true,
  activities: ['hiking', 'board-games'],
  availability_text: 'weekends',
  schedule: '0'.repeat(5 * 18) + '1'.repeat(2 * 18),
  photo_url: `${BASE}/blobs/photos/a.webp`,
  photo_id: 'photo-1',
  thumbnail_url: `${BASE}/blobs/photos/a-thumb.webp`,
  onboarding_complete: true,
  last_active_at: new Date('2026-01-05T10:00:00Z'),
  discover_cell: 698165,
  agent_name: 'TestAgent',
  agent_session_id: 'session-1',
  created_at: new Date('2025-03-01T09:00:00Z'),
  updated_at: new Date('2026-01-05T10:00:00Z'),
  email_verified_at: null,
  disabled_at: null,
  disabled_reason: null,
  awaiting_person_consent: false,
  review_sandbox: false,
};

const sortedKeys = (o: object) => Object.keys(o).sort();

describe('the public card records', () => {
  it('match their contract schemas exactly (no extra field slips out)', () => {
    expect(userCardSchema.strict().parse(toUserCard(row, BASE))).toEqual(toUserCard(row, BASE));
    expect(discoverCardSchema.strict().parse(toDiscoverCard(row, BASE))).toEqual(toDiscoverCard(row, BASE));
    for (const view of ['public', 'member'] as const) {
      expect(publicProfileSchema.strict().parse(toPublicProfile(row, BASE, view))).toEqual(
        toPublicProfile(row, BASE, view),
      );
    }
  });

  it('nest: every user card field is on the Discover card, and every Discover card field on the public profile, with the same values', () => {
    const card = toUserCard(row, BASE);
    const discover = toDiscoverCard(row, BASE);
    const profile = toPublicProfile(row, BASE, 'member');
    expect(discover).toMatchObject(card);
    expect(profile).toMatchObject(discover);
    expect(sortedKeys(card)).toEqual(['displayName', 'id', 'location', 'photoURL', 'profile_url', 'slug']);
    expect(sortedKeys(discover)).toEqual(
      [...sortedKeys(card), 'aboutMe', 'activities', 'age', 'age_bucket', 'gender'].sort(),
    );
    expect(sortedKeys(profile)).toEqual(
      [
        ...sortedKeys(discover),
        'activities_detail',
        'discoverable',
        'member_since',
        'schedule',
        'schedule_summary',
        'thumbnailURL',
        'view',
      ].sort(),
    );
    expect(sortedKeys(toPublicProfile(row, BASE, 'public'))).toEqual(sortedKeys(profile));
  });

  it('show strangers the first name, city and activities, but no age, gender or weekly schedule', () => {
    const profile = toPublicProfile(row, BASE, 'public');
    expect(profile).toMatchObject({
      view: 'public',
      age: null,
      age_bucket: null,
      gender: null,
      schedule: null,
      schedule_summary: null,
    });
    expect(profile.displayName).toBe(row.display_name.trim().split(/\s+/)[0]);
    expect(profile.activities).toEqual(row.activities);
    expect(profile.location).toBe('London, England, GB');
  });

  it('show members the city label and the age decade, never the typed address, coordinates, email or birthday', () => {
    const profile = toPublicProfile(row, BASE, 'member');
    expect(profile).toMatchObject({
      location: 'London, England, GB',
      age: null,
      age_bucket: expect.stringMatching(/^\d0s$/),
      profile_url: `${BASE}/u/jo-hikes`,
    });
    const text = JSON.stringify(profile);
    // Neither point is ever a field: the public point only feeds distances in whole km.
    const secrets = [
      'Baker',
      '51.5237',
      '-0.1585',
      '51.5301',
      '-0.1712',
      '5b0e1c2d',
      '1990-04-02',
      'jo@example.com',
      'secret-hash',
      'TestAgent',
    ];
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('give the owner their exact coordinates, but never the public point or its secret seed', () => {
    const own = toOwnProfile(row, BASE);
    expect(own.coords).toEqual({ latitude: 51.5237, longitude: -0.1585 });
    const text = JSON.stringify(own);
    for (const secret of ['51.5301', '-0.1712', '5b0e1c2d', 'location_seed', 'public_latitude'])
      expect(text).not.toContain(secret);
  });
});

describe('photo URLs stored as paths (demo avatars)', () => {
  it('are shown on the host serving them now; stored URLs are left alone', () => {
    expect(siteUrl('/demo-avatars/AB-12.svg', 'https://buddy.example')).toBe(
      'https://buddy.example/demo-avatars/AB-12.svg',
    );
    expect(siteUrl('https://cdn.example/p.jpg', 'https://buddy.example')).toBe('https://cdn.example/p.jpg');
    expect(siteUrl('//evil.example/p.jpg', 'https://buddy.example')).toBe('//evil.example/p.jpg');
    expect(siteUrl(null, 'https://buddy.example')).toBeNull();
  });
});
