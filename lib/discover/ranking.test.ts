import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random';
import {
  dayNumber,
  daysInactiveBounds,
  lastActiveLabel,
  roundDistanceKm,
  score,
  scoreBreakdown,
  scoreTerms,
  WEIGHTS,
  type RankingInputs,
} from './ranking';

const base: RankingInputs = {
  sharedActivities: 1,
  searchedActivities: 2,
  overlapSlots: 4,
  distanceKm: 5,
  daysInactive: 0,
};
const with_ = (change: Partial<RankingInputs>): RankingInputs => ({ ...base, ...change });

describe('roundDistanceKm', () => {
  it.each([
    [0, 1],
    [0.2, 1],
    [0.5, 1],
    [1.49, 1],
    [1.5, 2],
    [12.4, 12],
    [199.6, 200],
  ])('%s km shows as %s km (whole km, never below 1)', (km, shown) => {
    expect(roundDistanceKm(km)).toBe(shown);
  });
});

describe('scoreTerms', () => {
  it('gives full activity marks for sharing every searched activity, or three of many', () => {
    expect(scoreTerms(with_({ sharedActivities: 2, searchedActivities: 2 })).activities).toBe(1);
    expect(scoreTerms(with_({ sharedActivities: 1, searchedActivities: 2 })).activities).toBe(0.5);
    expect(scoreTerms(with_({ sharedActivities: 3, searchedActivities: 8 })).activities).toBe(1);
    expect(scoreTerms(with_({ sharedActivities: 1, searchedActivities: 8 })).activities).toBeCloseTo(1 / 3, 10);
  });

  it('caps availability at 10 shared hours a week', () => {
    expect(scoreTerms(with_({ overlapSlots: 0 })).availability).toBe(0);
    expect(scoreTerms(with_({ overlapSlots: 5 })).availability).toBe(0.5);
    expect(scoreTerms(with_({ overlapSlots: 10 })).availability).toBe(1);
    expect(scoreTerms(with_({ overlapSlots: 60 })).availability).toBe(1);
  });

  it('halves the distance term at 5 km and the recency term after 7 days', () => {
    expect(scoreTerms(with_({ distanceKm: 5 })).distance).toBe(0.5);
    expect(scoreTerms(with_({ distanceKm: 1 })).distance).toBeCloseTo(1 / 1.2, 10);
    expect(scoreTerms(with_({ daysInactive: 0 })).recent_activity).toBe(1);
    expect(scoreTerms(with_({ daysInactive: 7 })).recent_activity).toBe(0.5);
  });
});

