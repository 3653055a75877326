import { describe, expect, it } from 'vitest';
import { closeness, EDIT_DISTANCE_MAX_CHARS, editDistance, maxEdits, phraseScore, toPhrase } from './similarity';

describe('editDistance (optimal string alignment)', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['yoga', 'yoga', 0],
    ['tenis', 'tennis', 1],
    ['hikking', 'hiking', 1],
    ['yoag', 'yoga', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['badmington', 'badminton', 1],
    ['climing', 'climbing', 1],
  ])('%j vs %j = %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
    expect(editDistance(b, a)).toBe(expected);
  });

  it('stops at limit + 1 when the strings are far apart', () => {
    expect(editDistance('qwertyuiop', 'asdfghjkl', 2)).toBe(3);
    expect(editDistance('tenis', 'tennis', 2)).toBe(1);
  });

  it('handles strings longer than its preallocated rows', () => {
    expect(editDistance('a'.repeat(200), `${'a'.repeat(199)}b`)).toBe(1);
  });

  it('looks only at the first EDIT_DISTANCE_MAX_CHARS of each string, so a huge input costs no more', () => {
    const huge = 'x'.repeat(4_000_000);
    const started = performance.now();
    for (let i = 0; i < 50; i++) editDistance(huge, `${huge}y`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(editDistance(huge, 'x'.repeat(EDIT_DISTANCE_MAX_CHARS + 10))).toBe(0);
    expect(editDistance(huge, 'abc')).toBe(EDIT_DISTANCE_MAX_CHARS);
  });

  it('answers limit + 1 at once when the lengths alone differ by more', () => {
    expect(editDistance('abc', 'abcdefgh', 2)).toBe(3);
  });
});

describe('maxEdits', () => {
  it.each([
    [3, 0],
    [4, 1],
    [5, 1],
    [6, 2],
    [8, 2],
    [9, 3],
  ])('length %i allows %i edits', (length, edits) => {
    expect(maxEdits(length)).toBe(edits);
  });
});

describe('closeness', () => {
  it('is 0 for equal strings and undefined beyond the budget', () => {
    expect(closeness('yoga', 'yoga')).toBe(0);
    expect(closeness('tenis', 'tennis')).toBeCloseTo(1 / 6);
    expect(closeness('art', 'arm')).toBeUndefined();
    expect(closeness('xyzzy', 'yoga')).toBeUndefined();
  });
});

describe('phraseScore', () => {
  const phrase = (text: string) => toPhrase(text.split(' '));

  it('compares whole phrases ignoring spaces', () => {
    expect(phraseScore(phrase('board games'), phrase('boardgames'))).toBeUndefined(); // different word counts, no window equals
    expect(phraseScore(phrase('rock climing'), phrase('rock climbing'))).toBeCloseTo(1 / 12);
  });

  it('matches a shorter phrase inside a longer one, with a penalty', () => {
    const partial = phraseScore(phrase('skating'), phrase('ice skating'));
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(0.5);
    expect(phraseScore(phrase('run with my dog'), phrase('run'))).toBe(partial);
  });

  it('never matches on stop words alone', () => {
    expect(phraseScore(phrase('and'), phrase('bow and arrow'))).toBeUndefined();
    expect(phraseScore(phrase('foo and bar'), phrase('and'))).toBeUndefined();
  });
});
