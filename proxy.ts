// Runs before every page: a fresh CSP nonce per request (Next.js reads it from the
// request's CSP header and puts it on its scripts), and, on pages with sign-in or account
// forms, this browser's Auth.js CSRF token. /auth paths only get the trailing-slash
// redirect. /api never comes here: its 405s and trailing slashes are answered in the
// node:http server (server/doors/api.ts), which costs a poll nothing.
import { randomBytes } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import { csrfTokenFor } from '@/lib/auth/config';
import { readCookie, sessionCookieName, usesSecureCookies } from '@/lib/http/cookies';
import { CSRF_TOKEN_HEADER } from '@/lib/auth/session';
import { config as appConfig } from '@/lib/config';
import { pageContentSecurityPolicy } from '@/lib/http/security-headers';

const FORM_PAGES = /^\/(signin|account)(\/|$)/;
/** Pages whose URL carries a secret: no caching anywhere, no indexing. */
const SECRET_URL_PAGES = /^\/signin\/(link|not-me)(\/|$)/;
/**
 * Public profiles are the same for every signed-out visitor, so shared caches may keep
 * them for a minute (browsers revalidate, so an owner sees an edit at once). A cached copy
 * reuses its CSP nonce; that is safe because no user text is ever rendered unescaped. A
 * signed-in person gets the member view with their own buttons: never stored anywhere.
 */
const PUBLIC_PROFILE = /^\/u\/[^/]+\/?$/;

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  // next.config.ts skips Next.js's own trailing-slash redirect (it answered /api with plain
  // text); pages keep it here. Same origin always: the path is set, never resolved as a URL.
  if (pathname.length > 1 && pathname.endsWith('/')) {
    // A plain URL: a NextURL clone puts the trailing slash back when it is serialised.
    const target = new URL(request.url);
    target.pathname = pathname.replace(/\/+$/, '') || '/';
    return NextResponse.redirect(target, 308);
  }
  if (pathname.startsWith('/auth/')) return NextResponse.next();
  const https = appConfig().publicBaseUrl.startsWith('https://');
  const nonce = randomBytes(16).toString('base64');
  const csp = pageContentSecurityPolicy(nonce, https);
  const path = request.nextUrl.pathname;

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('content-security-policy', csp);
  requestHeaders.delete(CSRF_TOKEN_HEADER);

  let setCookies: string[] = [];
  if (FORM_PAGES.test(path)) {
    const csrf = await csrfTokenFor(request.headers.get('cookie'));
    requestHeaders.set(CSRF_TOKEN_HEADER, csrf.token);
    setCookies = csrf.setCookies;
  }

  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', csp);
  for (const cookie of setCookies) response.headers.append('set-cookie', cookie);
  if (SECRET_URL_PAGES.test(path)) {
    // same-origin, not no-referrer: the token never leaves in a Referer, yet the confirm form's
    // POST still carries a real Origin (no-referrer would make it "null").
    response.headers.set('referrer-policy', 'same-origin');
    response.headers.set('x-robots-tag', 'noindex');
  }
  if (PUBLIC_PROFILE.test(path)) {
    const signedIn = readCookie(
      request.headers.get('cookie'),
      sessionCookieName(usesSecureCookies(appConfig().publicBaseUrl)),
    );
    response.headers.set(
      'cache-control',
      signedIn ? 'private, no-store' : 'public, max-age=0, s-maxage=60, stale-while-revalidate=300',
    );
    response.headers.set('vary', 'Cookie');
  }
  return response;
}

export const config = {
  // Pages and /auth; never /api (see above) or static files.
  matcher: [
    '/((?!api/|api$|_next/static|_next/image|favicon\\.ico|icon\\.svg|apple-icon\\.png|icons/|manifest\\.webmanifest).*)',
  ],
};
