'use client';
// The account area's bar: the brand (the home screen), four tabs with badges and the
// person's photo (Settings). On a phone the tabs are a bar fixed to the bottom of the
// screen; on a wide screen they sit in the header (CSS only, one list of links). The
// badges say how many requests wait for an answer and how many chats have unread
// messages (GET /api/v1/inbox.json every 30 s, sooner when a page that changes them asks
// SWR to refresh INBOX_URL).
import { usePathname } from 'next/navigation';
import { useEffect } from 'react';
import useSWR from 'swr';
import {
  ACCOUNT_HOME,
  ACCOUNT_SETTINGS,
  INBOX_URL,
  SETTINGS_PAGES,
  type AccountSection,
  type InboxCounts,
} from '@/lib/web/account-nav';
import { getJson } from './api-client';
import { Avatar } from './avatar';

const REFRESH_MS = 30_000;

function current(path: string, href: string): 'page' | 'true' | undefined {
  if (path === href) return 'page';
  return href !== ACCOUNT_HOME && path.startsWith(`${href}/`) ? 'true' : undefined;
}

const ICONS: Record<NonNullable<AccountSection['icon']>, string> = {
  // Outline pictograms on a 24-unit grid (stroke only, so they take the text colour).
  discover: 'M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM16 16l5 5',
  requests: 'M9 11a4 4 0 1 0 0-8a4 4 0 1 0 0 8zM2 21c0-4 3-6 7-6s7 2 7 6M19 8v6M16 11h6',
  chats: 'M4 5h16v11H9l-5 4z',
  profile: 'M12 12a4 4 0 1 0 0-8a4 4 0 1 0 0 8zM4 21c0-4.5 3.5-7 8-7s8 2.5 8 7',
};

function TabIcon({ icon }: { icon: AccountSection['icon'] }) {
  if (!icon) return null;
  return (
    <svg className="tab-icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        d={ICONS[icon]}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function AccountBar({
  tabs,
  initialCounts,
  me,
}: {
  tabs: readonly AccountSection[];
  initialCounts: InboxCounts;
  me: { displayName: string; photoURL: string | null };
}) {
  const path = usePathname();
  const { data } = useSWR<InboxCounts>(INBOX_URL, getJson, {
    fallbackData: initialCounts,
    refreshInterval: REFRESH_MS,
  });
  const counts = data ?? initialCounts;
  const badges = {
    requests: {
      count: counts.pending_requests_count,
      words: (n: number) => (n === 1 ? 'request waiting' : 'requests waiting'),
    },
    chats: {
      count: counts.unread_chats_count,
      words: (n: number) => (n === 1 ? 'chat with unread messages' : 'chats with unread messages'),
    },
  };
  const inSettings = (SETTINGS_PAGES as readonly string[]).some((href) => path === href || path.startsWith(`${href}/`));
  return (
    <div className="app-bar">
      <a className="brand" href={ACCOUNT_HOME} aria-current={path === ACCOUNT_HOME ? 'page' : undefined}>
        Buddy Match<span className="visually-hidden"> home</span>
      </a>
      <nav className="tab-bar" aria-label="Account">
        <ul>
          {tabs.map((s) => {
            const badge = s.badge ? badges[s.badge] : null;
            return (
              <li key={s.href}>
                <a href={s.href} aria-current={current(path, s.href)}>
                  {/* The label first, so the link's name starts with it; CSS puts the icon above or before it. */}
                  <span className="tab-label">{s.label}</span>{' '}
                  <span className="tab-glyph">
                    <TabIcon icon={s.icon} />
                    {badge && badge.count > 0 ? (
                      <span className="count-badge">
                        {badge.count > 99 ? '99+' : badge.count}
                        <span className="visually-hidden"> {badge.words(badge.count)}</span>
                      </span>
                    ) : null}
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <a
        className="app-bar-me"
        href={ACCOUNT_SETTINGS}
        aria-current={path === ACCOUNT_SETTINGS ? 'page' : inSettings ? 'true' : undefined}
      >
        <Avatar name={me.displayName} photoURL={me.photoURL} size="small" />
        <span className="visually-hidden">Settings</span>
      </a>
    </div>
  );
}

/**
 * A link to a field (the overview's checklist links to /account/profile#profile-gender)
 * puts the cursor in that field, not only scrolls to it.
 */
export function FocusFromHash() {
  useEffect(() => {
    const focus = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      if (
        target instanceof HTMLInputElement ||
        target instanceof HTMLSelectElement ||
        target instanceof HTMLTextAreaElement
      ) {
        target.focus();
        target.scrollIntoView({ block: 'center' });
      }
    };
    focus();
    window.addEventListener('hashchange', focus);
    return () => window.removeEventListener('hashchange', focus);
  }, []);
  return null;
}
