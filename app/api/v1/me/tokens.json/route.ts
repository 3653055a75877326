import { listAccessTokens } from '@/lib/accounts/tokens';
import * as signin from '@/lib/contract/signin';
import { route } from '@/lib/http/route';

// GET /api/v1/me/tokens.json – the account's access tokens (metadata only)
export const GET = route(signin.listTokens, async ({ db, auth }) => ({
  tokens: await listAccessTokens(db, auth.userId),
}));
