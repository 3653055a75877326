import { declineBuddyRequest } from '@/lib/buddies/requests';
import * as buddies from '@/lib/contract/buddies';
import { route } from '@/lib/http/route';

// POST /api/v1/buddy_requests/{invitationId}/decline.json – decline a request sent to the caller
export const POST = route(buddies.declineBuddyRequest, async ({ db, auth, params, body, baseUrl }) =>
  declineBuddyRequest(db, { viewerId: auth.userId, requestId: params.invitationId, by: body, baseUrl }),
);
