import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { decodeInlinePhoto } from './input';
import { errorStatus } from '../http/error-response';

const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);
const b64 = bytes.toString('base64');

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('decodeInlinePhoto', () => {
  it.each([
    ['bare base64', b64, null],
    ['a data URL', `data:image/png;base64,${b64}`, 'image/png'],
    ['a data URL with parameters', `data:image/png;name=me.png;base64,${b64}`, 'image/png'],
    ['MIME-wrapped base64', b64.replace(/(.{4})/g, '$1\r\n'), null],
    ['URL-safe base64', bytes.toString('base64url'), null],
    ['URL-safe base64 with padding', `${bytes.toString('base64url')}==`, null],
    ['base64 without its padding', b64.replace(/=+$/, ''), null],
  ])('decodes %s', (_name, input, declared) => {
    const result = decodeInlinePhoto(input, undefined);
    expect(result.bytes.equals(bytes)).toBe(true);
    expect(result.declaredType).toBe(declared);
  });

  it('keeps the separately declared type', () => {
    expect(decodeInlinePhoto(b64, 'image/png').declaredType).toBe('image/png');
    expect(decodeInlinePhoto(`data:image/png;base64,${b64}`, 'image/png').declaredType).toBe('image/png');
  });

  it.each([
    ['characters outside base64', 'abc$def!', 'photo_invalid'],
    ['a stray length', 'abcde', 'photo_invalid'],
    ['padding in the middle', 'ab==cd==', 'photo_invalid'],
    ['mixed alphabets', 'ab+d-f__', 'photo_invalid'],
    ['an empty photo', '   ', 'photo_invalid'],
    ['a data URL that is not base64', 'data:image/png,%89PNG', 'photo_invalid'],
  ])('refuses %s', (_name, input, code) => {
    const error = errorOf(() => decodeInlinePhoto(input, undefined, 'photo'));
    expect(error.code).toBe(code);
    expect(errorStatus(error)).toBe(400);
    expect(error.fields).toHaveProperty('photo');
  });

  it('refuses a data URL whose type contradicts mimeType', () => {
    const error = errorOf(() => decodeInlinePhoto(`data:image/png;base64,${b64}`, 'image/jpeg'));
    expect(error.code).toBe('photo_type_mismatch');
  });

  it('refuses an oversized photo from its encoded length, before decoding', () => {
    const max = 5 * 1024 * 1024;
    // Not even valid base64: the size alone decides, so nothing is decoded.
    const justOver = 'A'.repeat(Math.ceil(((max + 1) * 4) / 3) + 4);
    const error = errorOf(() => decodeInlinePhoto(justOver, undefined, 'photo', max));
    expect(error.code).toBe('photo_too_large');
    expect(errorStatus(error)).toBe(413);
    const exactly = Buffer.alloc(max).toString('base64');
    expect(decodeInlinePhoto(exactly, undefined, 'photo', max).bytes.length).toBe(max);
  });
});
