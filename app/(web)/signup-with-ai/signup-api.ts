// The calls this page makes (register, the browser's sign-in, an emailed sign-in link) and how their answers read.

import type { ProfileWarnings } from '@/lib/profiles/fields';
import { paramForField, type SignupParam } from '@/lib/signup-link';

export interface RegisterResult {
  user: { email: string; slug: string; profile_url: string };
  auth: {
    generated_password: string | null;
    mobile_signin_url: string | null;
    mobile_signin_expires_in_seconds: number | null;
    emailed_magic_link: boolean;
  };
  onboarding: { complete: boolean; missing: string[]; awaiting_person_consent: boolean };
  // The contract's own type (a type-only import: nothing of the server reaches the page).
  warnings: ProfileWarnings;
}

export interface ApiErrorBody {
  error?: { code?: string; message?: string; hint?: string; fields?: Record<string, string> };
}

export type Problem =
  | { kind: 'fields'; fields: Partial<Record<SignupParam, string>>; other: string[] }
  | { kind: 'taken'; link: SigninLinkRequest }
  | { kind: 'rate_limited'; retryAfterSeconds: number | null }
  | { kind: 'network' }
  | { kind: 'server'; message: string };

export const DONE_KEY = (email: string) => `buddy-match:signup-done:${email.trim().toLowerCase()}`;

/** The API's field messages are sentences a person can act on; they only get a full stop. */
function plainFieldError(param: SignupParam, message: string): string {
  if (param === 'gender') return 'Choose one of the options.';
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Signs this browser in to the new account (Auth.js password sign-in with the generated password, else the sign-in link); true when it worked. */
export async function signInBrowser(result: RegisterResult, callbackUrl: string): Promise<boolean> {
  try {
    const csrf = (await (await fetch('/auth/csrf', { headers: { accept: 'application/json' } })).json()) as {
      csrfToken?: string;
    };
    if (!csrf.csrfToken) return false;
    // Auth.js answers {url} instead of a redirect with this header; the session cookie comes with it.
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' };
    let response: Response;
    if (result.auth.generated_password) {
      const body = new URLSearchParams({
        csrfToken: csrf.csrfToken,
        email: result.user.email,
        password: result.auth.generated_password,
        callbackUrl,
      });
      response = await fetch('/auth/callback/password', { method: 'POST', headers, body });
    } else {
      const token = result.auth.mobile_signin_url
        ? new URL(result.auth.mobile_signin_url).searchParams.get('token')
        : null;
      if (!token) return false;
      response = await fetch(`/auth/callback/email?${new URLSearchParams({ token, callbackUrl })}`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ csrfToken: csrf.csrfToken }),
      });
    }
    if (!response.ok) return false;
    const { url } = (await response.json()) as { url?: string };
    return typeof url === 'string' && !/[?&]error=/.test(url);
  } catch {
    return false;
  }
}

export type SigninLinkRequest = 'sent' | 'limited' | 'failed';

/**
 * "Email me a sign-in link", exactly as the sign-in page asks for it (Auth.js's CSRF-checked
 * email sign-in: the same per-address and per-network limits, the same answer for every
 * address). For a signup whose first submit created the account but whose answer was lost.
 */
export async function emailSigninLink(email: string, callbackUrl: string): Promise<SigninLinkRequest> {
  try {
    const csrf = (await (await fetch('/auth/csrf', { headers: { accept: 'application/json' } })).json()) as {
      csrfToken?: string;
    };
    if (!csrf.csrfToken) return 'failed';
    // Followed to where the form would land: the check-email page, or /signin?error=… when refused.
    const response = await fetch('/auth/signin/email', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, email: email.trim(), callbackUrl }),
    });
    const landed = new URL(response.url);
    if (landed.pathname === '/signin/check-email') return 'sent';
    return landed.searchParams.get('error') === 'AccessDenied' ? 'limited' : 'failed';
  } catch {
    return 'failed';
  }
}

export function problemFromResponse(status: number, body: ApiErrorBody, retryAfter: string | null): Problem {
  const code = body.error?.code;
  if (code === 'email_taken' || status === 409) return { kind: 'taken', link: 'failed' };
  if (code === 'rate_limited' || status === 429) {
    const seconds = Number(retryAfter);
    return { kind: 'rate_limited', retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : null };
  }
  if (status === 400 && body.error?.fields) {
    const fields: Partial<Record<SignupParam, string>> = {};
    const other: string[] = [];
    for (const [field, message] of Object.entries(body.error.fields)) {
      const param = paramForField(field);
      if (param) fields[param] ??= plainFieldError(param, message);
      else if (message !== 'unknown field') other.push(`${field}: ${message}`);
    }
    return { kind: 'fields', fields, other };
  }
  return { kind: 'server', message: body.error?.message ?? `The service answered ${status}.` };
}
