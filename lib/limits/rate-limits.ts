// Per-user and per-client rate limits, counted in PostgreSQL by rate-limiter-flexible
// (fixed windows, one row per key in rate_limits, 0008) so they hold across every app
// instance. A key over its limit is also remembered in memory until its window ends, so
// a flood of refused calls costs this instance no database round trip at all.
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { poolOf, type Database } from '@/db';
import { ApiError, ERROR_ADVICE } from '../core/errors';
import { LIMIT_NAMES, LIMIT_RULES, type LimitName, type LimitRule } from './rules';

/** A limit counted here: calls per window and what is counted (declared in ./rules). */
export type RateLimitRule = LimitRule;

/** The limits counted by this module, as declared in LIMIT_RULES. */
export type RateLimitName = {
  [K in LimitName]: (typeof LIMIT_RULES)[K]['mechanism'] extends 'rate_limits' ? K : never;
}[LimitName];
export const RATE_LIMIT_NAMES = LIMIT_NAMES.filter(
  (name): name is RateLimitName => LIMIT_RULES[name].mechanism === 'rate_limits',
);
export type RateLimitRules = Record<RateLimitName, RateLimitRule>;

const limiters = new WeakMap<Database, Map<string, RateLimiterPostgres>>();

/**
 * The library names its prepared statements, and a named statement lives on one server
 * connection: behind PgBouncer in transaction mode the next query may land on another, where
 * it does not exist (docs/deployment.md). Unnamed, each query is parsed where it runs.
 */
function unnamedStatements(pool: pg.Pool): Pick<pg.Pool, 'query'> {
  return {
    query: ((config: pg.QueryConfig) => pool.query({ text: config.text, values: config.values })) as pg.Pool['query'],
  };
}

function limiterFor(db: Database, name: RateLimitName, rule: RateLimitRule): RateLimiterPostgres {
  let byName = limiters.get(db);
  if (!byName) limiters.set(db, (byName = new Map()));
  // Keyed by the rule too, so a changed configuration (tests) gets its own limiter.
  const id = `${name}:${rule.points}:${rule.windowSeconds}`;
  let limiter = byName.get(id);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: unnamedStatements(poolOf(db)),
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: name,
      points: rule.points,
      duration: rule.windowSeconds,
      // The first refused call blocks the key in this process until the window ends.
      inMemoryBlockOnConsumed: rule.points + 1,
    });
    byName.set(id, limiter);
  }
  return limiter;
}

/** "14 minutes", "1 hour", "30 seconds". */
export function inWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds < 90) return unit(seconds, 'second');
  if (seconds < 90 * 60) return unit(Math.ceil(seconds / 60), 'minute');
  return unit(Math.ceil(seconds / 3600), 'hour');
}

/** "a day", "an hour", "a minute", or "10 minutes". */
export function windowInWords(seconds: number): string {
  if (seconds === 60) return 'a minute';
  if (seconds === 3600) return 'an hour';
  if (seconds === 86400) return 'a day';
  return inWords(seconds);
}

/** "hour", "day", "10 minutes": a window after "per". */
export function windowUnit(seconds: number): string {
  return windowInWords(seconds).replace(/^an? /, '');
}

/** "120 per hour", "10 per day": a rule as the refusals and the guides state it. */
export function perWindow(rule: Pick<RateLimitRule, 'points' | 'windowSeconds'>): string {
  return `${rule.points} per ${windowUnit(rule.windowSeconds)}`;
}

/**
 * The IETF fields (draft-ietf-httpapi-ratelimit-headers-09): `RateLimit-Policy` states the
 * quota (q calls per w seconds), `RateLimit` what is left (r) and the seconds until the
 * window resets (t), so an agent can pace itself before it is refused.
 */
export function rateLimitHeaders(
  policy: string,
  rule: Pick<RateLimitRule, 'points' | 'windowSeconds'>,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${rule.points};w=${rule.windowSeconds}`,
    ratelimit: `"${policy}";r=${Math.max(0, Math.floor(remaining))};t=${Math.max(0, Math.ceil(resetSeconds))}`,
  };
}

export function rateLimitedError(
  rule: RateLimitRule,
  retryAfterSeconds: number,
  hint?: string,
  policy?: string,
): ApiError {
  return new ApiError(
    'rate_limited',
    `Too many ${rule.what}: at most ${perWindow(rule)}. Try again in ${inWords(retryAfterSeconds)}.`,
    {
      hint: hint ?? ERROR_ADVICE.rate_limited,
      retryAfterSeconds,
      ...(policy ? { rateLimit: { policy, points: rule.points, windowSeconds: rule.windowSeconds } } : {}),
    },
  );
}

/**
 * Counts one call of `key` (a user id or client address) against the rule, or throws
 * 429 rate_limited with Retry-After when the window's calls are used up. Returns the
 * RateLimit fields for the answer; the 429 carries them too.
 */
export async function consumeRateLimit(
  db: Database,
  name: RateLimitName,
  rule: RateLimitRule,
  key: string,
  hint?: string,
): Promise<Record<string, string>> {
  try {
    const state = await limiterFor(db, name, rule).consume(key);
    return rateLimitHeaders(name, rule, state.remainingPoints, state.msBeforeNext / 1000);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      throw rateLimitedError(rule, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), hint, name);
    }
    throw rejection;
  }
}

/**
 * The RateLimit fields for `key` without counting a call: for an endpoint that counts
 * only some calls (PATCH /me.json counts moves and new photoURLs), what is left now.
 */
export async function rateLimitState(
  db: Database,
  name: RateLimitName,
  rule: RateLimitRule,
  key: string,
): Promise<Record<string, string>> {
  const state = await limiterFor(db, name, rule).get(key);
  const used = state && state.msBeforeNext > 0 ? state.consumedPoints : 0;
  return rateLimitHeaders(name, rule, rule.points - used, used ? state!.msBeforeNext / 1000 : 0);
}

/** Several policies in one answer: each field is a list, one member per policy. */
export function mergeRateLimitHeaders(...sets: Array<Record<string, string>>): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set)) merged[name] = merged[name] ? `${merged[name]}, ${value}` : value;
  }
  return merged;
}
