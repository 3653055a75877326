import { describe, expect, it } from 'vitest';
import { inWords, rateLimitedError } from './rate-limits';
import { errorBody, errorHeaders, errorStatus } from '../http/error-response';

describe('rate limit refusals', () => {
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [89, '89 seconds'],
    [90, '2 minutes'],
    [3599, '60 minutes'],
    [5400, '2 hours'],
    [86400, '24 hours'],
  ])('%i seconds read as %s', (seconds, words) => {
    expect(inWords(seconds)).toBe(words);
  });

  it('says the limit, when to come back, and carries Retry-After', () => {
    const error = rateLimitedError({ points: 120, windowSeconds: 3600, what: 'Discover searches' }, 840);
    expect(errorStatus(error)).toBe(429);
    expect(error.message).toBe('Too many Discover searches: at most 120 per hour. Try again in 14 minutes.');
    expect(errorHeaders(error)['retry-after']).toBe('840');
    expect(errorBody(error).error.hint).toMatch(/Retry-After/);
  });
});
