// Auth.js (@auth/core) for the web app: CSRF tokens, the session cookie, database
// sessions, password sign-in and "email me a sign-in link". Mounted at /auth by
// app/auth/[...auth]/route.ts. Where Auth.js's model and ours differ:
//  - Sign-in links are our single-use signin_links (also handed out by registration),
//    used up on a confirm button's POST, never on GET, because mail scanners and link
//    previewers fetch URLs. The confirm form posts to Auth.js's email callback, whose
//    adapter.useVerificationToken consumes the link (provider secret '' so Auth.js's
//    hash is the plain SHA-256 registration stores).
//  - "Email me a link" goes through Auth.js's email sign-in (CSRF-checked), but the mail
//    itself is the existing mail job, which mints its own link, so Auth.js's token is
//    discarded and the answer is the same whether or not the address has an account.
//  - Auth.js issues credentials (password) sign-ins as JWTs; jwt.encode below creates a
//    database session instead, so every session is a revocable row in PostgreSQL.
import { Auth, type AuthConfig } from '@auth/core';
import { AccessDenied, CredentialsSignin } from '@auth/core/errors';
import type { EmailConfig } from '@auth/core/providers/email';
import Credentials from '@auth/core/providers/credentials';
import { getDb } from '@/db';
import { AttemptRefused } from '../accounts/attempt-limits';
import { requestSigninLinkEmail } from '../accounts/link-requests';
import { signInWithPassword } from '../accounts/password';
import { createSession, deleteSession, newSessionToken, SESSION_MAX_AGE_SECONDS } from '../accounts/sessions';
import { SIGNIN_LINK_TTL_SECONDS } from '../accounts/signin-links';
import { config } from '../config';
import { isCleanText } from '../contract/text';
import { ApiError } from '../core/errors';
import { clientIp } from '../http/ip';
import { logError, logLine } from '../core/log';
import { kyselyAdapter } from './adapter';
import { noteRefusal } from './refusal-note';
import { readCookie, sessionCookieName, usesSecureCookies } from '../http/cookies';
import { safeRedirectUrl } from '../http/return-path';
import { loadAuthSecret } from './secret';

export const AUTH_BASE_PATH = '/auth';

class RateLimitedSignin extends CredentialsSignin {
  code = 'rate_limited';
}

// Errors a person causes (wrong password, used link, missing CSRF token, a callbackUrl
// Auth.js itself refuses) are expected:
// logged as one line without detail. Anything else is logged in full (never with bodies).
const EXPECTED_ERRORS = new Set([
  'CredentialsSignin',
  'Verification',
  'AccessDenied',
  'MissingCSRF',
  'InvalidCallbackUrl',
]);

