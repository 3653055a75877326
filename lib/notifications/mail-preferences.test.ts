import { describe, expect, it } from 'vitest';
import { durationFromEnv, reminderOffsetsFromEnv } from '../config';
import {
  addressHash,
  contactTokenAddress,
  contactUnsubscribeToken,
  unsubscribeToken,
  unsubscribeTokenOwner,
} from './mail-preferences';

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

describe("a trusted contact's unsubscribe token", () => {
  it('names the address (any case) by its hash only, and passes for no member nor another address', () => {
    const token = contactUnsubscribeToken(key, 'Friend@Example.com');
    expect(token).not.toMatch(/friend|example/i);
    expect(contactTokenAddress(key, token)).toEqual(addressHash('friend@example.com'));
    expect(unsubscribeTokenOwner(key, token)).toBeNull();
    expect(contactTokenAddress(key, unsubscribeToken(key, user))).toBeNull();
    const other = contactUnsubscribeToken(key, 'someone@example.com');
    expect(contactTokenAddress(key, `${token.split('.').slice(0, 2).join('.')}.${other.split('.')[2]}`)).toBeNull();
    expect(contactTokenAddress('x'.repeat(43), token)).toBeNull();
    expect(contactTokenAddress(key, 'c.nonsense')).toBeNull();
  });
});

describe('check-in durations', () => {
  it('read hours, minutes and seconds, a bare number as minutes, and refuse anything else', () => {
    expect(durationFromEnv('X', undefined, 3600)).toBe(3600);
    expect(durationFromEnv('X', '1h', 0)).toBe(3600);
    expect(durationFromEnv('X', '30', 0)).toBe(1800);
    expect(durationFromEnv('X', '6s', 0)).toBe(6);
    expect(durationFromEnv('X', '0', 60)).toBe(0);
    for (const bad of ['-5', '2d', 'soon', '1.5h']) expect(() => durationFromEnv('X', bad, 0)).toThrow();
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
