// Bearer access tokens: minted at registration, looked up by hash on every call.
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database } from '@/db';
import type { AccessTokensTable } from '@/db/types';
import { SCOPES, type Scope } from '../contract/define';
import { ApiError } from '../core/errors';
import { isUuid } from '../contract/validation';
import { randomSecret, sha256 } from '../core/secrets';
import type { TokenOwner } from './token-owner';
import { cachedTokenOwner, forgetCachedOwners, rememberTokenOwner, tokenCacheMark } from './token-cache';
import { isOwnResource } from './oauth-resources';
import { storedOauthId } from './oauth-stored-id';

export const ACCESS_TOKEN_PREFIX = 'bm_at_';

export type { TokenOwner } from './token-owner';

export async function mintAccessToken(
  db: Database,
  userId: string,
  options: {
    scopes?: readonly Scope[];
    label?: string;
    agentName?: string | null;
    agentSessionId?: string | null;
  } = {},
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

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * The owner of a live token, or null. Served from the in-process cache while the
 * revocation listener is up (lib/accounts/token-cache.ts). Touches last_used_at (and
 * the user's last_active_at) at most once a minute to keep reads cheap. An OAuth token must have been issued
 * for this service, whose address (publicBaseUrl) the caller hands in: lib/http/bearer.ts findTokenOwner.
 */
export async function lookUpTokenOwner(db: Database, token: string, publicBaseUrl: string): Promise<TokenOwner | null> {
  if (token.length > 200) return null;
  if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return findOauthTokenOwner(db, token, publicBaseUrl);
  const hash = sha256(token);
  const hashKey = hash.toString('base64url');
  const cached = cachedTokenOwner(hashKey);
  if (cached) {
    if (Date.now() - cached.touchedAt > TOUCH_EVERY_MS) {
      cached.touchedAt = Date.now();
      await touchTokenUse(db, cached.owner);
    }
    return cached.owner;
  }
  const mark = tokenCacheMark();
  // A disabled account's tokens are revoked when it is disabled; the join makes sure anyway.
  const row = await db
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select([
      'access_tokens.id',
      'access_tokens.user_id',
      'access_tokens.scopes',
      'access_tokens.last_used_at',
      'access_tokens.agent_name',
    ])
    .where('access_tokens.token_hash', '=', hash)
    .where('access_tokens.revoked_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const owner: TokenOwner = {
    tokenId: row.id,
    userId: row.user_id,
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    agentName: row.agent_name,
  };
  let touchedAt = row.last_used_at?.getTime() ?? 0;
  if (Date.now() - touchedAt > TOUCH_EVERY_MS) {
    touchedAt = Date.now();
    await touchTokenUse(db, owner);
  }
  rememberTokenOwner(hashKey, owner, touchedAt, mark);
  return owner;
}

const TOUCH_EVERY_MS = 60_000;

/**
 * An OAuth access token (opaque, issued by lib/oauth/provider.ts): live, not expired,
 * issued for this service (RFC 8707 audience), and its connection row not revoked. The
 * scopes are what both the token and the connection allow. Not cached: an OAuth token
 * expires within the hour, and its check is one indexed join.
 */
async function findOauthTokenOwner(db: Database, token: string, publicBaseUrl: string): Promise<TokenOwner | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  const row = await db
    .selectFrom('oauth_payloads')
    .innerJoin('access_tokens', 'access_tokens.oauth_grant_id', 'oauth_payloads.grant_id')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select([
      'access_tokens.id',
      'access_tokens.user_id',
      'access_tokens.scopes',
      'access_tokens.last_used_at',
      'access_tokens.agent_name',
      'access_tokens.oauth_client_id',
      'oauth_payloads.payload',
    ])
    .where('oauth_payloads.model', '=', 'AccessToken')
    .where('oauth_payloads.id', '=', storedOauthId('AccessToken', token))
    .where('oauth_payloads.expires_at', '>', sql<Date>`now()`)
    .where('access_tokens.revoked_at', 'is', null)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const payload = row.payload as { aud?: string | string[]; scope?: string; accountId?: string };
  const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
  if (payload.accountId !== row.user_id || !audiences.some((aud) => isOwnResource(publicBaseUrl, aud))) return null;
  const granted = (payload.scope ?? '').split(' ');
  const owner: TokenOwner = {
    tokenId: row.id,
    userId: row.user_id,
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s) && granted.includes(s)),
    agentName: row.agent_name,
    oauthClientId: row.oauth_client_id ?? undefined,
  };
  if (Date.now() - (row.last_used_at?.getTime() ?? 0) > TOUCH_EVERY_MS) await touchTokenUse(db, owner);
  return owner;
}

