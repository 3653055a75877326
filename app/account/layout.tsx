import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { getDb } from '@/db';
import { csrfToken, currentSession } from '@/lib/auth/session';
import { inboxCounts } from '@/lib/chats/inbox';
import { ACCOUNT_SECTIONS } from '@/lib/web/account-nav';
import { AccountNavLinks } from '../_components/account-nav';
import { ServiceWorker } from '../_components/notifications';

export const metadata: Metadata = { robots: { index: false } };

// Pages check the session themselves (layouts do not re-run on every navigation);
// the menu shows only to a signed-in person, with the inbox counts as of this request.
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) return <>{children}</>;
  const csrf = await csrfToken();
  const counts = await inboxCounts(getDb(), session.user.id);
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
      <ServiceWorker />
    </div>
  );
}
