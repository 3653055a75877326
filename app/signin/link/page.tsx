import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getDb } from '@/db';
import { appSigninUrl } from '@/lib/accounts/app-signin';
import { config } from '@/lib/config';
import { inspectSigninLink } from '@/lib/accounts/signin-links';
import { csrfToken, pendingConsentUid } from '@/lib/auth/session';
import { signinReturnPath } from '@/lib/oauth/pending-authorization';
import { EmailLinkForm } from '@/app/_components/signin-forms';

export const metadata: Metadata = { title: 'Sign-in link', robots: { index: false, follow: false } };

/** Phones may also get the app's deep link (the user-agent, or Chromium's mobile client hint). */
function isPhone(h: Headers): boolean {
  return h.get('sec-ch-ua-mobile') === '?1' || /Android|iPhone|iPad|iPod|Mobile/i.test(h.get('user-agent') ?? '');
}

const EXPLANATIONS = {
  used: {
    title: 'This sign-in link has already been used',
    body: 'Each link signs you in once. If you just used it in the app or another browser, you’re signed in there. To sign in here, get a new link:',
  },
  expired: {
    title: 'This sign-in link has expired',
    body: 'Sign-in links last about an hour, so they are useless to anyone who finds them later. Get a new one:',
  },
  unknown: {
    title: 'This sign-in link isn’t valid',
    body: 'It may have been copied only in part. Open it straight from the email or message, or get a new one:',
  },
} as const;

// The link is used up only by the button's POST, never by loading this page: mail
// scanners and chat link previews fetch URLs, and must not burn the person's link.
export default async function SigninLinkPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  const token = typeof search.token === 'string' ? search.token : '';
  const link = token ? await inspectSigninLink(getDb(), token) : ({ state: 'unknown' } as const);
  const csrf = await csrfToken();

  if (link.state !== 'valid') {
    const text = EXPLANATIONS[link.state];
    return (
      <div className="narrow">
        <h1>{text.title}</h1>
        <p>{text.body}</p>
        <section className="card" aria-label="Get a new sign-in link">
          <EmailLinkForm
            csrfToken={csrf}
            returnTo={signinReturnPath(undefined, await pendingConsentUid())}
            idPrefix="new-link"
          />
        </section>
        <p>
          Know your password? <a href="/signin">Sign in with your password</a>.
        </p>
      </div>
    );
  }

  // An app button only where an operator named the app: a scheme no installed app answers
  // is a dead end ("address is invalid"), so "Continue" in the browser is always the main way.
  const appLinkUrl = config().appLinkUrl;
  const offerApp = appLinkUrl !== undefined && isPhone(await headers());
  // Back to an assistant's consent step only in the browser that left it to sign in
  // (its pending-authorization cookie), never because the link says so.
  const callbackUrl = signinReturnPath(search.callbackUrl, await pendingConsentUid());
  const action = `/auth/callback/email?${new URLSearchParams({ token, callbackUrl })}`;
  const minutes = Math.max(1, Math.round((link.expiresAt.getTime() - Date.now()) / 60_000));
  return (
    <div className="narrow">
      <h1>Sign in to Buddy Match</h1>
      <p>
        This link signs you in as <strong>{link.displayName}</strong>. It works once and expires in about {minutes}{' '}
        minute
        {minutes === 1 ? '' : 's'}.
      </p>
      <div className="stack">
        <form method="post" action={action}>
          <input type="hidden" name="csrfToken" value={csrf} />
          <button type="submit" className="button-big">
            Continue
          </button>
        </form>
        {offerApp ? (
          <p>
            <a className="button button-secondary" href={appSigninUrl(appLinkUrl, token)}>
              Open in the Buddy Match app instead
            </a>
          </p>
        ) : null}
      </div>
    </div>
  );
}
