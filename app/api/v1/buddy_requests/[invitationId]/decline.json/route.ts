import { declineBuddyRequest } from '@/lib/buddies/requests';
import { declineBuddyRequest as declineSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// POST /api/v1/buddy_requests/{invitationId}/decline.json – decline a request sent to the caller
export const POST = route(declineSpec, async ({ db, auth, params, body, baseUrl }) =>
  declineBuddyRequest(db, auth.userId, params.invitationId, body, baseUrl),
);
