// Bearer access tokens: minted at registration, looked up by hash on every call.
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database } from '@/db';
import type { AccessTokensTable } from '@/db/types';
import { SCOPES, type Scope } from '../contract/define';
import { ApiError } from '../http/errors';
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AccessTokenRecord {
  id: string;
  label: string | null;
  agentName: string | null;
  agentSessionId: string | null;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  active: boolean;
}

type AccessTokenRow = Pick<Selectable<AccessTokensTable>, 'id' | 'label' | 'agent_name' | 'agent_session_id' | 'scopes' | 'created_at' | 'last_used_at' | 'revoked_at'>;

export function toAccessTokenRecord(row: AccessTokenRow): AccessTokenRecord {
  return {
    id: row.id,
    label: row.label,
    agentName: row.agent_name,
    agentSessionId: row.agent_session_id,
    scopes: row.scopes,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
    revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
    active: row.revoked_at === null,
  };
}

const TOKEN_COLUMNS = ['id', 'label', 'agent_name', 'agent_session_id', 'scopes', 'created_at', 'last_used_at', 'revoked_at'] as const;

/** The account's access tokens, live ones first, newest first. Token values are never stored, so never shown. */
export async function listAccessTokens(db: Database, userId: string): Promise<AccessTokenRecord[]> {
  const rows = await db
    .selectFrom('access_tokens')
    .select(TOKEN_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy(sql`revoked_at is not null`)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toAccessTokenRecord);
}

/**
 * Revokes one of the account's tokens; it fails on the very next API call (every call
 * looks the token up). Revoking an already revoked token is a no-op that returns it.
 */
export async function revokeAccessToken(db: Database, userId: string, tokenId: string): Promise<AccessTokenRecord> {
  const notFound = () => new ApiError('not_found', 'No such access token on this account', { hint: 'List tokens with GET /api/v1/me/tokens.json.' });
  if (!UUID.test(tokenId)) throw notFound();
  const revoked = await db
    .updateTable('access_tokens')
    .set({ revoked_at: sql`coalesce(revoked_at, now())` })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .returning(TOKEN_COLUMNS)
    .executeTakeFirst();
  if (!revoked) throw notFound();
  return toAccessTokenRecord(revoked);
}
