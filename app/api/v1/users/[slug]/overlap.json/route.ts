import { lagTolerantDb } from '@/db/replicas';
import * as discover from '@/lib/contract/discover';
import { sharedFreeTime } from '@/lib/discover';
import { route } from '@/lib/http/route';

// GET /api/v1/users/{slug}/overlap.json – the weekly free time the caller shares with this person
export const GET = route(discover.getOverlap, async ({ db, auth, params, baseUrl }) =>
  sharedFreeTime(db, {
    viewerId: auth.userId,
    slugOrId: params.slug,
    baseUrl,
    reads: await lagTolerantDb(auth.userId),
  }),
);
