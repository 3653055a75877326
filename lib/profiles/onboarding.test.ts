import { describe, expect, it } from 'vitest';
import { DISCOVER_FIELDS, nextActionForUser } from './onboarding';

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
