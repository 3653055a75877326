import { listBlocks } from '@/lib/buddies/blocks';
import { listBlocks as listSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// GET /api/v1/me/blocks.json – the people the caller has blocked
export const GET = route(listSpec, async ({ db, auth, baseUrl }) => listBlocks(db, auth.userId, baseUrl));
