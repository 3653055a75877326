// Password sign-in and password change, with failed attempts limited per account and
// client address, per client address, and by an account-wide backoff
// (lib/accounts/attempt-limits.ts).
import { sql } from 'kysely';
import { forgetCachedOwners } from './token-cache';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { ApiError } from '../core/errors';
import { recordAgentAction, type Attribution } from '../attribution/attribution';
import {
  accountKey,
  AttemptRefused,
  failureKeepSeconds,
  passwordAttemptRefusal,
  passwordRefusalMessage,
  recordAttempt,
  recordPasswordSuccess,
  type FailureLimits,
} from './attempt-limits';
import { generatePassword, hashPassword, verifyPassword } from '../core/secrets';
import { deleteOtherSessions } from './sessions';
import { revokeAllAccessTokens } from './tokens';

const MAX_PASSWORD_LENGTH = 200;

// Verifying against a throwaway hash when no account matches keeps the answer time the
// same, so timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;
const throwawayHash = () => (dummyHash ??= hashPassword(generatePassword()));

/** The live account with this address; a disabled one has released it (a new account may hold it now). */
export function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', accountKey(email))
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
}

/** Throws AttemptRefused (429 with Retry-After) while a limit holds; takes the locks either way. */
async function refuseWhileLimited(
  trx: Database,
  key: string,
  ip: string,
  limits: FailureLimits,
  signingIn: boolean,
): Promise<void> {
  const refusal = await passwordAttemptRefusal(trx, key, ip, limits);
  if (!refusal) return;
  const message = passwordRefusalMessage(refusal.reason, refusal.retryAfterSeconds);
  throw new AttemptRefused(
    refusal,
    signingIn ? `${message} You can sign in with an emailed link right away.` : message,
  );
}

/**
 * Under the account and address locks: refuses while a limit holds, then counts this
 * attempt as a failure and commits, before any password is hashed. argon2 then runs with
 * no lock and no database connection held (a burst of sign-ins cannot tie up the pool),
 * and concurrent attempts past a limit are still refused exactly: each one counted
 * itself before the next could look. The right password forgets its own failure
 * (recordPasswordSuccess clears this address's failures for the account).
 */
async function reserveAttempt<T>(
  db: Database,
  key: string,
  ip: string,
  limits: FailureLimits,
  signingIn: boolean,
  load: (trx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await refuseWhileLimited(trx, key, ip, limits, signingIn);
    await recordAttempt(trx, 'password_failure', key, ip, failureKeepSeconds(limits));
    return load(trx);
  });
}

/**
 * The account for this email and password, or null when they do not match.
 * Throws AttemptRefused while a limit holds; until it passes even the right password is
 * refused (from that address, or account-wide), so guessing cannot continue.
 */
export async function signInWithPassword(
  db: Database,
  input: { email: string; password: string; ip: string },
  limits: FailureLimits,
): Promise<UserRow | null> {
  const key = accountKey(input.email);
  const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
  const user = await reserveAttempt(db, key, input.ip, limits, true, (trx) =>
    key === '' ? Promise.resolve(undefined) : findUserByEmail(trx, key),
  );
  const ok = user
    ? password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(user.password_hash, password))
    : (await verifyPassword(await throwawayHash(), password)) && false;
  if (!ok || !user) return null;
  await db.transaction().execute((trx) => recordPasswordSuccess(trx, key, input.ip, limits));
  return user;
}

/**
 * Checks the account's current password, counted like a sign-in (a wrong one is a failed
 * attempt; while a limit holds even the right one is refused with 429). Throws wrong_password.
 */
export async function confirmPassword(
  db: Database,
  userId: string,
  password: string,
  ctx: { ip: string; limits: FailureLimits; field: string },
): Promise<void> {
  const current = await db.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst();
  if (!current) throw new ApiError('not_found', 'User not found');
  const key = accountKey(current.email);
  const user = await reserveAttempt(db, key, ctx.ip, ctx.limits, false, (trx) =>
    trx.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirstOrThrow(),
  );
  const ok = password.length <= MAX_PASSWORD_LENGTH && (await verifyPassword(user.password_hash, password));
  if (!ok) {
    throw new ApiError('wrong_password', 'The password is not correct', {
      fields: { [ctx.field]: 'That is not your current password' },
    });
  }
  await db.transaction().execute((trx) => recordPasswordSuccess(trx, key, ctx.ip, ctx.limits));
}

export interface PasswordChange extends Attribution {
  currentPassword: string;
  newPassword: string;
  /** "Sign out everywhere and revoke all assistant tokens": every access token stops working too. */
  revokeAllTokens?: boolean | null;
}

/**
 * Changes the password after checking the current one (a wrong one counts as a failed
 * attempt). Every other web session of the account ends; `keepSessionId` (the session
 * making the change, if any) stays signed in. Access tokens keep working unless
 * `revokeAllTokens` is set: then every one is revoked in the same transaction (the one
 * making the change included).
 */
export async function changePassword(
  db: Database,
  userId: string,
  change: PasswordChange,
  ctx: { ip: string; keepSessionId: string | null; limits: FailureLimits },
): Promise<{ signedOutSessions: number; revokedTokens: number }> {
  const current = await db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!current) throw new ApiError('not_found', 'User not found');
  const key = accountKey(current.email);
  const user = await reserveAttempt(db, key, ctx.ip, ctx.limits, false, (trx) =>
    trx.selectFrom('users').select(['password_hash']).where('id', '=', userId).executeTakeFirstOrThrow(),
  );
  if (!(await verifyPassword(user.password_hash, change.currentPassword))) {
    throw new ApiError('wrong_password', 'The current password is not correct', {
      fields: { currentPassword: 'That is not your current password' },
    });
  }
  // Hashed only now: a refused or wrong attempt costs no second argon2 run.
  const newHash = await hashPassword(change.newPassword);
  const outcome = await db.transaction().execute(async (trx) => {
    // Only over the hash that was checked: of two changes racing with the same current password, one wins.
    const updated = await trx
      .updateTable('users')
      .set({ password_hash: newHash, updated_at: sql`now()` })
      .where('id', '=', userId)
      .where('password_hash', '=', user.password_hash)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return null;
    await recordPasswordSuccess(trx, key, ctx.ip, ctx.limits);
    const signedOutSessions = await deleteOtherSessions(trx, { userId, keepSessionId: ctx.keepSessionId });
    const revokedTokens = change.revokeAllTokens ? await revokeAllAccessTokens(trx, userId) : 0;
    await recordAgentAction(trx, userId, 'change_password', change);
    return { signedOutSessions, revokedTokens };
  });
  if (outcome?.revokedTokens) forgetCachedOwners('r', userId); // committed: refuse them here at once
  if (!outcome) {
    throw new ApiError('conflict', 'The password was changed meanwhile by another request', {
      hint: 'Sign in again with the new password, then retry if needed.',
      fields: { currentPassword: 'no longer the current password' },
    });
  }
  return outcome;
}
