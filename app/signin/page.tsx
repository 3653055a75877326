import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { csrfToken, currentSession } from '@/lib/auth/session';
import { safeReturnPath } from '@/lib/web/return-path';
import { EmailLinkForm, PasswordSigninForm } from '../_components/signin-forms';

export const metadata: Metadata = { title: 'Sign in', robots: { index: false } };

type Search = Record<string, string | string[] | undefined>;

/** Plain-English explanations of the errors Auth.js redirects here with. */
function problem(search: Search): { tone: 'error' | 'warn'; text: string } | null {
  const error = typeof search.error === 'string' ? search.error : undefined;
  const code = typeof search.code === 'string' ? search.code : undefined;
  if (!error) return null;
  if (error === 'CredentialsSignin' && code === 'rate_limited') {
    return {
      tone: 'warn',
      text: 'Too many wrong passwords. Password sign-in is paused for a few minutes — for this account or from your network. You can still sign in with an emailed link below.',
    };
  }
  if (error === 'CredentialsSignin') {
    return { tone: 'error', text: 'That email and password don’t match. Check both and try again, or get a sign-in link by email instead.' };
  }
  if (error === 'Verification') {
    return {
      tone: 'warn',
      text: 'That sign-in link has already been used or has expired. Each link works once, for about an hour. Enter your email below and we’ll send a fresh one.',
    };
  }
  if (error === 'AccessDenied') {
    return { tone: 'warn', text: 'Too many sign-in link requests from your network. Please wait a while before asking for another one.' };
  }
  if (error === 'MissingCSRF') {
    return { tone: 'error', text: 'The form had gone stale. Please try again.' };
  }
  return { tone: 'error', text: 'Something went wrong while signing you in. Please try again.' };
}

export default async function SigninPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const returnTo = safeReturnPath(search.callbackUrl);
  const issue = problem(search);
  if (!issue && (await currentSession())) redirect(returnTo);
  const token = await csrfToken();

  return (
    <div className="narrow">
      <h1>Sign in</h1>
      {search.signedOut !== undefined && !issue ? (
        <div className="notice notice-ok" role="status">
          <p>You’re signed out.</p>
        </div>
      ) : null}
      {issue ? (
        <div className={`notice notice-${issue.tone}`} role="alert">
          <p>{issue.text}</p>
        </div>
      ) : null}
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
