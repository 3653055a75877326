import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { currentSession } from '@/lib/auth/session';
import { AccountChrome } from '../_components/account-chrome';

export const metadata: Metadata = { robots: { index: false } };

// Pages check the session themselves (layouts do not re-run on every navigation); the
// app's bar shows only to a signed-in person.
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) return <>{children}</>;
  return <AccountChrome session={session}>{children}</AccountChrome>;
}