function buildAuthConfig(secret: string): AuthConfig {
  const cfg = config();
  const db = getDb();
  const secure = usesSecureCookies(cfg.publicBaseUrl);

  const emailProvider: EmailConfig = {
    id: 'email',
    type: 'email',
    name: 'Email',
    maxAge: SIGNIN_LINK_TTL_SECONDS,
    secret: '',
    // Lookups are case-insensitive; never throws, so a malformed address gets the same answer as any other.
    normalizeIdentifier: (identifier: unknown) =>
      String(identifier ?? '')
        .normalize('NFKC')
        .trim()
        .toLowerCase()
        .slice(0, 254),
    async sendVerificationRequest({ identifier, request }) {
      // No account has control characters in its address (the contract refuses them), and
      // PostgreSQL refuses NUL: answer as for any unknown address, without a query.
      if (!isCleanText(identifier)) return;
      try {
        await requestSigninLinkEmail(db, identifier, { ip: clientIp(request), limits: cfg.signinLinkLimits });
      } catch (error) {
        if (error instanceof AttemptRefused) noteRefusal(error.refusal);
        if (error instanceof ApiError && error.code === 'rate_limited') throw new AccessDenied('rate_limited');
        throw error;
      }
    },
  };

  const passwordProvider = Credentials({
    id: 'password',
    name: 'Password',
    credentials: { email: { type: 'email' }, password: { type: 'password' } },
    async authorize(credentials, request) {
      const email = typeof credentials.email === 'string' ? credentials.email : '';
      const password = typeof credentials.password === 'string' ? credentials.password : '';
      // As for the contract's fields: control characters or lone surrogates never match an
      // account (and NUL would make PostgreSQL fail). The same answer as a wrong password.
      if (!isCleanText(email) || !isCleanText(password, 'free_text')) return null;
      let user: Awaited<ReturnType<typeof signInWithPassword>>;
      try {
        user = await signInWithPassword(db, { email, password, ip: clientIp(request) }, cfg.signinFailureLimits);
      } catch (error) {
        if (error instanceof AttemptRefused) noteRefusal(error.refusal);
        if (error instanceof ApiError && error.code === 'rate_limited') throw new RateLimitedSignin();
        throw error;
      }
      if (!user) return null;
      // Signing in replaces this browser's previous session; end it rather than leave it live.
      const previous = readCookie(request.headers.get('cookie'), sessionCookieName(secure));
      if (previous) await deleteSession(db, previous);
      return { id: user.id, email: user.email, name: user.display_name };
    },
  });

  return {
    basePath: AUTH_BASE_PATH,
    secret,
    trustHost: true, // the route handler rewrites every request onto PUBLIC_BASE_URL first
    useSecureCookies: secure,
    cookies: {
      sessionToken: {
        name: sessionCookieName(secure),
        options: { httpOnly: true, sameSite: 'lax', path: '/', secure },
      },
    },
    adapter: kyselyAdapter(db),
    // Every callbackUrl (form field, query or Auth.js's callback-url cookie) passes the one return-path rule.
    callbacks: { redirect: ({ url, baseUrl }) => safeRedirectUrl(url, baseUrl) },
    session: {
      strategy: 'database',
      maxAge: SESSION_MAX_AGE_SECONDS,
      updateAge: SESSION_MAX_AGE_SECONDS, // sessions end 30 days after sign-in; no silent extension
      generateSessionToken: newSessionToken,
    },
    jwt: {
      // Only reached by the password provider: store a database session, return its cookie value.
      async encode({ token }) {
        if (!token?.sub) throw new Error('No user to start a session for');
        const sessionToken = newSessionToken();
        await createSession(db, token.sub, sessionToken, new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000));
        return sessionToken;
      },
      decode: async () => null,
    },
    pages: { signIn: '/signin', signOut: '/signin', error: '/signin', verifyRequest: '/signin/check-email' },
    providers: [emailProvider, passwordProvider],
    logger: {
      error(error) {
        const type = (error as { type?: string }).type ?? error.name;
        if (EXPECTED_ERRORS.has(type)) logLine({ event: 'auth_rejected', type });
        else logError('auth error', error);
      },
      warn(code) {
        logLine({ event: 'auth_warning', code });
      },
      debug() {},
    },
  };
}

// Cached per bundle, deliberately not on globalThis: the proxy and the route handlers
// are separate bundles with their own copies of the error classes Auth.js checks with
// instanceof, so each must build its config from its own modules.
let cached: Promise<AuthConfig> | undefined;

/** Built once per bundle (the secret may need a database round trip). */
export function authConfig(): Promise<AuthConfig> {
  cached ??= loadAuthSecret(getDb(), config().authSecret)
    .then(buildAuthConfig)
    .catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
  return cached;
}

/** Runs Auth.js on a request whose URL is already on PUBLIC_BASE_URL. */
export async function runAuth(request: Request): Promise<Response> {
  return Auth(request, await authConfig());
}

/**
 * The CSRF token for this browser's forms (Auth.js double-submit cookie). Returns the
 * token and any Set-Cookie headers to pass on (a new cookie when there was none).
 */
export async function csrfTokenFor(cookieHeader: string | null): Promise<{ token: string; setCookies: string[] }> {
  const url = new URL(`${AUTH_BASE_PATH}/csrf`, config().publicBaseUrl);
  const response = await runAuth(new Request(url, { headers: cookieHeader ? { cookie: cookieHeader } : {} }));
  const body = (await response.json()) as { csrfToken?: string };
  if (!body.csrfToken) throw new Error('Auth.js returned no CSRF token');
  return { token: body.csrfToken, setCookies: response.headers.getSetCookie() };
}
