import { revokeAccessToken } from '@/lib/accounts/tokens';
import * as signin from '@/lib/contract/signin';
import { route } from '@/lib/http/route';

// POST /api/v1/me/tokens/{tokenId}/revoke.json – revoke one access token
export const POST = route(signin.revokeToken, async ({ db, auth, params }) => ({
  success: true as const,
  token: await revokeAccessToken(db, { userId: auth.userId, tokenId: params.tokenId }),
}));
