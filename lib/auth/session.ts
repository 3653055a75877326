// The signed-in person, for server components and server actions (reads the session
// cookie Auth.js set). Cached per request, so a layout and its page share one lookup.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db';
import { findSession } from '../accounts/sessions';
import { config } from '../config';
import { safeReturnPath } from '../http/return-path';
import { sessionCookieName, usesSecureCookies } from '../http/cookies';
import { pendingAuthorizationCookieName } from '../oauth/pending-authorization';
import { loadConsentRequest } from '../oauth/consent';

/** Request header through which proxy.ts hands pages this browser's CSRF token. */
export const CSRF_TOKEN_HEADER = 'x-buddy-csrf-token';

export const currentSession = cache(async () => {
  const name = sessionCookieName(usesSecureCookies(config().publicBaseUrl));
  const token = (await cookies()).get(name)?.value;
  return token ? findSession(getDb(), token) : null;
});

/**
 * The OAuth request this browser left the consent page to sign in for, while it is still
 * waiting (lib/oauth/pending-authorization.ts), or null.
 */
export const pendingConsentUid = cache(async (): Promise<string | null> => {
  const secure = usesSecureCookies(config().publicBaseUrl);
  const uid = (await cookies()).get(pendingAuthorizationCookieName(secure))?.value;
  if (!uid || !/^[\w-]{1,100}$/.test(uid)) return null;
  return (await loadConsentRequest(getDb(), uid)) ? uid : null;
});

/** The session, or a redirect to /signin that comes back to `returnTo` afterwards. */
export async function requireSession(returnTo: string) {
  const session = await currentSession();
  if (!session) redirect(`/signin?callbackUrl=${encodeURIComponent(safeReturnPath(returnTo))}`);
  return session;
}

/** The CSRF token for forms that post to /auth/* (set by proxy.ts on /signin and /account pages). */
export async function csrfToken(): Promise<string> {
  const token = (await headers()).get(CSRF_TOKEN_HEADER);
  if (!token) throw new Error(`No CSRF token: proxy.ts must run for this page`);
  return token;
}
