import { describe, expect, it } from 'vitest';
import { DISCOVER_FIELDS, nextActionForUser, onboardingOf, SHOW_ME_BUTTON } from './onboarding';

describe('nextActionForUser', () => {
  it('speaks to the person: no field names, formats or API paths', () => {
    const all = nextActionForUser(DISCOVER_FIELDS);
    expect(all).toBe(
      'Your account is ready. To be found by others, add the name others see, a few words about yourself, your gender, your date of birth, ' +
        'the town or neighbourhood you are in, what you like to do, when you are usually free and a photo of yourself.',
    );
    for (const field of DISCOVER_FIELDS) {
      const text = nextActionForUser([field]);
      expect(text, field).not.toMatch(/\/api|\.json|POST|PATCH|[a-z][A-Z]|_|YYYY|\{/);
    }
    expect(nextActionForUser(['photo'])).toBe('Your account is ready. To be found by others, add a photo of yourself.');
    expect(nextActionForUser([])).toMatch(/complete/);
  });
});

describe('nextActionForUser while the person has not said yes (REQUIRE_PERSON_CONSENT, issue 41 §2)', () => {
  it('tells the person that only they can show the profile, and how, in their words', () => {
    const complete = nextActionForUser([], true);
    expect(complete).toMatch(/^Your profile is complete\. Nobody sees your profile until you say so/);
    expect(complete).toContain(`"${SHOW_ME_BUTTON}"`);
    expect(complete).not.toMatch(/visible in Discover/);
    const incomplete = nextActionForUser(['photo'], true);
    expect(incomplete).toMatch(/add a photo of yourself\. Nobody sees your profile until you say so/);
    for (const text of [complete, incomplete]) expect(text).not.toMatch(/\/api|\.json|POST|token|_/);
  });

  it('onboardingOf carries the flag beside completeness', () => {
    const row = {
      display_name: 'Sam',
      about_me: 'Hi',
      gender: 'female' as const,
      birthday: '1990-01-01',
      location: 'Lisbon',
      latitude: 38.7,
      longitude: -9.1,
      activities: ['hiking'],
      schedule: '1'.repeat(126),
      photo_url: '/blobs/x.webp',
    };
    expect(onboardingOf({ ...row, awaiting_person_consent: true })).toEqual({
      complete: true,
      missing: [],
      awaiting_person_consent: true,
    });
    expect(onboardingOf({ ...row, photo_url: null, awaiting_person_consent: false })).toEqual({
      complete: false,
      missing: ['photo'],
      awaiting_person_consent: false,
    });
  });
});
