import { exchangeSigninLink } from '@/lib/accounts/app-signin';
import * as signin from '@/lib/contract/signin';
import { route } from '@/lib/http/route';

// POST /api/v1/signin/link.json – trade a single-use sign-in link token for an access token
export const POST = route(signin.exchangeSigninLink, async ({ db, body, baseUrl }) =>
  exchangeSigninLink(db, body.token, baseUrl),
);
