import { describe, expect, it } from 'vitest';
import { reviewPassword } from './credentials';

describe('reviewPassword', () => {
  it('is the same for the same secret and email, whatever the case of the address', () => {
    expect(reviewPassword('s3cret', 'review@example.com')).toBe(reviewPassword('s3cret', 'Review@Example.com'));
  });

  it.each([
    { change: 'another secret', secret: 'other', email: 'review@example.com' },
    { change: 'another address', secret: 's3cret', email: 'review@example.org' },
  ])('changes with $change', ({ secret, email }) => {
    expect(reviewPassword(secret, email)).not.toBe(reviewPassword('s3cret', 'review@example.com'));
  });

  it('reads like a generated password: 4 groups of 5 unambiguous characters', () => {
    expect(reviewPassword('s3cret', 'review@example.com')).toMatch(
      /^[a-hjkmnp-zA-HJ-NP-Z2-9]{5}-[a-hjkmnp-zA-HJ-NP-Z2-9]{5}-[a-hjkmnp-zA-HJ-NP-Z2-9]{5}-[a-hjkmnp-zA-HJ-NP-Z2-9]{5}$/,
    );
  });
});
