// The pending authorization: which OAuth request this browser was signing in for. Set
// (HttpOnly, SameSite=Lax) only by a browser that holds oidc-provider's own cookie for
// that request, when it leaves the consent page to sign in or sign up; read wherever a
// sign-in ends (the sign-in page, the emailed link's page, Auth.js's callbacks), so every
// kind of sign-in comes back to the consent step. A return to a consent step is honoured
// only in the browser whose cookie names it: a link alone (mailed, or sent by someone
// else) never carries a person into another's consent.
import { DEFAULT_RETURN_PATH, safeReturnPath } from '../http/return-path';
import { readCookie } from '../http/cookies';

const INTERACTION_PATH = /^\/oauth\/interaction\/([\w-]{1,100})$/;

/** oidc-provider's interaction lifetime (lib/oauth/provider.ts ttl.Interaction). */
const PENDING_MAX_AGE_S = 15 * 60;

export function pendingAuthorizationCookieName(secure: boolean): string {
  return `${secure ? '__Secure-' : ''}buddy.oauth-pending`;
}

export const consentPath = (uid: string) => `/oauth/interaction/${uid}`;

/** The Set-Cookie value naming `uid` as this browser's pending authorization (or clearing it). */
export function pendingAuthorizationCookie(uid: string | null, secure: boolean): string {
  const name = pendingAuthorizationCookieName(secure);
  const flags = `Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return uid && /^[\w-]{1,100}$/.test(uid)
    ? `${name}=${uid}; Max-Age=${PENDING_MAX_AGE_S}; ${flags}`
    : `${name}=; Max-Age=0; ${flags}`;
}

/** The interaction uid this browser's cookie names, or null. */
export function pendingAuthorizationUid(cookieHeader: string | null, secure: boolean): string | null {
  const uid = readCookie(cookieHeader, pendingAuthorizationCookieName(secure));
  return uid && /^[\w-]{1,100}$/.test(uid) ? uid : null;
}

/** The uid of a consent-step path, or null for any other path. */
export function interactionUidOf(path: string): string | null {
  return INTERACTION_PATH.exec(path)?.[1] ?? null;
}

/**
 * Where a sign-in in this browser returns to: the requested path when it is safe and,
 * if it is a consent step, the one this browser's cookie names; nothing requested, the
 * pending consent step; otherwise `fallback`.
 */
export function signinReturnPath(
  requested: string | string[] | undefined | null,
  pendingUid: string | null,
  fallback = DEFAULT_RETURN_PATH,
): string {
  const path = safeReturnPath(requested, '');
  if (!path) return pendingUid ? consentPath(pendingUid) : fallback;
  const uid = interactionUidOf(path.split(/[?#]/)[0]!);
  if (uid === null) return path;
  return uid === pendingUid ? consentPath(uid) : fallback;
}
