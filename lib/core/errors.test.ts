import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_ADVICE, ERROR_CODES, uniqueConflict } from './errors';
import { errorBody } from '../http/error-response';

describe('ApiError hints', () => {
  it('an error thrown without a hint answers with its code’s standard advice', () => {
    for (const code of ERROR_CODES) {
      const error = new ApiError(code, 'message');
      expect(error.hint).toBeUndefined();
      expect(errorBody(error).error.hint).toBe(ERROR_ADVICE[code]);
    }
  });

  it('the advice is the same whether passed explicitly or left out, so omitting it changes no body', () => {
    const implicit = new ApiError('photo_invalid', 'bad photo', { fields: { photo: 'bad' } });
    const explicit = new ApiError('photo_invalid', 'bad photo', {
      hint: ERROR_ADVICE.photo_invalid,
      fields: { photo: 'bad' },
    });
    expect(errorBody(implicit)).toEqual(errorBody(explicit));
  });

  it('a specific hint replaces the advice', () => {
    expect(errorBody(new ApiError('not_found', 'Chat not found', { hint: 'List your chats.' })).error.hint).toBe(
      'List your chats.',
    );
  });

  it('unique violations answer with the advice and the field', () => {
    expect(errorBody(uniqueConflict('users_email_lower_key'))).toEqual({
      error: {
        code: 'email_taken',
        message: 'An account with this email already exists',
        hint: ERROR_ADVICE.email_taken,
        fields: { email: 'already registered' },
      },
    });
    expect(errorBody(uniqueConflict('users_slug_key')).error).toMatchObject({
      code: 'slug_taken',
      hint: ERROR_ADVICE.slug_taken,
    });
  });
});
