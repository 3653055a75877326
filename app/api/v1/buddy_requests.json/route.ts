import { listBuddyRequests } from '@/lib/buddies/requests';
import { listBuddyRequests as listSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// GET /api/v1/buddy_requests.json – the caller's sent and received requests
export const GET = route(listSpec, async ({ db, auth, query, baseUrl }) => listBuddyRequests(db, auth.userId, query, baseUrl));
