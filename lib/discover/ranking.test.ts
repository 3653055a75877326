import { describe, expect, it } from 'vitest';
import { lastActiveLabel, roundDistanceKm, score, scoreBreakdown, scoreTerms, WEIGHTS, type RankingInputs } from './ranking';

const base: RankingInputs = { sharedActivities: 1, searchedActivities: 2, overlapSlots: 4, distanceKm: 5, daysInactive: 0 };
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
    expect(score({ sharedActivities: 2, searchedActivities: 2, overlapSlots: 12, distanceKm: 1, daysInactive: 0 })).toBe(0.9667);
  });

  it('weights sum to 1 so a perfect match scores 1', () => {
    expect(Object.values(WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(score({ sharedActivities: 3, searchedActivities: 3, overlapSlots: 126, distanceKm: 0, daysInactive: 0 })).toBe(1);
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
    for (let km = 1; km < 200; km++) expect(score(with_({ distanceKm: km + 1 }))).toBeLessThanOrEqual(score(with_({ distanceKm: km })));
    for (let d = 0; d < 60; d++) expect(score(with_({ daysInactive: d + 1 }))).toBeLessThanOrEqual(score(with_({ daysInactive: d })));
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
