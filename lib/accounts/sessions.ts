// Web sessions: a random cookie value held by the browser, only its SHA-256 hash in
// PostgreSQL, so a database leak yields no usable session. Auth.js creates and deletes
// them through the adapter (lib/auth/adapter.ts); pages and the API look them up here.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { randomSecret, sha256 } from '../core/secrets';

export const SESSION_TOKEN_PREFIX = 'bm_ss_';
/** Sessions last 30 days from sign-in; signing out or changing the password ends them sooner. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

export function newSessionToken(): string {
  return randomSecret(SESSION_TOKEN_PREFIX);
}

export interface SessionRecord {
  sessionId: string;
  userId: string;
  expires: Date;
}

export async function createSession(
  db: Database,
  userId: string,
  token: string,
  expires: Date,
): Promise<SessionRecord> {
  const row = await db
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: sha256(token), expires_at: expires })
    .returning(['id', 'user_id', 'expires_at'])
    .executeTakeFirstOrThrow();
  // Housekeeping: this person's expired sessions are of no further use.
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', sql<Date>`now()`).execute();
  return { sessionId: row.id, userId: row.user_id, expires: row.expires_at };
}

function plausible(token: string): boolean {
  return token.startsWith(SESSION_TOKEN_PREFIX) && token.length <= 200;
}

/** The live session for a cookie value, with its user; null when unknown or expired. */
export async function findSession(
  db: Database,
  token: string,
): Promise<{ session: SessionRecord; user: UserRow } | null> {
  if (!plausible(token)) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token_hash', '=', sha256(token))
    .where('sessions.expires_at', '>', sql<Date>`now()`)
    // A disabled account's sessions are deleted when it is disabled; this makes sure anyway.
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const { session_id, session_expires_at, ...user } = row;
  return { session: { sessionId: session_id, userId: user.id, expires: session_expires_at }, user };
}

export async function updateSessionExpiry(db: Database, token: string, expires: Date): Promise<SessionRecord | null> {
  if (!plausible(token)) return null;
  const row = await db
    .updateTable('sessions')
    .set({ expires_at: expires })
    .where('token_hash', '=', sha256(token))
    .returning(['id', 'user_id', 'expires_at'])
    .executeTakeFirst();
  return row ? { sessionId: row.id, userId: row.user_id, expires: row.expires_at } : null;
}

export async function deleteSession(db: Database, token: string): Promise<SessionRecord | null> {
  if (!plausible(token)) return null;
  const row = await db
    .deleteFrom('sessions')
    .where('token_hash', '=', sha256(token))
    .returning(['id', 'user_id', 'expires_at'])
    .executeTakeFirst();
  return row ? { sessionId: row.id, userId: row.user_id, expires: row.expires_at } : null;
}

/** Ends every session of a user except `keepSessionId` (after a password change). Returns how many ended. */
export async function deleteOtherSessions(
  db: Database,
  { userId, keepSessionId }: { userId: string; keepSessionId: string | null },
): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
