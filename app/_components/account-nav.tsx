'use client';
// The account menu: marks where the person is, and shows how many requests wait for an
// answer and how many chats have unread messages (GET /api/v1/inbox.json every 30 s,
// sooner when a page that changes them asks SWR to refresh INBOX_URL).
import { usePathname } from 'next/navigation';
import useSWR from 'swr';
import { INBOX_URL, type AccountSection, type InboxCounts } from '@/lib/web/account-nav';
import { getJson } from './api-client';

const REFRESH_MS = 30_000;

function current(path: string, href: string): 'page' | 'true' | undefined {
  if (path === href) return 'page';
  return href !== '/account' && path.startsWith(`${href}/`) ? 'true' : undefined;
}

export function AccountNavLinks({ sections, initialCounts }: { sections: readonly AccountSection[]; initialCounts: InboxCounts }) {
  const path = usePathname();
  const { data } = useSWR<InboxCounts>(INBOX_URL, getJson, { fallbackData: initialCounts, refreshInterval: REFRESH_MS });
  const counts = data ?? initialCounts;
  const badges = {
    requests: { count: counts.pending_requests_count, words: (n: number) => (n === 1 ? 'request waiting' : 'requests waiting') },
    chats: { count: counts.unread_chats_count, words: (n: number) => (n === 1 ? 'chat with unread messages' : 'chats with unread messages') },
  };
  return (
    <ul>
      {sections.map((s) => {
        const badge = s.badge ? badges[s.badge] : null;
        return (
          <li key={s.href}>
            <a href={s.href} aria-current={current(path, s.href)}>
              {s.label}
              {badge && badge.count > 0 ? (
                <span className="count-badge">
                  {badge.count > 99 ? '99+' : badge.count}
                  <span className="visually-hidden"> {badge.words(badge.count)}</span>
                </span>
              ) : null}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
