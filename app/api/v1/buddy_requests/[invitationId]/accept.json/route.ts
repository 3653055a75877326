import { acceptBuddyRequest } from '@/lib/buddies/requests';
import * as social from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// POST /api/v1/buddy_requests/{invitationId}/accept.json – accept: connection, chat and first message
// The first message is attributed as send_message attributes one: to the token's agent unless the body names another.
export const POST = route(social.acceptBuddyRequest, async ({ db, auth, params, body, baseUrl }) => {
  let by = body;
  if (!body.agentName && auth.tokenId) {
    const token = await db.selectFrom('access_tokens').select('agent_name').where('id', '=', auth.tokenId).executeTakeFirst();
    if (token?.agent_name) by = { ...body, agentName: token.agent_name };
  }
  return acceptBuddyRequest(db, { viewerId: auth.userId, requestId: params.invitationId, body: by, baseUrl });
});
