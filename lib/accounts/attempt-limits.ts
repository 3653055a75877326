// Limits on failed passwords and on "email me a sign-in link" requests, counted in
// PostgreSQL (auth_attempts) so they hold across any number of app instances. Advisory
// locks serialise the attempts of one account and of one client address, so concurrent
// guesses cannot all slip in under a limit.
//
// Failed passwords are limited so that a stranger cannot lock the owner out:
//  - per account *from one client address* (5 per 15 minutes): a stranger's failures
//    pause the stranger's address, not the owner's;
//  - per client address across accounts (20 per 15 minutes): one address cannot spray;
//  - per account from everywhere, an exponential backoff that stops a guesser spread over
//    many addresses: the first 20 failures in 24 hours are free, then each further one
//    pauses password sign-in of the account for 1, 2, 4 … at most 60 minutes after it.
//    Addresses the account signed in from with its password in the last 30 days are
//    exempt, and the emailed link always works.
// Every count is keyed by the lower-cased email, account or not, so the answers never
// reveal whether an account exists.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { AuthAttemptsTable } from '@/db/types';
import { ApiError } from '../core/errors';
import { inWords } from '../limits/rate-limits';

export type AttemptKind = AuthAttemptsTable['kind'];

/** "Email me a link" requests: per address (email) and per client address in a rolling window. */
export interface AttemptLimits {
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

export interface FailureLimits {
  /** Failed passwords for one account from one client address (SIGNIN_FAILURE_LIMIT_PER_ACCOUNT). */
  perAccountFromIp: number;
  /** Failed passwords from one client address, whatever the accounts (SIGNIN_FAILURE_LIMIT_PER_IP). */
  perIp: number;
  windowSeconds: number;
  backoff: {
    /** Failures of one account from all addresses within `windowSeconds` before the backoff starts (SIGNIN_FAILURE_BACKOFF_AFTER). */
    after: number;
    windowSeconds: number;
    firstPauseSeconds: number;
    /** SIGNIN_FAILURE_BACKOFF_MAX_MINUTES. */
    maxPauseSeconds: number;
  };
  /** How long a successful password sign-in exempts its address from the backoff. */
  knownAddressSeconds: number;
}

/**
 * Why an attempt is refused: `account_here` one account from this client address,
 * `network` this client address whatever the account, `account` the account-wide
 * backoff, `email` link requests for one email address.
 */
export type RefusalReason = 'account_here' | 'network' | 'account' | 'email';
export interface Refusal {
  reason: RefusalReason;
  retryAfterSeconds: number;
}
export const REFUSAL_REASONS: readonly RefusalReason[] = ['account_here', 'network', 'account', 'email'];

/** The key an account is counted under: the lower-cased email, whether or not an account has it. */
export function accountKey(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/** Takes the account and address locks for the rest of the transaction, always in that order (no deadlocks). */
async function lockAttempts(trx: Database, kind: AttemptKind, account: string, ip: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:account:${account}`}, 0))`.execute(trx);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}:ip:${ip}`}, 0))`.execute(trx);
}

interface WindowCount {
  count: number;
  /** Seconds since the newest counted attempt. */
  newestAge: number;
  /** Seconds until the count drops below `limit` (the limit-th newest attempt leaves the window). */
  secondsUntilBelow: number;
}

/** Ages come from the database clock, so app and database clocks need not agree. */
async function countInWindow(
  trx: Database,
  kind: AttemptKind,
  by: { account?: string; ip?: string },
  windowSeconds: number,
  limit: number,
): Promise<WindowCount> {
  const { rows } = await sql<{ count: number; newest_age: number | null; nth_age: number | null }>`
    select count(*)::int as count,
           extract(epoch from now() - max(created_at))::float8 as newest_age,
           extract(epoch from now() - (array_agg(created_at order by created_at desc))[${Math.max(1, limit)}::int])::float8 as nth_age
      from auth_attempts
     where kind = ${kind}
       and created_at > now() - make_interval(secs => ${windowSeconds})
       ${by.account !== undefined ? sql`and account_key = ${by.account}` : sql``}
       ${by.ip !== undefined ? sql`and ip = ${by.ip}` : sql``}`.execute(trx);
  const row = rows[0]!;
  return {
    count: row.count,
    newestAge: row.newest_age ?? Infinity,
    secondsUntilBelow: Math.max(1, Math.ceil(windowSeconds - (row.nth_age ?? windowSeconds))),
  };
}

/** The longest of the refusals that apply: the person can succeed only once all have passed. */
function longest(refusals: Array<Refusal | null>): Refusal | null {
  return refusals.reduce<Refusal | null>(
    (worst, r) => (r && (!worst || r.retryAfterSeconds > worst.retryAfterSeconds) ? r : worst),
    null,
  );
}

/** Pause after the latest failure once the account has `count` failures in the backoff window. */
export function backoffPauseSeconds(count: number, backoff: FailureLimits['backoff']): number {
  if (count < backoff.after) return 0;
  const doublings = Math.min(count - backoff.after, 30);
  return Math.min(backoff.firstPauseSeconds * 2 ** doublings, backoff.maxPauseSeconds);
}

async function isKnownAddress(trx: Database, account: string, ip: string, limits: FailureLimits): Promise<boolean> {
  const row = await trx
    .selectFrom('signin_addresses')
    .select('ip')
    .where('account_key', '=', account)
    .where('ip', '=', ip)
    .where('last_success_at', '>', sql<Date>`now() - make_interval(secs => ${limits.knownAddressSeconds})`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Locks the account and address for the rest of the transaction and says whether a
 * password may be checked now, or why not and for how long.
 */
export async function passwordAttemptRefusal(
  trx: Database,
  account: string,
  ip: string,
  limits: FailureLimits,
): Promise<Refusal | null> {
  await lockAttempts(trx, 'password_failure', account, ip);
  const [here, network, everywhere] = await Promise.all([
    countInWindow(trx, 'password_failure', { account, ip }, limits.windowSeconds, limits.perAccountFromIp),
    countInWindow(trx, 'password_failure', { ip }, limits.windowSeconds, limits.perIp),
    countInWindow(trx, 'password_failure', { account }, limits.backoff.windowSeconds, 1),
  ]);
  const refusals: Array<Refusal | null> = [
    here.count >= limits.perAccountFromIp
      ? { reason: 'account_here', retryAfterSeconds: here.secondsUntilBelow }
      : null,
    network.count >= limits.perIp ? { reason: 'network', retryAfterSeconds: network.secondsUntilBelow } : null,
  ];
  const pauseLeft = backoffPauseSeconds(everywhere.count, limits.backoff) - everywhere.newestAge;
  if (pauseLeft > 0 && !(await isKnownAddress(trx, account, ip, limits))) {
    refusals.push({ reason: 'account', retryAfterSeconds: Math.max(1, Math.ceil(pauseLeft)) });
  }
  return longest(refusals);
}

/** Locks like passwordAttemptRefusal and says whether one more sign-in link may be mailed. */
export async function linkRequestRefusal(
  trx: Database,
  account: string,
  ip: string,
  limits: AttemptLimits,
): Promise<Refusal | null> {
  await lockAttempts(trx, 'link_request', account, ip);
  const [email, network] = await Promise.all([
    countInWindow(trx, 'link_request', { account }, limits.windowSeconds, limits.perAccount),
    countInWindow(trx, 'link_request', { ip }, limits.windowSeconds, limits.perIp),
  ]);
  return longest([
    email.count >= limits.perAccount ? { reason: 'email', retryAfterSeconds: email.secondsUntilBelow } : null,
    network.count >= limits.perIp ? { reason: 'network', retryAfterSeconds: network.secondsUntilBelow } : null,
  ]);
}

/** Counts one attempt; rows older than `keepSeconds` (the longest window they count in) are tidied away. */
export async function recordAttempt(
  trx: Database,
  kind: AttemptKind,
  account: string,
  ip: string,
  keepSeconds: number,
): Promise<void> {
  const expired = sql<Date>`now() - make_interval(secs => ${keepSeconds})`;
  await trx
    .deleteFrom('auth_attempts')
    .where('kind', '=', kind)
    .where('account_key', '=', account)
    .where('created_at', '<=', expired)
    .execute();
  await trx
    .deleteFrom('auth_attempts')
    .where('kind', '=', kind)
    .where('ip', '=', ip)
    .where('created_at', '<=', expired)
    .execute();
  await trx.insertInto('auth_attempts').values({ kind, account_key: account, ip }).execute();
}

/** How long failed-password rows must be kept: the longest window they are counted in. */
export function failureKeepSeconds(limits: FailureLimits): number {
  return Math.max(limits.windowSeconds, limits.backoff.windowSeconds);
}

/**
 * The right password from this address: its own failures for the account are forgotten
 * (a stranger's, from other addresses, are not) and the address becomes known, exempt
 * from the account-wide backoff for `knownAddressSeconds`.
 */
export async function recordPasswordSuccess(
  trx: Database,
  account: string,
  ip: string,
  limits: FailureLimits,
): Promise<void> {
  await trx
    .deleteFrom('auth_attempts')
    .where('kind', '=', 'password_failure')
    .where('account_key', '=', account)
    .where('ip', '=', ip)
    .execute();
  await trx
    .deleteFrom('signin_addresses')
    .where('account_key', '=', account)
    .where('last_success_at', '<=', sql<Date>`now() - make_interval(secs => ${limits.knownAddressSeconds})`)
    .execute();
  await trx
    .insertInto('signin_addresses')
    .values({ account_key: account, ip })
    .onConflict((oc) => oc.columns(['account_key', 'ip']).doUpdateSet({ last_success_at: sql`now()` }))
    .execute();
}

const PASSWORD_REFUSALS: Record<Exclude<RefusalReason, 'email'>, string> = {
  account_here:
    'Too many wrong passwords for this account from your network, so password attempts for it are paused here.',
  network: 'Too many wrong passwords from your network, so password attempts from here are paused.',
  account:
    'Too many wrong passwords for this account from many places, so to protect it password attempts are paused, except from places it recently signed in from.',
};

const LINK_REFUSALS: Record<'email' | 'network', string> = {
  email:
    'We have already sent as many sign-in links to this address as we send in an hour. If an account uses it, the links already sent are in its inbox (check the spam folder too); each works once.',
  network: 'Too many sign-in link requests from your network.',
};

/** "Try again in 14 minutes." — or "now" once the time has passed. */
export function whenAgain(retryAfterSeconds: number | null, action = 'Try again'): string {
  if (retryAfterSeconds === null) return `${action} in a few minutes.`;
  if (retryAfterSeconds <= 0) return `${action} now.`;
  return `${action} in ${inWords(Math.ceil(retryAfterSeconds))}.`;
}

/** The words for a refused password check; `retryAfterSeconds` null when unknown. */
export function passwordRefusalMessage(reason: RefusalReason | null, retryAfterSeconds: number | null): string {
  const why =
    reason && reason !== 'email'
      ? PASSWORD_REFUSALS[reason]
      : 'Too many wrong passwords, so password attempts are paused for a while.';
  return `${why} ${whenAgain(retryAfterSeconds)}`;
}

/** The words for a refused "email me a link" request. */
export function linkRefusalMessage(reason: RefusalReason | null, retryAfterSeconds: number | null): string {
  const why = reason === 'email' ? LINK_REFUSALS.email : LINK_REFUSALS.network;
  return `${why} ${whenAgain(retryAfterSeconds, 'You can ask for another link')}`;
}

/** A refused attempt: 429 rate_limited with Retry-After; `refusal` says why, for pages that explain it. */
export class AttemptRefused extends ApiError {
  constructor(
    readonly refusal: Refusal,
    message: string,
  ) {
    super('rate_limited', message, { retryAfterSeconds: refusal.retryAfterSeconds });
  }
}
