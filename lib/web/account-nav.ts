// The account area's sections, in menu order. Buddy requests and chats join this list
// when their pages land (e.g. { href: '/account/requests', label: 'Buddy requests' }).
export interface AccountSection {
  href: string;
  label: string;
}

export const ACCOUNT_SECTIONS: readonly AccountSection[] = [
  { href: '/account', label: 'Overview' },
  { href: '/account/profile', label: 'Profile' },
  { href: '/account/agents', label: 'Agents' },
  { href: '/account/tokens', label: 'Access tokens' },
  { href: '/account/password', label: 'Password' },
];
