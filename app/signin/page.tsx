import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import {
  linkRefusalMessage,
  passwordRefusalMessage,
  REFUSAL_REASONS,
  type RefusalReason,
} from '@/lib/accounts/attempt-limits';
import { csrfToken, currentSession, pendingConsentUid } from '@/lib/auth/session';
import { signinReturnPath } from '@/lib/oauth/pending-authorization';
import { ErrorSummary } from '../_components/fields';
import { EmailLinkForm, PasswordSigninForm } from '../_components/signin-forms';

export const metadata: Metadata = { title: 'Sign in', robots: { index: false } };

type Search = Record<string, string | string[] | undefined>;

/** Why and until when a sign-in was refused, as lib/auth/handler.ts adds them to the redirect. */
function refusalOf(search: Search): { reason: RefusalReason | null; secondsLeft: number | null } {
  const reason = REFUSAL_REASONS.find((r) => r === search.reason) ?? null;
  const until = typeof search.until === 'string' && /^\d{1,12}$/.test(search.until) ? Number(search.until) : null;
  return { reason, secondsLeft: until === null ? null : Math.max(0, until - Math.floor(Date.now() / 1000)) };
}

/** Plain-English explanations of the errors Auth.js redirects here with. */
function problem(search: Search): { tone: 'error' | 'warn'; text: string } | null {
  const error = typeof search.error === 'string' ? search.error : undefined;
  const code = typeof search.code === 'string' ? search.code : undefined;
  if (!error) return null;
  if (error === 'CredentialsSignin' && code === 'rate_limited') {
    const { reason, secondsLeft } = refusalOf(search);
    return {
      tone: 'warn',
      text: `${passwordRefusalMessage(reason, secondsLeft)} You can sign in with an emailed link below right away.`,
    };
  }
  if (error === 'CredentialsSignin') {
    return {
      tone: 'error',
      text: 'That email and password don’t match. Check both and try again, or get a sign-in link by email instead.',
    };
  }
  if (error === 'Verification') {
    return {
      tone: 'warn',
      text: 'That sign-in link has already been used or has expired. Each link works once, for about an hour. Enter your email below and we’ll send a fresh one.',
    };
  }
  if (error === 'AccessDenied') {
    const { reason, secondsLeft } = refusalOf(search);
    return { tone: 'warn', text: linkRefusalMessage(reason, secondsLeft) };
  }
  if (error === 'MissingCSRF') {
    return { tone: 'error', text: 'The form had gone stale. Please try again.' };
  }
  return { tone: 'error', text: 'Something went wrong while signing you in. Please try again.' };
}

export default async function SigninPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  // Signing in for an assistant's request (begun on its consent page) goes back there.
  const returnTo = signinReturnPath(search.callbackUrl, await pendingConsentUid());
  const issue = problem(search);
  if (!issue && (await currentSession())) redirect(returnTo);
  const token = await csrfToken();

  return (
    <div className="narrow">
      <h1>Sign in</h1>
      {search.deleted !== undefined && !issue ? (
        <div className="notice notice-ok" role="status">
          <p>Your account is deleted. Thank you for being here.</p>
        </div>
      ) : null}
      {search.signedOut !== undefined && !issue ? (
        <div className="notice notice-ok" role="status">
          <p>You’re signed out.</p>
        </div>
      ) : null}
      {/* The forms post without JavaScript and come back here: the refusal takes focus on arrival. */}
      {issue ? <ErrorSummary title={issue.text} tone={issue.tone} focusOnMount /> : null}
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">With your password</h2>
        <PasswordSigninForm csrfToken={token} returnTo={returnTo} />
      </section>
      <div className="divider">or</div>
      <section className="card" aria-labelledby="link-heading">
        <h2 id="link-heading">With a link by email</h2>
        <EmailLinkForm csrfToken={token} returnTo={returnTo} />
      </section>
    </div>
  );
}
