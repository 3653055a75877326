// Single-use sign-in links (the inline mobile_signin_url and the emailed magic link).
import { sql } from 'kysely';
import type { Database } from '@/db';
import { randomSecret, sha256 } from '../core/secrets';

export const SIGNIN_LINK_TTL_SECONDS = 3600;
export const SIGNIN_LINK_PREFIX = 'bm_sl_';

export function signinUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/signin/link?token=${encodeURIComponent(token)}`;
}

export async function createSigninLink(
  db: Database,
  userId: string,
  purpose: 'mobile' | 'email',
  baseUrl: string,
): Promise<{ url: string; expiresInSeconds: number }> {
  const token = randomSecret(SIGNIN_LINK_PREFIX);
  await db
    .insertInto('signin_links')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      purpose,
      expires_at: new Date(Date.now() + SIGNIN_LINK_TTL_SECONDS * 1000),
    })
    .execute();
  return { url: signinUrl(baseUrl, token), expiresInSeconds: SIGNIN_LINK_TTL_SECONDS };
}

export type SigninLinkState =
  | { state: 'valid'; userId: string; displayName: string; purpose: 'mobile' | 'email'; expiresAt: Date }
  | { state: 'used' | 'expired' | 'unknown' };

function plausibleLinkToken(token: string): boolean {
  return token.startsWith(SIGNIN_LINK_PREFIX) && token.length <= 200;
}

/** What a link is, without using it up (the confirm page shows this before the person confirms). */
export async function inspectSigninLink(db: Database, token: string): Promise<SigninLinkState> {
  if (!plausibleLinkToken(token)) return { state: 'unknown' };
  return inspectByHash(db, sha256(token));
}

async function inspectByHash(db: Database, tokenHash: Buffer): Promise<SigninLinkState> {
  const row = await db
    .selectFrom('signin_links')
    .innerJoin('users', 'users.id', 'signin_links.user_id')
    .select([
      'signin_links.user_id',
      'signin_links.purpose',
      'signin_links.expires_at',
      'signin_links.used_at',
      'users.display_name',
    ])
    .where('signin_links.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return { state: 'unknown' };
  if (row.used_at) return { state: 'used' };
  if (row.expires_at.getTime() <= Date.now()) return { state: 'expired' };
  return {
    state: 'valid',
    userId: row.user_id,
    displayName: row.display_name,
    purpose: row.purpose,
    expiresAt: row.expires_at,
  };
}

export type ConsumedLink =
  | { ok: true; userId: string; email: string; expiresAt: Date }
  | { ok: false; reason: 'used' | 'expired' | 'unknown' };

/**
 * Uses a link up. One UPDATE … WHERE used_at IS NULL decides, so of two simultaneous
 * uses exactly one wins; the loser learns why it failed.
 */
export async function consumeSigninLinkByHash(db: Database, tokenHash: Buffer): Promise<ConsumedLink> {
  const used = await db
    .updateTable('signin_links')
    .set({ used_at: sql`now()` })
    .from('users')
    .whereRef('users.id', '=', 'signin_links.user_id')
    .where('signin_links.token_hash', '=', tokenHash)
    .where('signin_links.used_at', 'is', null)
    .where('signin_links.expires_at', '>', sql<Date>`now()`)
    // Disabling an account marks its links used; this makes sure anyway.
    .where('users.disabled_at', 'is', null)
    .returning(['signin_links.user_id', 'signin_links.expires_at', 'users.email'])
    .executeTakeFirst();
  if (used) return { ok: true, userId: used.user_id, email: used.email, expiresAt: used.expires_at };
  const state = await inspectByHash(db, tokenHash);
  // 'valid' here means it expired between the two statements' clocks: report it as expired.
  return { ok: false, reason: state.state === 'valid' ? 'expired' : state.state };
}

export function consumeSigninLink(db: Database, token: string): Promise<ConsumedLink> {
  if (!plausibleLinkToken(token)) return Promise.resolve({ ok: false, reason: 'unknown' });
  return consumeSigninLinkByHash(db, sha256(token));
}
