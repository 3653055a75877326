import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors';
import { decodeCursor, decodeCursorOrThrow, encodeCursor } from './cursor';

describe('message cursors', () => {
  it.each([0, 1, 987654321, 2 ** 50])('round-trips %d', (id) => {
    const cursor = encodeCursor(id);
    expect(cursor).toMatch(/^[\w-]+$/);
    expect(decodeCursor(cursor)).toBe(id);
  });

  it.each([
    '',
    'abc',
    Buffer.from('m1:-5').toString('base64url'),
    Buffer.from('m2:5').toString('base64url'),
    Buffer.from('m1:5x').toString('base64url'),
  ])('rejects %j', (cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
    expect(() => decodeCursorOrThrow(cursor)).toThrow(ApiError);
  });
});
