import { listBlocks } from '@/lib/buddies/blocks';
import * as safety from '@/lib/contract/safety';
import { route } from '@/lib/http/route';

// GET /api/v1/me/blocks.json – the people the caller has blocked
export const GET = route(safety.listBlocks, async ({ db, auth, baseUrl }) => listBlocks(db, auth.userId, baseUrl));
