// What the consent page shows: which assistant asks, for what, and where the browser
// goes afterwards. Read from oidc-provider's stored interaction and client.
import type { Database } from '@/db';
import type { Scope } from '../contract/define';
import { DEVICE_CLIENT_ID, DEVICE_CLIENT_NAME } from '../accounts/oauth-resources';
import { requestedApiScopes } from './scopes';
import { type ClientTrust, clientTrust } from './client-trust';

/** Each API scope as the person would say it. */
export const SCOPE_WORDS: Record<Scope, string> = {
  'profile:read': 'See your profile',
  'profile:write': 'Update your profile, activities and free time',
  'photo:write': 'Change your profile photo',
  'buddy:read': 'See your buddy requests and who you blocked',
  'buddy:write': 'Send, answer and withdraw buddy requests; block and report people',
  'message:read': 'Read your chats',
  'message:write': 'Send messages for you',
};

export interface ConsentRequest {
  uid: string;
  clientId: string;
  clientName: string;
  /** Where the browser is sent back to (host only, so the person can recognise it); null for device sign-in. */
  returnHost: string | null;
  scopes: Scope[];
  /** Verified only for a known assistant's metadata document (lib/oauth/client-trust.ts); a name proves nothing. */
  trust: ClientTrust;
}

/** The pending request, or null when it expired, was answered, or never existed. */
export async function loadConsentRequest(db: Database, uid: string): Promise<ConsentRequest | null> {
  if (!/^[\w-]{1,100}$/.test(uid)) return null;
  const interaction = await db
    .selectFrom('oauth_payloads')
    .select('payload')
    .where('model', '=', 'Interaction')
    .where('id', '=', uid)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  const params = (
    interaction?.payload as { params?: { client_id?: string; scope?: string; redirect_uri?: string } } | undefined
  )?.params;
  if (!params?.client_id) return null;
  const client = await db
    .selectFrom('oauth_payloads')
    .select('payload')
    .where('model', '=', 'Client')
    .where('id', '=', params.client_id)
    .executeTakeFirst();
  const clientName =
    params.client_id === DEVICE_CLIENT_ID
      ? DEVICE_CLIENT_NAME
      : (client?.payload as { client_name?: string } | undefined)?.client_name;
  let returnHost: string | null = null;
  if (params.redirect_uri) {
    try {
      returnHost = new URL(params.redirect_uri).host || params.redirect_uri;
    } catch {
      returnHost = params.redirect_uri;
    }
  }
  return {
    uid,
    clientId: params.client_id,
    clientName: clientName ?? params.client_id,
    returnHost,
    scopes: requestedApiScopes(params.scope),
    trust: clientTrust(params.client_id, clientName ?? params.client_id, params.redirect_uri),
  };
}
