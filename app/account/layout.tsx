import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { getDb } from '@/db';
import { currentSession } from '@/lib/auth/session';
import { inboxCounts } from '@/lib/chats/inbox';
import { ACCOUNT_TABS } from '@/lib/web/account-nav';
import { AccountBar, FocusFromHash } from '../_components/account-nav';
import { ServiceWorker } from '../_components/notifications';

export const metadata: Metadata = { robots: { index: false } };

// Pages check the session themselves (layouts do not re-run on every navigation); the
// bar (brand, tabs, the person's photo) shows only to a signed-in person, with the inbox
// counts as of this request. It takes the place of the site header (globals.css hides
// that header on pages with this bar), so a page's own heading comes first on a phone.
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) return <>{children}</>;
  const counts = await inboxCounts(getDb(), session.user.id);
  const { user } = session;
  return (
    <div className="account">
      <AccountBar
        tabs={ACCOUNT_TABS}
        initialCounts={counts}
        me={{
          displayName: user.display_name,
          photoURL: user.photo_url ? (user.thumbnail_url ?? user.photo_url) : null,
        }}
      />
      <div className="account-page">{children}</div>
      <FocusFromHash />
      <ServiceWorker />
    </div>
  );
}
