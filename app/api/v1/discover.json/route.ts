import * as discover from '@/lib/contract/discover';
import * as discovery from '@/lib/discover';
import { route } from '@/lib/http/route';

// GET /api/v1/discover.json – ranked buddies nearby who share activities and free time
export const GET = route(discover.discover, async ({ db, auth, query, baseUrl }) =>
  discovery.discover(db, auth.userId, query, { baseUrl }),
);