describe('score', () => {
  it('is the weighted sum of the terms, rounded to 4 decimals', () => {
    // 0.4·0.5 + 0.3·0.4 + 0.2·0.5 + 0.1·1
    expect(score(base)).toBe(0.52);
    expect(
      score({ sharedActivities: 2, searchedActivities: 2, overlapSlots: 12, distanceKm: 1, daysInactive: 0 }),
    ).toBe(0.9667);
  });

  it('weights sum to 1 so a perfect match scores 1', () => {
    expect(Object.values(WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(
      score({ sharedActivities: 3, searchedActivities: 3, overlapSlots: 126, distanceKm: 0, daysInactive: 0 }),
    ).toBe(1);
  });

  it('ranks more shared activities above more shared hours above nearer above more recent', () => {
    const ordered = [
      with_({ sharedActivities: 2 }),
      with_({ overlapSlots: 8 }),
      with_({ distanceKm: 2 }),
      with_({ daysInactive: 0 }),
      with_({ daysInactive: 3 }),
    ].map(score);
    expect([...ordered].sort((a, b) => b - a)).toEqual(ordered);
  });

  it('never increases with distance or days away', () => {
    for (let km = 1; km < 200; km++)
      expect(score(with_({ distanceKm: km + 1 }))).toBeLessThanOrEqual(score(with_({ distanceKm: km })));
    for (let d = 0; d < 60; d++)
      expect(score(with_({ daysInactive: d + 1 }))).toBeLessThanOrEqual(score(with_({ daysInactive: d })));
  });

  it('breaks down into contributions that add up to the score', () => {
    const parts = scoreBreakdown(base);
    expect(parts).toEqual({ activities: 0.2, availability: 0.12, distance: 0.1, recent_activity: 0.1 });
    const sum = Object.values(scoreBreakdown(with_({ distanceKm: 3, daysInactive: 2 }))).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(score(with_({ distanceKm: 3, daysInactive: 2 })), 3);
  });
});

describe('lastActiveLabel', () => {
  it.each([
    [0, 'within_a_day'],
    [1, 'within_a_week'],
    [6, 'within_a_week'],
    [7, 'within_a_month'],
    [29, 'within_a_month'],
    [30, 'over_a_month'],
  ] as const)('%s days away is %s', (days, label) => {
    expect(lastActiveLabel(days)).toBe(label);
  });
});

describe('daysInactiveBounds', () => {
  const DAY = 86_400_000;
  /** Whole days away as the search ranks them (the SQL's floor of elapsed days, at least 0). */
  const exactDays = (lastActive: number, asOf: number) => Math.max(0, Math.floor((asOf - lastActive) / DAY));

  it('holds the exact whole days away, knowing only the day of the last call', () => {
    const random = seededRandom(8);
    const asOf = Date.UTC(2026, 10, 22, 15, 30);
    const seen = { least: 0, most: 0 };
    for (let i = 0; i < 20_000; i++) {
      // From 40 days before the search to 2 days after it (a cursor's asOf may be older than a later call).
      const lastActive = Math.round(asOf - 40 * DAY * random() + 2 * DAY * random());
      const bounds = daysInactiveBounds(dayNumber(new Date(lastActive)), dayNumber(new Date(asOf)));
      const exact = exactDays(lastActive, asOf);
      expect(exact).toBeGreaterThanOrEqual(bounds.least);
      expect(exact).toBeLessThanOrEqual(bounds.most);
      expect(bounds.most - bounds.least).toBeLessThanOrEqual(1);
      if (exact === bounds.least) seen.least++;
      if (exact === bounds.most) seen.most++;
    }
    // Both ends really occur: the bounds are as tight as the day allows.
    expect(seen.least).toBeGreaterThan(1000);
    expect(seen.most).toBeGreaterThan(1000);
  });

  it.each([
    ['the same day', '2026-11-22T00:00:00Z', '2026-11-22T23:59:59Z', { least: 0, most: 0 }],
    ['yesterday late, searched early', '2026-11-21T23:00:00Z', '2026-11-22T01:00:00Z', { least: 0, most: 1 }],
    ['midnight to midnight', '2026-11-20T00:00:00Z', '2026-11-22T00:00:00Z', { least: 1, most: 2 }],
    ['a call after the search began', '2026-11-23T08:00:00Z', '2026-11-22T12:00:00Z', { least: 0, most: 0 }],
  ])('%s', (_name, lastActive, asOf, bounds) => {
    expect(daysInactiveBounds(dayNumber(new Date(lastActive)), dayNumber(new Date(asOf)))).toEqual(bounds);
    const exact = exactDays(Date.parse(lastActive), Date.parse(asOf));
    expect(exact >= bounds.least && exact <= bounds.most).toBe(true);
  });
});

describe('reliability (repeated no-show reports)', () => {
  it('scales the score and every term of its breakdown, so the breakdown still adds up to the score', () => {
    const full = {
      ...base,
      sharedActivities: 1,
      searchedActivities: 1,
      overlapSlots: 10,
      distanceKm: 5,
      daysInactive: 0,
    };
    expect(score(full)).toBe(0.9);
    expect(score({ ...full, reliability: 0.8 })).toBe(0.72);
    const terms = scoreBreakdown({ ...full, reliability: 0.8 });
    expect(terms).toEqual({ activities: 0.32, availability: 0.24, distance: 0.08, recent_activity: 0.08 });
    expect(Object.values(terms).reduce((a, b) => a + b, 0)).toBeCloseTo(0.72, 4);
  });
});
