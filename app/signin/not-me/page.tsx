import type { Metadata } from 'next';
import { getDb } from '@/db';
import { inspectNotMeLink, NOT_ME_LINK_TTL_SECONDS } from '@/lib/accounts/not-me-links';
import { csrfToken } from '@/lib/auth/session';
import { formatDateTime } from '@/lib/web/labels';
import { EmailLinkForm } from '@/app/_components/signin-forms';

export const metadata: Metadata = { title: 'This wasn’t me', robots: { index: false, follow: false } };

const LINK_DAYS = Math.round(NOT_ME_LINK_TTL_SECONDS / 86_400);

/** What a disabled account is, in the words the page uses after the button and for a spent link. */
function DisabledFacts() {
  return (
    <ul className="stack">
      <li>
        Nobody can sign in to it or act for it any more: every assistant’s access is revoked and every signed-in browser
        is signed out.
      </li>
      <li>
        Nobody sees it any more: its photo is taken down and deleted, and its profile, its requests and its chats are
        hidden from everyone.
      </li>
      <li>
        Your email address is free again. If one day you want a Buddy Match account of your own, you can sign up with
        it.
      </li>
    </ul>
  );
}

function NewLinkHelp({ csrf }: { csrf: string }) {
  return (
    <>
      <p>
        If someone signed up with your address, ask for a sign-in email below. Each one carries a fresh “This wasn’t me”
        link. If there is no account with your address, no email is sent.
      </p>
      <section className="card" aria-label="Get a new sign-in email">
        <EmailLinkForm csrfToken={csrf} returnTo="/account" idPrefix="not-me-new-link" />
      </section>
    </>
  );
}

// Nothing happens on loading this page: mail scanners and link previews fetch URLs.
// Only the button's POST (./confirm) disables the account.
export default async function NotMePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  const token = typeof search.token === 'string' ? search.token : '';
  const link = token ? await inspectNotMeLink(getDb(), token) : ({ state: 'unknown' } as const);

  if (link.state === 'used') {
    const justDone = search.done === '1' && link.accountDisabled;
    return (
      <div className="narrow">
        <h1>{justDone ? 'The account is disabled' : 'This link has already been used'}</h1>
        {link.accountDisabled ? (
          <div className="notice notice-ok" role="status">
            <p>
              {justDone
                ? 'Done. The account that was made with your email address is disabled:'
                : 'The account it was sent about is disabled:'}
            </p>
          </div>
        ) : null}
        <DisabledFacts />
        <p>There is nothing more you need to do.</p>
      </div>
    );
  }

  if (link.state !== 'valid') {
    const csrf = await csrfToken();
    return (
      <div className="narrow">
        <h1>{link.state === 'expired' ? 'This link has expired' : 'This link isn’t valid'}</h1>
        <p>
          {link.state === 'expired'
            ? `“This wasn’t me” links work for ${LINK_DAYS} days. Nothing was changed.`
            : 'It may have been copied only in part: open it straight from the email. Nothing was changed.'}
        </p>
        <NewLinkHelp csrf={csrf} />
      </div>
    );
  }

  return (
    <div className="narrow">
      <h1>Disable this Buddy Match account?</h1>
      <p>
        A Buddy Match account was created with your email address, <strong>{link.email}</strong>, on{' '}
        {formatDateTime(link.accountCreatedAt)}. If you never signed up, someone else used your address, and may be
        acting in your name.
      </p>
      <p>If you disable it:</p>
      <DisabledFacts />
      <p className="muted">
        If you did sign up (or your own assistant did for you) and only didn’t ask for a sign-in link, leave this page:
        you don’t need to do anything. Disabling can’t be undone here.
      </p>
      <form method="post" action="/signin/not-me/confirm">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className="button-danger">
          Disable this account
        </button>
      </form>
    </div>
  );
}
