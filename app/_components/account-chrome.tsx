import type { ReactNode } from 'react';
import { getDb } from '@/db';
import type { currentSession } from '@/lib/auth/session';
import { inboxCounts } from '@/lib/inbox/inbox';
import { ACCOUNT_TABS } from '@/lib/web/account-nav';
import { AccountBar, FocusFromHash } from './account-nav';
import { ServiceWorker } from './service-worker';

// The signed-in app around a page: the bar (brand, tabs, the person's photo) with the
// inbox counts as of this request. It takes the place of the site header (globals.css
// hides that header on pages with this bar), so a page's own heading comes first on a
// phone. The account area and a public profile seen by a member share it.
type Session = NonNullable<Awaited<ReturnType<typeof currentSession>>>;

export async function AccountChrome({ session, children }: { session: Session; children: ReactNode }) {
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
      <ServiceWorker person={user.id} />
    </div>
  );
}
