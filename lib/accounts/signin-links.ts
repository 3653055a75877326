// Single-use sign-in links (the inline mobile_signin_url and the emailed magic link).
import type { Database } from '@/db';
import { randomSecret, sha256 } from './secrets';

export const SIGNIN_LINK_TTL_SECONDS = 3600;
export const SIGNIN_LINK_PREFIX = 'bm_sl_';

export function signinUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/signin/link?token=${encodeURIComponent(token)}`;
}

export async function createSigninLink(
  db: Database,
  userId: string,
  purpose: 'mobile' | 'email',
  baseUrl: string,
): Promise<{ url: string; expiresInSeconds: number }> {
  const token = randomSecret(SIGNIN_LINK_PREFIX);
  await db
    .insertInto('signin_links')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      purpose,
      expires_at: new Date(Date.now() + SIGNIN_LINK_TTL_SECONDS * 1000),
    })
    .execute();
  return { url: signinUrl(baseUrl, token), expiresInSeconds: SIGNIN_LINK_TTL_SECONDS };
}
