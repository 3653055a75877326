// The mobile app's half of a sign-in link: where an operator names the app (APP_LINK_URL),
// the sign-in page hands it <APP_LINK_URL>?token=…, and the app trades the token for a bearer token here.
import type { Database } from '@/db';
import { ApiError } from '../core/errors';
import { profileUrl } from '../profiles/records';
import { consumeSigninLink } from './signin-links';
import { mintAccessToken } from './tokens';

/** The deep link the sign-in page offers on phones: the configured app link with the token added. */
export function appSigninUrl(appLinkUrl: string, token: string): string {
  const url = new URL(appLinkUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

export async function exchangeSigninLink(db: Database, token: string, baseUrl: string) {
  return db.transaction().execute(async (trx) => {
    const link = await consumeSigninLink(trx, token);
    if (!link.ok) {
      if (link.reason === 'used') throw new ApiError('signin_link_used', 'This sign-in link was already used');
      if (link.reason === 'expired') throw new ApiError('signin_link_expired', 'This sign-in link has expired');
      throw new ApiError('not_found', 'No such sign-in link', {
        hint: 'Check the token was copied whole, or ask for a new link at /signin.',
      });
    }
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email', 'slug'])
      .where('id', '=', link.userId)
      .executeTakeFirstOrThrow();
    const minted = await mintAccessToken(trx, user.id, { label: 'mobile app' });
    return {
      success: true as const,
      user: { id: user.id, email: user.email, slug: user.slug, profile_url: profileUrl(baseUrl, user.slug) },
      auth: { token: minted.token, token_type: 'Bearer' as const, scopes: minted.scopes },
    };
  });
}
