// The account area's navigation: four tabs (a bottom tab bar on phones, in the header on
// wide screens), the home screen behind the brand, and everything else under Settings
// behind the person's photo. `badge` names the inbox count shown on a tab (pending
// requests to answer, chats with unread messages).
import { paths } from '../contract/paths';

export interface AccountSection {
  href: string;
  label: string;
  badge?: 'requests' | 'chats';
  /** The tab's pictogram (decorative; the label is always written beside it). */
  icon?: 'discover' | 'requests' | 'chats' | 'profile';
}

export const ACCOUNT_HOME = '/account';
export const ACCOUNT_SETTINGS = '/account/settings';

export const ACCOUNT_TABS: readonly AccountSection[] = [
  { href: '/account/discover', label: 'Discover', icon: 'discover' },
  { href: '/account/requests', label: 'Requests', badge: 'requests', icon: 'requests' },
  { href: '/account/chats', label: 'Chats', badge: 'chats', icon: 'chats' },
  { href: '/account/profile', label: 'Profile', icon: 'profile' },
];

/** Pages reached from Settings: the tab bar marks none of them, the photo (Settings) is marked instead. */
export const SETTINGS_PAGES = [ACCOUNT_SETTINGS, '/account/agents', '/account/tokens', '/account/password'] as const;

/** The inbox counts the tabs show, as GET /api/v1/inbox.json reports them. */
export interface InboxCounts {
  pending_requests_count: number;
  unread_chats_count: number;
}

export const INBOX_URL = paths.inbox();
