import type { Metadata } from 'next';
import { getDb } from '@/db';
import { listAccessTokens } from '@/lib/accounts/tokens';
import { csrfToken, requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { loadVapidKeys } from '@/lib/notifications/web-push';
import { NotificationsOptIn } from '@/app/_components/notifications';
import { CalendarFeed } from '@/app/_components/calendar-feed';
import { calendarFeedState } from '@/lib/plans/calendar-feed';
import { MailPreferences } from '@/app/_components/mail-preferences';
import { mailPreferences } from '@/lib/notifications/mail-preferences';
import { BlockedPeople } from '@/app/_components/blocked-people';
import { listBlocks } from '@/lib/buddies/blocks';
import { YourData } from '@/app/_components/your-data';
import { isFreshSession } from '@/lib/accounts/delete';

export const metadata: Metadata = { title: 'Settings' };

// What used to crowd the top of every account page: assistants, password, sign out.
export default async function SettingsPage() {
  const { user, session } = await requireSession('/account/settings');
  const [tokens, csrf, vapid, feed, mail, blocks, freshSignin] = await Promise.all([
    listAccessTokens(getDb(), user.id),
    csrfToken(),
    loadVapidKeys(getDb(), config().vapid, config().publicBaseUrl),
    calendarFeedState(getDb(), user.id),
    mailPreferences(getDb(), user.id),
    listBlocks(getDb(), user.id, config().publicBaseUrl),
    isFreshSession(getDb(), session.sessionId),
  ]);
  const connected = tokens.filter((t) => t.active).length;
  return (
    <div className="narrow">
      <h1>Settings</h1>
      <p className="muted">Signed in as {user.email}.</p>
      <ul className="settings-list" aria-label="Settings">
        <li>
          <a href="/account/agents">
            <span className="settings-title">Connected assistants</span>
            <span className="muted">
              {connected === 0
                ? 'No assistant can act for you.'
                : connected === 1
                  ? '1 connection can act for you.'
                  : `${connected} connections can act for you.`}{' '}
              See what each one did, and disconnect any.
            </span>
          </a>
        </li>
        <li>
          <a href="/account/password">
            <span className="settings-title">Password</span>
            <span className="muted">Change it, and sign out everywhere else if you need to.</span>
          </a>
        </li>
        <li>
          <a href={`/u/${encodeURIComponent(user.slug)}`}>
            <span className="settings-title">Your public profile</span>
            <span className="muted">What others see.</span>
          </a>
        </li>
      </ul>
      <NotificationsOptIn publicKey={vapid.publicKey} />
      <CalendarFeed initiallyOn={feed.on} />
      <MailPreferences initial={mail} />
      <BlockedPeople
        initial={blocks.blocked.map(({ slug, displayName, location }) => ({ slug, displayName, location }))}
      />
      <YourData freshSignin={freshSignin} />
      <form method="post" action="/auth/signout" className="settings-signout">
        <input type="hidden" name="csrfToken" value={csrf} />
        <input type="hidden" name="callbackUrl" value="/signin?signedOut=1" />
        <button type="submit" className="button-secondary">
          Sign out
        </button>
      </form>
    </div>
  );
}
