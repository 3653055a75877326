// The /auth/* route handler around Auth.js: every request is rewritten onto
// PUBLIC_BASE_URL (so redirects and cookie flags follow the public origin, not whatever
// Host header arrived), bodies are capped, and sign-in links are never used up by a GET.
import type { Refusal } from '../accounts/attempt-limits';
import { config } from '../config';
import { pendingAuthorizationUid, signinReturnPath } from '../oauth/pending-authorization';
import { safeRedirectUrl } from '../http/return-path';
import { usesSecureCookies } from '../http/cookies';
import { AUTH_BASE_PATH, runAuth } from './config';
import { collectRefusal } from './refusal-note';

const MAX_FORM_BYTES = 16 * 1024;

export async function handleAuthRequest(request: Request): Promise<Response> {
  const incoming = new URL(request.url);
  const url = new URL(`${incoming.pathname}${incoming.search}`, config().publicBaseUrl);

  // Auth.js would consume an email link on GET; a mail scanner or link preview must not
  // burn it, so a GET lands on the page with the confirm button instead.
  if (request.method === 'GET' && url.pathname === `${AUTH_BASE_PATH}/callback/email`) {
    const target = new URL('/signin/link', url);
    const token = url.searchParams.get('token');
    if (token) target.searchParams.set('token', token);
    return noStore(Response.redirect(target, 303));
  }

  // Spending a link from another site's form would sign this browser into someone
  // else's account (login CSRF). Our confirm button posts same-origin; anything else is
  // sent to the confirm page, where the person sees whose account the link opens.
  if (request.method === 'POST' && url.pathname === `${AUTH_BASE_PATH}/callback/email`) {
    const origin = request.headers.get('origin');
    if (origin !== null && origin !== url.origin) {
      const target = new URL('/signin/link', url);
      const token = url.searchParams.get('token');
      if (token) target.searchParams.set('token', token);
      return noStore(Response.redirect(target, 303));
    }
  }

  let body: string | undefined;
  if (request.method === 'POST') {
    if (Number(request.headers.get('content-length') ?? 0) > MAX_FORM_BYTES)
      return new Response('Request body too large', { status: 413 });
    body = await request.text();
    if (Buffer.byteLength(body) > MAX_FORM_BYTES) return new Response('Request body too large', { status: 413 });
  }
  const headers = withSafeCallbackUrls(url, request.headers);
  body = withSafeBodyCallbackUrl(body, url, headers);
  const { result: response, refusal } = await collectRefusal(() =>
    runAuth(new Request(url, { method: request.method, headers, body })),
  );
  return noStore(explainRefusal(skipVerifyRequestHop(response, url), refusal, url));
}

const CALLBACK_URL_COOKIE = /^(__Secure-)?authjs\.callback-url$/;

/**
 * Every callbackUrl passes the site's return path rule (lib/http/return-path.ts), and a
 * consent step only in the browser whose pending-authorization cookie names it
 * (lib/oauth/pending-authorization.ts): a link or form made by someone else cannot carry
 * this browser into their assistant's consent. The answer is absolute on `origin`.
 */
function allowedCallbackUrl(value: string, origin: string, pendingUid: string | null): string {
  const path = safeRedirectUrl(value, origin).slice(origin.length);
  return `${origin}${signinReturnPath(path, pendingUid)}`;
}

const pendingUidOf = (headers: Headers) =>
  pendingAuthorizationUid(headers.get('cookie'), usesSecureCookies(config().publicBaseUrl));

/**
 * Auth.js answers a callbackUrl query parameter or callback-url cookie that is not an
 * http(s) URL with a 500. Both are written by the client, so they pass the rule above
 * first: the query value is replaced by its allowed form, a cookie that is not allowed as
 * it stands is dropped. Auth.js's redirect callback applies the return path rule again.
 */
function withSafeCallbackUrls(url: URL, incoming: Headers): Headers {
  const pendingUid = pendingUidOf(incoming);
  const callbackUrl = url.searchParams.get('callbackUrl');
  if (callbackUrl !== null)
    url.searchParams.set('callbackUrl', allowedCallbackUrl(callbackUrl, url.origin, pendingUid));
  const headers = new Headers(incoming);
  const cookie = headers.get('cookie');
  if (!cookie) return headers;
  const kept = cookie.split(';').filter((part) => {
    const eq = part.indexOf('=');
    if (eq === -1 || !CALLBACK_URL_COOKIE.test(part.slice(0, eq).trim())) return true;
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      return false;
    }
    return allowedCallbackUrl(value, url.origin, pendingUid) === value;
  });
  headers.set('cookie', kept.join(';'));
  return headers;
}

/** The sign-in forms post their callbackUrl as a field: the same rule. */
function withSafeBodyCallbackUrl(body: string | undefined, url: URL, headers: Headers): string | undefined {
  if (!body || !/x-www-form-urlencoded/i.test(headers.get('content-type') ?? '')) return body;
  const form = new URLSearchParams(body);
  const callbackUrl = form.get('callbackUrl');
  if (callbackUrl === null) return body;
  const allowed = allowedCallbackUrl(callbackUrl, url.origin, pendingUidOf(headers));
  if (allowed === callbackUrl) return body;
  form.set('callbackUrl', allowed);
  headers.delete('content-length');
  return form.toString();
}

/**
 * A refused sign-in or link request redirects to /signin?error=…; add why and until when
 * (seconds since the epoch, so a reload still shows the right time) for the page to say.
 */
function explainRefusal(response: Response, refusal: Refusal | undefined, url: URL): Response {
  const location = response.headers.get('location');
  if (!refusal || !location) return response;
  const target = new URL(location, url);
  if (target.origin !== url.origin || target.pathname !== '/signin' || !target.searchParams.has('error'))
    return response;
  target.searchParams.set('reason', refusal.reason);
  target.searchParams.set('until', String(Math.floor(Date.now() / 1000) + refusal.retryAfterSeconds));
  const headers = new Headers(response.headers);
  headers.set('location', target.toString());
  return new Response(null, { status: response.status, headers });
}

/** Auth.js sends "check your email" via its own /auth/verify-request, which only redirects on: go straight there. */
function skipVerifyRequestHop(response: Response, url: URL): Response {
  const location = response.headers.get('location');
  if (!location?.startsWith(new URL(`${AUTH_BASE_PATH}/verify-request`, url).toString())) return response;
  const headers = new Headers(response.headers);
  headers.set('location', new URL('/signin/check-email', url).toString());
  return new Response(null, { status: response.status, headers });
}

function noStore(response: Response): Response {
  // Redirect responses from Response.redirect have immutable headers: copy them.
  const headers = new Headers(response.headers);
  headers.set('cache-control', 'no-store');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
