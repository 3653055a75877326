import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adultBornBy, ageWorld, canMeetByAge, reachableBirthdays, yearsBefore } from './worlds';

const today = new Date('2026-11-28T12:00:00Z');
const rules = { teenGapYears: 2 };
const daysAgo = (days: number) => new Date(today.getTime() - days * 86_400_000).toISOString().slice(0, 10);
/** A birthday 13 to 60 years before `today`, half of them 13 to 19 (around the border and among teenagers). */
const birthday = fc.oneof(
  fc.integer({ min: 13 * 366, max: 19 * 365 }).map(daysAgo),
  fc.integer({ min: 13 * 366, max: 60 * 365 }).map(daysAgo),
);

/** Whole years from `from` to `to` (both YYYY-MM-DD), as people count birthdays. */
function wholeYears(from: string, to: string): number {
  const [fy, fm, fd] = from.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.split('-').map(Number) as [number, number, number];
  return ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0);
}

describe('two worlds by age', () => {
  it('puts the 18th birthday itself in the adults', () => {
    expect(adultBornBy(today)).toBe('2008-11-28');
    expect(ageWorld('2008-11-28', today)).toBe('adult');
    expect(ageWorld('2008-11-29', today)).toBe('teen');
    expect(ageWorld(null, today)).toBe('adult');
  });

  it('moves a person between worlds on the day they turn 18', () => {
    const born = '2008-11-29';
    const dayBefore = new Date('2026-11-28T23:59:59Z');
    const dayOf = new Date('2026-11-29T00:00:00Z');
    expect(ageWorld(born, dayBefore)).toBe('teen');
    expect(ageWorld(born, dayOf)).toBe('adult');
    expect(canMeetByAge(born, '1980-01-01', dayBefore, rules)).toBe(false);
    expect(canMeetByAge(born, '1980-01-01', dayOf, rules)).toBe(true);
  });

  it('clamps 29 February to 28 February in years without it', () => {
    expect(yearsBefore('2024-02-29', 2)).toBe('2022-02-28');
    expect(yearsBefore('2024-02-29', -4)).toBe('2028-02-29');
  });

  it('keeps a person without a birthday with the adults', () => {
    expect(canMeetByAge(null, '1990-01-01', today, rules)).toBe(true);
    expect(canMeetByAge(null, '2011-01-01', today, rules)).toBe(false);
    expect(canMeetByAge('2011-01-01', null, today, rules)).toBe(false);
    expect(reachableBirthdays(null, today, rules)).toEqual({ after: null, through: '2008-11-28', unknown: true });
  });

  it('is symmetric, and matches the rule in words, over generated pairs of birthdays', () => {
    fc.assert(
      fc.property(birthday, birthday, fc.integer({ min: 0, max: 5 }), (a, b, gap) => {
        const gapRules = { teenGapYears: gap };
        const meet = canMeetByAge(a, b, today, gapRules);
        expect(canMeetByAge(b, a, today, gapRules)).toBe(meet);
        const [older, younger] = a <= b ? [a, b] : [b, a];
        const years = wholeYears(older, younger);
        // "At most `gap` years apart": the younger was born by the older's gap-th birthday, that day included.
        const withinGap = years < gap || (years === gap && older.slice(5) === younger.slice(5));
        const world = ageWorld(a, today);
        const expected = world !== ageWorld(b, today) ? false : world === 'adult' || withinGap;
        expect(meet).toBe(expected);
      }),
      { seed: 41, numRuns: 2000 },
    );
  });
});
