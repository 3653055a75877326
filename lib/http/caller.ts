// Who is calling, as every handler and the idempotency store see it.
import type { TokenOwner } from '../accounts/token-owner';
import type { Scope } from '../contract/define';

/**
 * Who is calling: an agent with a bearer token, or a person in the web app with a
 * session cookie (who may do everything a full-scope token may).
 */
export type Caller =
  | (TokenOwner & { via: 'bearer' })
  | { via: 'session'; userId: string; scopes: Scope[]; sessionId: string; tokenId: null };
