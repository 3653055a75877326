// Bearer access tokens: minted at registration, looked up by hash on every call.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { SCOPES, type Scope } from '../contract/define';
import { randomSecret, sha256 } from './secrets';

export const ACCESS_TOKEN_PREFIX = 'bm_at_';

export interface TokenOwner {
  tokenId: string;
  userId: string;
  scopes: Scope[];
}

export async function mintAccessToken(
  db: Database,
  userId: string,
  options: { scopes?: readonly Scope[]; label?: string; agentName?: string | null; agentSessionId?: string | null } = {},
): Promise<{ token: string; id: string; scopes: Scope[] }> {
  const token = randomSecret(ACCESS_TOKEN_PREFIX);
  const scopes = [...(options.scopes ?? SCOPES)];
  const row = await db
    .insertInto('access_tokens')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      scopes,
      label: options.label ?? null,
      agent_name: options.agentName ?? null,
      agent_session_id: options.agentSessionId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id, scopes };
}

/** The owner of a live token, or null. Touches last_used_at (and the user's last_active_at) at most once a minute to keep reads cheap. */
export async function findTokenOwner(db: Database, token: string): Promise<TokenOwner | null> {
  if (!token.startsWith(ACCESS_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db
    .selectFrom('access_tokens')
    .select(['id', 'user_id', 'scopes', 'last_used_at'])
    .where('token_hash', '=', sha256(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db
      .updateTable('access_tokens')
      .set({ last_used_at: sql`now()` })
      .where('id', '=', row.id)
      .execute();
    // Discover ranks recently active people higher; same once-a-minute cadence.
    await db.updateTable('users').set({ last_active_at: sql`now()` }).where('id', '=', row.user_id).execute();
  }
  return { tokenId: row.id, userId: row.user_id, scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)) };
}
