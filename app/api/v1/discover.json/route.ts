import { discover as discoverSpec } from '@/lib/contract/discover';
import { discover } from '@/lib/discover';
import { route } from '@/lib/http/route';

// GET /api/v1/discover.json – ranked buddies nearby who share activities and free time
export const GET = route(discoverSpec, async ({ db, auth, query, baseUrl }) => discover(db, auth.userId, query, { baseUrl }));
