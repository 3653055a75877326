import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { listBuddyRequests } from '@/lib/buddies/requests';
import { config } from '@/lib/config';
import { freeTogetherWithEach } from '@/lib/discover';
import { activityNames } from '@/lib/web/activity-names';
import { BuddyRequests } from '@/app/_components/buddy-requests';

export const metadata: Metadata = { title: 'Buddy requests' };

// Rendered with the lists already filled in; the client keeps them current.
export default async function RequestsPage() {
  const { user } = await requireSession('/account/requests');
  const db = getDb();
  const initial = await listBuddyRequests(db, user.id, {}, config().publicBaseUrl);
  const open = [...initial.received, ...initial.sent].filter((r) => r.state === 'pending');
  const freeTogether = await freeTogetherWithEach(
    db,
    user,
    open.map((r) => r.user.id),
  );
  return (
    <>
      <h1>Buddy requests</h1>
      <p className="muted">Requests you and your agents sent and received. Accepting one opens a chat.</p>
      <BuddyRequests initial={initial} activityNames={activityNames()} freeTogether={freeTogether} />
    </>
  );
}
