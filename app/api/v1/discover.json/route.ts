import { lagTolerantDb } from '@/db/replicas';
import * as discover from '@/lib/contract/discover';
import * as discovery from '@/lib/discover';
import { route } from '@/lib/http/route';

// GET /api/v1/discover.json – ranked buddies nearby who share activities and free time
// (the ranked search on a replica when one is ready for this caller: db/replicas.ts)
export const GET = route(discover.discover, async ({ db, auth, query, baseUrl }) =>
  discovery.discover(db, auth.userId, query, { baseUrl, reads: await lagTolerantDb(auth.userId) }),
);
