// The bearer-token check as the transport asks it: the domain lookup (lib/accounts/tokens.ts) with this
// service's configured address, so the domain reads no configuration itself.
import type { Database } from '@/db';
import { lookUpTokenOwner, type TokenOwner } from '../accounts/tokens';
import { config } from '../config';

export { bearerToken } from '../accounts/tokens';

/** The owner of a live token (a bm_at_ token, or an OAuth token issued for this service), or null. */
export function findTokenOwner(db: Database, token: string): Promise<TokenOwner | null> {
  return lookUpTokenOwner(db, token, config().publicBaseUrl);
}
