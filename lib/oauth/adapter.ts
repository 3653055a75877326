// oidc-provider's storage (its Adapter interface) on PostgreSQL: every model in
// oauth_payloads (migration 0016). Client IDs that are https URLs are client ID metadata
// documents (draft-ietf-oauth-client-id-metadata-document-00, as the MCP authorization
// specification 2025-11-25 and 2026-07-28 asks): fetched on first use, kept as long as
// their Cache-Control allows (5 minutes to a day), and handed to oidc-provider as an
// ordinary client, which validates them like any registered one.
import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { getDb } from '@/db';
import { config } from '../config';
import { logLine } from '../core/log';
import { fetchClientMetadataDocument, isClientMetadataDocumentId } from './client-metadata';
import { hashesStoredId, storedOauthId } from '../accounts/oauth-stored-id';

/** What the grant revocation hook is told (the access_tokens row follows the grant). */
type GrantRevoked = (grantId: string) => Promise<void>;
let onGrantRevoked: GrantRevoked = async () => {};
export function whenGrantRevoked(hook: GrantRevoked): void {
  onGrantRevoked = hook;
}

/** PostgreSQL text and jsonb cannot hold NUL: no stored id has one, so such a lookup finds nothing. */
const hasNul = (value: string) => value.includes('\u0000');

/** A payload as jsonb text: NUL (only ever from a hostile request parameter) becomes U+FFFD. */
const payloadJson = (payload: AdapterPayload) => JSON.stringify(payload).replace(/\\u0000/g, '\\ufffd');

export class PostgresAdapter implements Adapter {
  private readonly hashesIds: boolean;
  constructor(private readonly model: string) {
    this.hashesIds = hashesStoredId(model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
    if (this.hashesIds) {
      const { jti: _plain, ...rest } = payload;
      payload = rest;
    }
    await getDb()
      .insertInto('oauth_payloads')
      .values({
        model: this.model,
        id: storedOauthId(this.model, id),
        payload: payloadJson(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresAt,
      })
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          payload: payloadJson(payload),
          grant_id: payload.grantId ?? null,
          user_code: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expires_at: expiresAt,
        }),
      )
      .execute();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (hasNul(id)) return undefined;
    const found = await this.findWhere('id', storedOauthId(this.model, id));
    // oidc-provider expects the token value back in jti; only the hash is stored.
    if (found && this.hashesIds) return { ...found, jti: id };
    if (found || this.model !== 'Client' || !isClientMetadataDocumentId(id)) return found;
    const document = await fetchClientMetadataDocument(id, config().oauthClientMetadataAllowLoopbackPorts);
    if (!document) return undefined;
    await this.upsert(id, document.metadata, document.maxAgeSeconds);
    logLine({ event: 'oauth_client_metadata_fetched', client_id: id, max_age_s: document.maxAgeSeconds });
    return document.metadata;
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code', userCode);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid', uid);
  }

  async consume(id: string): Promise<void> {
    await getDb()
      .updateTable('oauth_payloads')
      .set({
        consumed_at: sql`now()`,
        payload: sql`payload || jsonb_build_object('consumed', extract(epoch from now())::bigint)`,
      })
      .where('model', '=', this.model)
      .where('id', '=', storedOauthId(this.model, id))
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await getDb()
      .deleteFrom('oauth_payloads')
      .where('model', '=', this.model)
      .where('id', '=', storedOauthId(this.model, id))
      .execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await getDb().deleteFrom('oauth_payloads').where('grant_id', '=', grantId).execute();
    await onGrantRevoked(grantId);
  }

  private async findWhere(column: 'id' | 'user_code' | 'uid', value: string): Promise<AdapterPayload | undefined> {
    if (hasNul(value)) return undefined;
    const row = await getDb()
      .selectFrom('oauth_payloads')
      .select(['payload', 'expires_at'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row || (row.expires_at && row.expires_at.getTime() <= Date.now())) return undefined;
    return row.payload as AdapterPayload;
  }
}

/** Expired rows are dead weight: oidc-provider never reads them (findWhere checks too). */
export async function deleteExpiredOauthPayloads(): Promise<number> {
  const result = await getDb()
    .deleteFrom('oauth_payloads')
    .where('expires_at', '<', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
