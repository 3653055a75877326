import { createBuddyRequest } from '@/lib/buddies/requests';
import * as buddies from '@/lib/contract/buddies';
import { Reply, route } from '@/lib/http/route';

// POST /api/v1/users/{slug}/buddy_request.json – ask someone to be buddies
export const POST = route(buddies.sendBuddyRequest, async ({ db, auth, params, body, baseUrl }) => {
  const result = await createBuddyRequest(db, { viewerId: auth.userId, slugOrId: params.slug, body, baseUrl });
  return new Reply(result, { status: result.outcome === 'created' ? 201 : 200 });
});
