import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { decodeCursor, encodeCursor, filtersFingerprint, readCursorOrThrow, type DiscoverCursor } from './cursor';

const cursor: DiscoverCursor = {
  score: '0.7825',
  nearness: '1.234',
  radiusKm: 0,
  pairsRadiusKm: 8,
  id: '6f1c1f7e-3d55-4a7a-9d6e-2f0b8c1d2e3f',
  asOf: 1_790_000_000_000,
  filters: 'abcDEF123_-',
};

describe('Discover cursor', () => {
  it('round-trips and is opaque URL-safe text', () => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).not.toContain('0.7825');
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it.each<[string, string]>([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    [
      'another version',
      Buffer.from(JSON.stringify({ v: 2, s: '0.5', i: cursor.id, t: 1, f: 'x' })).toString('base64url'),
    ],
    [
      'a score that is not a decimal',
      Buffer.from(JSON.stringify({ v: 1, s: '1; drop table', i: cursor.id, t: 1, f: 'x' })).toString('base64url'),
    ],
    [
      'an id that is not a uuid',
      Buffer.from(JSON.stringify({ v: 1, s: '0.5', i: 'x', t: 1, f: 'x' })).toString('base64url'),
    ],
    [
      'extra keys',
      Buffer.from(JSON.stringify({ v: 1, s: '0.5', i: cursor.id, t: 1, f: 'x', z: 1 })).toString('base64url'),
    ],
    ['too long', 'a'.repeat(401)],
    // Out-of-range values: a huge timestamp made toISOString() throw (a 500 before).
    ...[
      ['a timestamp past Date range', 9_007_199_254_740_991],
      ['a timestamp in year 275760', 8.64e15],
      ['a timestamp a year ahead', Date.now() + 365 * 86_400_000],
      ['a timestamp of 1e308', 1e308],
      ['a negative timestamp', -1],
      ['a zero timestamp', 0],
      ['a fractional timestamp', 1_790_000_000_000.5],
      ['a timestamp as a string', '1790000000000'],
    ].map(
      ([name, t]) =>
        [
          String(name),
          Buffer.from(JSON.stringify({ v: 1, s: '0.5', i: cursor.id, t, f: 'x' })).toString('base64url'),
        ] as [string, string],
    ),
    [
      'a score too long to be ours',
      Buffer.from(JSON.stringify({ v: 1, s: '1'.repeat(400), i: cursor.id, t: 1_790_000_000_000, f: 'x' })).toString(
        'base64url',
      ),
    ],
    ['JSON nested deep', Buffer.from('['.repeat(290)).toString('base64url')],
  ])('rejects %s', (_name, text) => {
    expect(decodeCursor(text)).toBeNull();
  });

  it('accepts a cursor from a moment ago and one a few hours ahead (clock skew)', () => {
    for (const asOf of [Date.now() - 60_000, Date.now() + 3 * 3600_000]) {
      expect(decodeCursor(encodeCursor({ ...cursor, asOf }))).toEqual({ ...cursor, asOf });
    }
  });

  it('fingerprints filters regardless of key order, and tells different filters apart', () => {
    const a = filtersFingerprint({ radius_km: 25, activities: ['hiking'], gender: null });
    expect(filtersFingerprint({ gender: null, activities: ['hiking'], radius_km: 25 })).toBe(a);
    expect(filtersFingerprint({ radius_km: 26, activities: ['hiking'], gender: null })).not.toBe(a);
    expect(filtersFingerprint({ radius_km: 25, activities: ['tennis'], gender: null })).not.toBe(a);
    expect(filtersFingerprint({ radius_km: 25, activities: ['hiking'], gender: ['female'] })).not.toBe(a);
  });

  it('refuses a cursor from a search with other filters, with a validation error on cursor', () => {
    const text = encodeCursor(cursor);
    expect(readCursorOrThrow(text, cursor.filters)).toEqual(cursor);
    for (const [input, fingerprint] of [
      [text, 'other'],
      ['garbage', cursor.filters],
    ] as const) {
      try {
        readCursorOrThrow(input, fingerprint);
        expect.unreachable('should have thrown');
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe('validation_failed');
        expect((error as ApiError).fields).toHaveProperty('cursor');
      }
    }
  });
});
