// "This wasn't me": every sign-in mail carries a link with which the owner of the mailbox
// disowns the account. Registration does not verify the address, so someone may sign a
// stranger's address up and keep the token; the link lets that stranger switch the
// account off before it is used against them. Like sign-in links the secret is random,
// single use and stored only as its SHA-256, but in its own table so it can never sign
// anyone in. It lasts 30 days, long enough for a mail read late; an expired one is
// replaced by asking for any sign-in mail ("email me a link"), which carries a new one.
import { sql } from 'kysely';
import { forgetCachedOwners } from './token-cache';
import type { Database } from '@/db';
import { disableAccount, type DisabledAccount } from './disable';
import { randomSecret, sha256 } from '../core/secrets';

export const NOT_ME_LINK_TTL_SECONDS = 30 * 24 * 3600;
export const NOT_ME_LINK_PREFIX = 'bm_nm_';
export const NOT_ME_PAGE_PATH = '/signin/not-me';

export function notMeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}${NOT_ME_PAGE_PATH}?token=${encodeURIComponent(token)}`;
}

export async function createNotMeLink(
  db: Database,
  userId: string,
  baseUrl: string,
): Promise<{ url: string; expiresInSeconds: number }> {
  const token = randomSecret(NOT_ME_LINK_PREFIX);
  // Housekeeping: this account's expired links are of no further use. (Used ones stay: a
  // link is used only by disabling, and a disabled account is sent no more mail.)
  await db
    .deleteFrom('not_me_links')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  await db
    .insertInto('not_me_links')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      expires_at: new Date(Date.now() + NOT_ME_LINK_TTL_SECONDS * 1000),
    })
    .execute();
  return { url: notMeUrl(baseUrl, token), expiresInSeconds: NOT_ME_LINK_TTL_SECONDS };
}

export type NotMeLinkState =
  | { state: 'valid'; email: string; accountCreatedAt: Date; expiresAt: Date }
  | { state: 'used'; accountDisabled: boolean }
  | { state: 'expired' | 'unknown' };

function plausible(token: string): boolean {
  return token.startsWith(NOT_ME_LINK_PREFIX) && token.length <= 200;
}

/** What a link would do, without using it (the page shows this before the person confirms). */
export async function inspectNotMeLink(db: Database, token: string): Promise<NotMeLinkState> {
  if (!plausible(token)) return { state: 'unknown' };
  const row = await db
    .selectFrom('not_me_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.expires_at', 'l.used_at', 'u.email', 'u.created_at', 'u.disabled_at'])
    .where('l.token_hash', '=', sha256(token))
    .executeTakeFirst();
  if (!row) return { state: 'unknown' };
  // Disabling marks every link of the account used; a disabled account's link is spent either way.
  if (row.used_at || row.disabled_at) return { state: 'used', accountDisabled: row.disabled_at !== null };
  if (row.expires_at.getTime() <= Date.now()) return { state: 'expired' };
  return { state: 'valid', email: row.email, accountCreatedAt: new Date(row.created_at), expiresAt: row.expires_at };
}

export type NotMeOutcome = ({ ok: true } & DisabledAccount) | { ok: false; reason: 'used' | 'expired' | 'unknown' };

/**
 * Uses the link and disables its account, in one transaction. One UPDATE … WHERE used_at
 * IS NULL decides, so of two simultaneous uses exactly one acts; the other learns why not.
 */
export async function disableAccountWithNotMeLink(db: Database, token: string): Promise<NotMeOutcome> {
  if (!plausible(token)) return { ok: false, reason: 'unknown' };
  const outcome = await db.transaction().execute(async (trx): Promise<NotMeOutcome | null> => {
    const used = await trx
      .updateTable('not_me_links')
      .set({ used_at: sql`now()` })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id')
      .executeTakeFirst();
    if (!used) return null;
    return { ok: true, ...(await disableAccount(trx, used.user_id, 'not_me')) };
  });
  if (outcome?.ok) forgetCachedOwners('r', outcome.userId); // committed: refuse its tokens here at once
  if (outcome) return outcome;
  const state = await inspectNotMeLink(db, token);
  // 'valid' here means it expired between the two statements' clocks.
  return { ok: false, reason: state.state === 'valid' ? 'expired' : state.state };
}
