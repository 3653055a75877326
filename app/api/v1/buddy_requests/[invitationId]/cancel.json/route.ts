import { cancelBuddyRequest } from '@/lib/buddies/requests';
import { cancelBuddyRequest as cancelSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// POST /api/v1/buddy_requests/{invitationId}/cancel.json – withdraw a request the caller sent
export const POST = route(cancelSpec, async ({ db, auth, params, body, baseUrl }) =>
  cancelBuddyRequest(db, auth.userId, params.invitationId, body, baseUrl),
);
