import { describe, expect, it } from 'vitest';
import { reminderOffsetsFromEnv } from '../config';
import { unsubscribeToken, unsubscribeTokenOwner } from './mail-preferences';

const key = 'k'.repeat(43);
const user = '0b6c1c1e-7a1e-4d55-9d1f-6c1d2f0a9a11';
const other = '1b6c1c1e-7a1e-4d55-9d1f-6c1d2f0a9a11';

describe('the unsubscribe token', () => {
  it('names its person, and nobody else: a token for one id does not pass for another, nor under another key', () => {
    const token = unsubscribeToken(key, user);
    expect(unsubscribeTokenOwner(key, token)).toBe(user);
    expect(unsubscribeTokenOwner(key, token.replace(user, other))).toBeNull();
    expect(unsubscribeTokenOwner('x'.repeat(43), token)).toBeNull();
    expect(unsubscribeTokenOwner(key, `${user}.`)).toBeNull();
    expect(unsubscribeTokenOwner(key, 'nonsense')).toBeNull();
  });
});

describe('PLAN_REMINDER_OFFSETS', () => {
  it('reads hours and minutes, latest first, and refuses anything else', () => {
    expect(reminderOffsetsFromEnv(undefined)).toEqual([1440, 120]);
    expect(reminderOffsetsFromEnv('2h, 24h')).toEqual([1440, 120]);
    expect(reminderOffsetsFromEnv('90m,5')).toEqual([90, 5]);
    for (const bad of ['0', '-5', '2d', 'soon', '1.5h']) expect(() => reminderOffsetsFromEnv(bad)).toThrow();
  });
});
