import { exchangeSigninLink as exchange } from '@/lib/accounts/app-signin';
import { exchangeSigninLink } from '@/lib/contract/signin';
import { route } from '@/lib/http/route';

// POST /api/v1/signin/link.json – trade a single-use sign-in link token for an access token
export const POST = route(exchangeSigninLink, async ({ db, body, baseUrl }) => exchange(db, body.token, baseUrl));
