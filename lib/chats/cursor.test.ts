import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { decodeCursor, decodeCursorOrThrow, encodeCursor, encodeOlderCursor, isOlderCursor } from './cursor';

describe('message cursors', () => {
  it.each([0, 1, 987654321, 2 ** 50])('round-trips %d', (id) => {
    const cursor = encodeCursor(id);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursor(cursor)).toBe(id);
    expect(decodeCursorOrThrow(cursor)).toEqual({ after: id });
    expect(isOlderCursor(cursor)).toBe(false);
  });

  it.each([1, 987654321, 2 ** 50])('reads an older cursor (before %d) apart from a forward one', (id) => {
    const cursor = encodeOlderCursor(id);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursorOrThrow(cursor)).toEqual({ before: id });
    expect(isOlderCursor(cursor)).toBe(true);
    expect(decodeCursor(cursor)).toBeNull();
  });

  it.each([
    '',
    'abc',
    Buffer.from('m1:-5').toString('base64url'),
    Buffer.from('m2:5').toString('base64url'),
    Buffer.from('m1:5x').toString('base64url'),
    Buffer.from('o1:0').toString('base64url'),
    Buffer.from('o1:-5').toString('base64url'),
  ])('rejects %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
    expect(() => decodeCursorOrThrow(cursor)).toThrow(ApiError);
  });
});
