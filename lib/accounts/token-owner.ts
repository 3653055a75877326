// Who a bearer token speaks for: shared by the lookup (tokens.ts) and its cache (token-cache.ts).
import type { Scope } from '../contract/define';

export interface TokenOwner {
  tokenId: string;
  userId: string;
  scopes: Scope[];
  /** The token's recorded agent (agentName at registration, or the OAuth client's name): the only name its writes carry. */
  agentName: string | null;
  /** The OAuth client this token was issued to (a third party); absent for the person's own bearer tokens. */
  oauthClientId?: string;
}
