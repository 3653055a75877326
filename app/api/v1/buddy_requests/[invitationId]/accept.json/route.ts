import { withCallerAgent } from '@/lib/attribution/attribution';
import { acceptBuddyRequest } from '@/lib/buddies/requests';
import * as buddies from '@/lib/contract/buddies';
import { route } from '@/lib/http/route';

// POST /api/v1/buddy_requests/{invitationId}/accept.json – accept: connection, chat and first message
// The first message is the token's agent's, as a send_message from the same token is (issue 30).
export const POST = route(buddies.acceptBuddyRequest, async ({ db, auth, params, body, baseUrl }) =>
  acceptBuddyRequest(db, {
    viewerId: auth.userId,
    requestId: params.invitationId,
    body: withCallerAgent(auth, body),
    baseUrl,
  }),
);
