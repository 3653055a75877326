import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_ADVICE, ERROR_STATUS, type ErrorCode, uniqueConflict } from './errors';

describe('ApiError hints', () => {
  it('an error thrown without a hint answers with its code’s standard advice', () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      const error = new ApiError(code, 'message');
      expect(error.hint).toBeUndefined();
      expect(error.toBody().error.hint).toBe(ERROR_ADVICE[code]);
    }
  });

  it('the advice is the same whether passed explicitly or left out, so omitting it changes no body', () => {
    const implicit = new ApiError('photo_invalid', 'bad photo', { fields: { photo: 'bad' } });
    const explicit = new ApiError('photo_invalid', 'bad photo', {
      hint: ERROR_ADVICE.photo_invalid,
      fields: { photo: 'bad' },
    });
    expect(implicit.toBody()).toEqual(explicit.toBody());
  });

  it('a specific hint replaces the advice', () => {
    expect(new ApiError('not_found', 'Chat not found', { hint: 'List your chats.' }).toBody().error.hint).toBe(
      'List your chats.',
    );
  });

  it('unique violations answer with the advice and the field', () => {
    expect(uniqueConflict('users_email_lower_key').toBody()).toEqual({
      error: {
        code: 'email_taken',
        message: 'An account with this email already exists',
        hint: ERROR_ADVICE.email_taken,
        fields: { email: 'already registered' },
      },
    });
    expect(uniqueConflict('users_slug_key').toBody().error).toMatchObject({
      code: 'slug_taken',
      hint: ERROR_ADVICE.slug_taken,
    });
  });
});
