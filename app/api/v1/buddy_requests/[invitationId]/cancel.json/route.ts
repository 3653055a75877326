import { cancelBuddyRequest } from '@/lib/buddies/requests';
import * as buddies from '@/lib/contract/buddies';
import { route } from '@/lib/http/route';

// POST /api/v1/buddy_requests/{invitationId}/cancel.json – withdraw a request the caller sent
export const POST = route(buddies.cancelBuddyRequest, async ({ db, auth, params, body, baseUrl }) =>
  cancelBuddyRequest(db, { viewerId: auth.userId, requestId: params.invitationId, by: body, baseUrl }),
);
