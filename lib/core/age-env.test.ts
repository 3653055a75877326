import { describe, expect, it } from 'vitest';
import { ageRulesFromEnv } from './age-env';

describe('MINIMUM_AGE and TEEN_AGE_GAP_YEARS', () => {
  it('default to the contract: 13, and two years between teenagers', () => {
    expect(ageRulesFromEnv({})).toEqual({ minimumAge: 13, teenGapYears: 2 });
    expect(ageRulesFromEnv({ MINIMUM_AGE: '', TEEN_AGE_GAP_YEARS: '' })).toEqual({ minimumAge: 13, teenGapYears: 2 });
  });

  it('let an operator raise the minimum (16, 18) and widen or narrow the gap', () => {
    expect(ageRulesFromEnv({ MINIMUM_AGE: '16', TEEN_AGE_GAP_YEARS: '3' })).toEqual({
      minimumAge: 16,
      teenGapYears: 3,
    });
    expect(ageRulesFromEnv({ MINIMUM_AGE: '18', TEEN_AGE_GAP_YEARS: '0' })).toEqual({
      minimumAge: 18,
      teenGapYears: 0,
    });
  });

  it.each([
    ['MINIMUM_AGE', '12'],
    ['MINIMUM_AGE', '19'],
    ['MINIMUM_AGE', '16.5'],
    ['MINIMUM_AGE', 'sixteen'],
    ['TEEN_AGE_GAP_YEARS', '-1'],
    ['TEEN_AGE_GAP_YEARS', '6'],
  ])('refuse %s=%s at start rather than run with a rule nobody chose', (name, value) => {
    expect(() => ageRulesFromEnv({ [name]: value })).toThrow(name);
  });
});
