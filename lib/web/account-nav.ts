// The account area's sections, in menu order. `badge` names the inbox count shown
// beside a section (pending requests to answer, chats with unread messages).
export interface AccountSection {
  href: string;
  label: string;
  badge?: 'requests' | 'chats';
}

export const ACCOUNT_SECTIONS: readonly AccountSection[] = [
  { href: '/account', label: 'Overview' },
  { href: '/account/discover', label: 'Find buddies' },
  { href: '/account/requests', label: 'Buddy requests', badge: 'requests' },
  { href: '/account/chats', label: 'Chats', badge: 'chats' },
  { href: '/account/profile', label: 'Profile' },
  { href: '/account/agents', label: 'Agents' },
  { href: '/account/tokens', label: 'Access tokens' },
  { href: '/account/password', label: 'Password' },
];

/** The inbox counts the menu shows, as GET /api/v1/inbox.json reports them. */
export interface InboxCounts {
  pending_requests_count: number;
  unread_chats_count: number;
}

export const INBOX_URL = '/api/v1/inbox.json';
