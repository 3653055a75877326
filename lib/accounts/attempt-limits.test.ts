import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { backoffPauseSeconds, linkRefusalMessage, passwordRefusalMessage, whenAgain } from './attempt-limits';

const backoff = { after: 20, windowSeconds: 86400, firstPauseSeconds: 60, maxPauseSeconds: 3600 };

describe('the account-wide backoff', () => {
  it.each([
    [0, 0],
    [19, 0],
    [20, 60],
    [21, 120],
    [22, 240],
    [25, 1920],
    [26, 3600],
    [1000, 3600],
  ])('after %d failures in 24 h pauses %d s after the latest', (count, pause) => {
    expect(backoffPauseSeconds(count, backoff)).toBe(pause);
  });

  it('lets a guesser spread over unlimited addresses try about 50 passwords on the first day, then 24 a day', () => {
    // Simulate a guesser who tries again the moment each pause ends, failures staying 24 h.
    let t = 0;
    const failures: number[] = [];
    while (t < 3 * 86400) {
      const recent = failures.filter((f) => f > t - 86400);
      const wait = recent.length ? backoffPauseSeconds(recent.length, backoff) - (t - recent[recent.length - 1]!) : 0;
      if (wait > 0) t += wait;
      failures.push(t);
      t += 1;
    }
    const perDay = (day: number) => failures.filter((f) => f >= day * 86400 && f < (day + 1) * 86400).length;
    expect(perDay(0)).toBeLessThanOrEqual(50);
    expect(perDay(2)).toBeLessThanOrEqual(25);
  });
});

describe('refusal words', () => {
  it.each([
    [null, 'Try again in a few minutes.'],
    [0, 'Try again now.'],
    [45, 'Try again in 45 seconds.'],
    [900, 'Try again in 15 minutes.'],
    [3600, 'Try again in 60 minutes.'],
    [7200, 'Try again in 2 hours.'],
  ])('%j seconds → %s', (seconds, words) => {
    expect(whenAgain(seconds)).toBe(words);
  });

  it('always say when, for every reason', () => {
    for (const reason of ['account_here', 'network', 'account', null] as const) {
      expect(passwordRefusalMessage(reason, 600)).toMatch(/^Too many wrong passwords.*Try again in 10 minutes\.$/);
    }
    for (const reason of ['email', 'network', null] as const) {
      expect(linkRefusalMessage(reason, 1200)).toMatch(/You can ask for another link in 20 minutes\.$/);
    }
  });
});

describe('configuration', () => {
  const load = (vars: Record<string, string>) => loadConfig(vars as NodeJS.ProcessEnv).signinFailureLimits;

  it('defaults to 5 per account and address, 20 per address, backoff after 20 failures up to an hour', () => {
    expect(load({})).toEqual({
      perAccountFromIp: 5,
      perIp: 20,
      windowSeconds: 900,
      backoff: { after: 20, windowSeconds: 86400, firstPauseSeconds: 60, maxPauseSeconds: 3600 },
      knownAddressSeconds: 30 * 86400,
    });
  });

  // Read from the environment given to loadConfig (process.env when running), like every other limit.
  it('keeps the old variable names and reads the new ones', () => {
    const vars = {
      SIGNIN_FAILURE_LIMIT_PER_ACCOUNT: '3',
      SIGNIN_FAILURE_LIMIT_PER_IP: '9',
      SIGNIN_FAILURE_BACKOFF_AFTER: '50',
      SIGNIN_FAILURE_BACKOFF_MAX_MINUTES: '240',
    };
    expect(load(vars)).toMatchObject({ perAccountFromIp: 3, perIp: 9, backoff: { after: 50, maxPauseSeconds: 14400 } });
    expect(() => load({ ...vars, SIGNIN_FAILURE_BACKOFF_AFTER: 'many' })).toThrow(/SIGNIN_FAILURE_BACKOFF_AFTER/);
  });
});
