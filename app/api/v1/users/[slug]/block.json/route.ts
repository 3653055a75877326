import * as safety from '@/lib/contract/safety';
import { blockUser, unblockUser } from '@/lib/buddies/blocks';
import { route } from '@/lib/http/route';

// POST /api/v1/users/{slug}/block.json – block someone
export const POST = route(safety.blockUser, async ({ db, auth, params, body, baseUrl }) =>
  blockUser(db, { viewerId: auth.userId, slugOrId: params.slug, by: body, baseUrl }),
);

// DELETE /api/v1/users/{slug}/block.json – unblock someone
export const DELETE = route(safety.unblockUser, async ({ db, auth, params, body, baseUrl }) =>
  unblockUser(db, { viewerId: auth.userId, slugOrId: params.slug, by: body, baseUrl }),
);
