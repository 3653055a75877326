import { listBuddyRequests } from '@/lib/buddies/requests';
import * as buddies from '@/lib/contract/buddies';
import { route } from '@/lib/http/route';

// GET /api/v1/buddy_requests.json – the caller's sent and received requests
export const GET = route(buddies.listBuddyRequests, async ({ db, auth, query, baseUrl }) =>
  listBuddyRequests(db, auth.userId, query, baseUrl),
);
