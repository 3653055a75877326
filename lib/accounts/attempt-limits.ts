// Rolling-window limits on sign-in attempts, counted in PostgreSQL so they hold across
// any number of app instances. Advisory locks serialise the attempts of one account and
// of one client IP, so concurrent guesses cannot all slip in under the limit.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { AuthAttemptsTable } from '@/db/types';
import { ApiError, ERROR_ADVICE } from '../http/errors';

export type AttemptKind = AuthAttemptsTable['kind'];

export interface AttemptLimits {
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

export interface AttemptCounts {
  account: number;
  ip: number;
  /** Seconds until the oldest counted attempt of whichever limit is reached leaves the window. */
  retryAfterSeconds: (which: 'account' | 'ip') => number;
}

/** The key an account is counted under: the lower-cased email, whether or not an account has it. */
export function accountKey(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/**
 * Takes the account and IP locks for the rest of the transaction (always in that order,
 * so two transactions can never wait on each other) and counts the attempts in the window.
 */
export async function lockAndCountAttempts(
  trx: Database,
  kind: AttemptKind,
  account: string,
  ip: string,
  limits: AttemptLimits,
): Promise<AttemptCounts> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:account:${account}`}, 0))`.execute(trx);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:ip:${ip}`}, 0))`.execute(trx);
  const since = sql<Date>`now() - make_interval(secs => ${limits.windowSeconds})`;
  const count = (column: 'account_key' | 'ip', value: string) =>
    trx
      .selectFrom('auth_attempts')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
      .where('kind', '=', kind)
      .where(column, '=', value)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
  const [byAccount, byIp] = await Promise.all([count('account_key', account), count('ip', ip)]);
  const retry = (oldest: Date | string | null) => {
    const start = oldest ? new Date(oldest).getTime() : Date.now();
    return Math.max(1, Math.ceil((start + limits.windowSeconds * 1000 - Date.now()) / 1000));
  };
  return {
    account: Number(byAccount.count),
    ip: Number(byIp.count),
    retryAfterSeconds: (which) => retry(which === 'account' ? byAccount.oldest : byIp.oldest),
  };
}

export async function recordAttempt(trx: Database, kind: AttemptKind, account: string, ip: string, limits: AttemptLimits): Promise<void> {
  // Housekeeping under the same locks: rows that have left the window are never counted again.
  const expired = sql<Date>`now() - make_interval(secs => ${limits.windowSeconds})`;
  await trx.deleteFrom('auth_attempts').where('kind', '=', kind).where('account_key', '=', account).where('created_at', '<=', expired).execute();
  await trx.deleteFrom('auth_attempts').where('kind', '=', kind).where('ip', '=', ip).where('created_at', '<=', expired).execute();
  await trx.insertInto('auth_attempts').values({ kind, account_key: account, ip }).execute();
}

/** A correct password resets the account's failure count (the IP's count stays). */
export async function clearAccountAttempts(trx: Database, kind: AttemptKind, account: string): Promise<void> {
  await trx.deleteFrom('auth_attempts').where('kind', '=', kind).where('account_key', '=', account).execute();
}

export function rateLimited(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError('rate_limited', message, {
    hint: ERROR_ADVICE.rate_limited,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}