async function touchTokenUse(db: Database, owner: TokenOwner): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: sql`now()` }).where('id', '=', owner.tokenId).execute();
  // Discover ranks recently active people higher; same once-a-minute cadence.
  await db.updateTable('users').set({ last_active_at: sql`now()` }).where('id', '=', owner.userId).execute();
}

export interface AccessTokenRecord {
  id: string;
  label: string | null;
  agentName: string | null;
  agentSessionId: string | null;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** When the person, signed in on the web, chose to keep it; null until then. */
  confirmed_at: string | null;
  active: boolean;
}

type AccessTokenRow = Pick<
  Selectable<AccessTokensTable>,
  | 'id'
  | 'label'
  | 'agent_name'
  | 'agent_session_id'
  | 'scopes'
  | 'created_at'
  | 'last_used_at'
  | 'revoked_at'
  | 'confirmed_at'
>;

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
    confirmed_at: row.confirmed_at ? new Date(row.confirmed_at).toISOString() : null,
    active: row.revoked_at === null,
  };
}

const TOKEN_COLUMNS = [
  'id',
  'label',
  'agent_name',
  'agent_session_id',
  'scopes',
  'created_at',
  'last_used_at',
  'revoked_at',
  'confirmed_at',
] as const;

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

const tokenNotFound = () =>
  new ApiError('not_found', 'No such access token on this account', {
    hint: 'List tokens with GET /api/v1/me/tokens.json.',
  });

/**
 * Revokes one of the account's tokens; it fails on the very next API call (every call
 * looks the token up). Revoking an already revoked token is a no-op that returns it.
 */
export async function revokeAccessToken(
  db: Database,
  { userId, tokenId }: { userId: string; tokenId: string },
): Promise<AccessTokenRecord> {
  if (!isUuid(tokenId)) throw tokenNotFound();
  const revoked = await db
    .updateTable('access_tokens')
    .set({ revoked_at: sql`coalesce(revoked_at, now())` })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .returning(TOKEN_COLUMNS)
    .executeTakeFirst();
  if (!revoked) throw tokenNotFound();
  forgetCachedOwners('t', revoked.id);
  return toAccessTokenRecord(revoked);
}

/** Revokes every live token of the account at once (password change with "revoke all", a disowned account). Returns how many. */
export async function revokeAllAccessTokens(db: Database, userId: string): Promise<number> {
  const result = await db
    .updateTable('access_tokens')
    .set({ revoked_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The live tokens the person has not yet confirmed. From their first web sign-in on,
 * /account/agents asks them to keep or revoke each of these: someone who registered
 * their address before them may hold one.
 */
export async function listTokensToConfirm(db: Database, userId: string): Promise<AccessTokenRecord[]> {
  const rows = await db
    .selectFrom('access_tokens')
    .select(TOKEN_COLUMNS)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('confirmed_at', 'is', null)
    .orderBy('created_at', 'asc')
    .execute();
  return rows.map(toAccessTokenRecord);
}

/** The person keeps a live token: it leaves the confirmation prompt. Revoked tokens cannot be kept. */
export async function confirmAccessToken(
  db: Database,
  { userId, tokenId }: { userId: string; tokenId: string },
): Promise<AccessTokenRecord> {
  if (!isUuid(tokenId)) throw tokenNotFound();
  const confirmed = await db
    .updateTable('access_tokens')
    .set({ confirmed_at: sql`coalesce(confirmed_at, now())` })
    .where('id', '=', tokenId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning(TOKEN_COLUMNS)
    .executeTakeFirst();
  if (!confirmed) throw tokenNotFound();
  return toAccessTokenRecord(confirmed);
}
