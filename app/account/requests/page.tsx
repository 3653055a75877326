import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { listBuddyRequests } from '@/lib/buddies/requests';
import { config } from '@/lib/config';
import { activityNames } from '@/lib/web/activity-names';
import { BuddyRequests } from '@/app/_components/buddy-requests';

export const metadata: Metadata = { title: 'Buddy requests' };

// Rendered with the lists already filled in; the client keeps them current.
export default async function RequestsPage() {
  const { user } = await requireSession('/account/requests');
  const initial = await listBuddyRequests(getDb(), user.id, {}, config().publicBaseUrl);
  return (
    <>
      <h1>Buddy requests</h1>
      <p className="muted">Requests you and your agents sent and received. Accepting one opens a chat.</p>
      <BuddyRequests initial={initial} activityNames={activityNames()} />
    </>
  );
}
