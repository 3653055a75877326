import { describe, expect, it } from 'vitest';
import { roundTeaserCount, TEASER_CAP, TEASER_STEP } from './teaser';

describe('roundTeaserCount', () => {
  it('hides counts below the step, rounds the rest down to it, and caps them', () => {
    expect([0, 1, 4].map(roundTeaserCount)).toEqual([0, 0, 0]);
    expect([5, 9, 10, 11, 99].map(roundTeaserCount)).toEqual([5, 5, 10, 10, 95]);
    expect([100, 2_000].map(roundTeaserCount)).toEqual([TEASER_CAP, TEASER_CAP]);
    // Never more than the truth: at_least is a lower bound.
    for (let n = 0; n < 300; n++) expect(roundTeaserCount(n)).toBeLessThanOrEqual(n);
    expect(TEASER_STEP).toBe(5);
  });
});
