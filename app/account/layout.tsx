import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { getDb } from '@/db';
import { csrfToken, currentSession } from '@/lib/auth/session';
import { readInbox } from '@/lib/chats/inbox';
import { config } from '@/lib/config';
import { ACCOUNT_SECTIONS } from '@/lib/web/account-nav';
import { AccountNavLinks } from '../_components/account-nav';

export const metadata: Metadata = { robots: { index: false } };

// Pages check the session themselves (layouts do not re-run on every navigation);
// the menu shows only to a signed-in person, with the inbox counts as of this request.
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) return <>{children}</>;
  const csrf = await csrfToken();
  const inbox = await readInbox(getDb(), session.user.id, undefined, config().publicBaseUrl);
  const counts = { pending_requests_count: inbox.pending_requests_count, unread_chats_count: inbox.unread_chats_count };
  return (
    <div className="account">
      <nav className="account-nav" aria-label="Account">
        <AccountNavLinks sections={ACCOUNT_SECTIONS} initialCounts={counts} />
        <form method="post" action="/auth/signout">
          <input type="hidden" name="csrfToken" value={csrf} />
          <input type="hidden" name="callbackUrl" value="/signin?signedOut=1" />
          <button type="submit" className="button-secondary">
            Sign out
          </button>
        </form>
      </nav>
      <div>{children}</div>
    </div>
  );
}
