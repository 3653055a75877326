// The counters behind the limits hold network addresses and email addresses (typed at sign-in,
// whether or not an account has them). Each is needed only for the window it is counted in, so
// the minute sweep (server/workers.ts) deletes it once that window is over. Before this, a row
// was tidied only when the same address or account came back, so a one-off visitor's address
// stayed for good, which the privacy page could not have said.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { type FailureLimits, failureKeepSeconds } from './attempt-limits';
import type { Limits } from '../limits/rules';

export interface CounterWindows {
  limits: Pick<Limits, 'registrations'>;
  signinFailureLimits: FailureLimits;
  signinLinkLimits: { windowSeconds: number };
}

/** How long each kind of counter row is kept: the longest window it is counted in. */
export function counterKeepSeconds(windows: CounterWindows) {
  return {
    registrations: windows.limits.registrations.windowSeconds,
    passwordFailures: failureKeepSeconds(windows.signinFailureLimits),
    linkRequests: windows.signinLinkLimits.windowSeconds,
    knownAddresses: windows.signinFailureLimits.knownAddressSeconds,
  };
}

const olderThan = (seconds: number) => sql<Date>`now() - make_interval(secs => ${seconds})`;

/** Deletes every counter row whose window has ended. */
export async function pruneSpentCounters(db: Database, windows: CounterWindows): Promise<void> {
  const keep = counterKeepSeconds(windows);
  // rate-limiter-flexible's fixed windows: `expire` is the window's end in epoch milliseconds.
  await sql`delete from rate_limits where expire < ${Date.now()}`.execute(db);
  await db.deleteFrom('registrations').where('created_at', '<=', olderThan(keep.registrations)).execute();
  await db
    .deleteFrom('auth_attempts')
    .where('kind', '=', 'password_failure')
    .where('created_at', '<=', olderThan(keep.passwordFailures))
    .execute();
  await db
    .deleteFrom('auth_attempts')
    .where('kind', '=', 'link_request')
    .where('created_at', '<=', olderThan(keep.linkRequests))
    .execute();
  await db.deleteFrom('signin_addresses').where('last_success_at', '<=', olderThan(keep.knownAddresses)).execute();
}
