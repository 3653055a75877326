import * as meta from '@/lib/contract/meta';
import { activityCatalog } from '@/lib/activities/list';
import { Reply, route } from '@/lib/http/route';

// GET /api/v1/activities.json – the canonical activity ids
export const GET = route(
  meta.listActivities,
  async () => new Reply(activityCatalog(), { headers: { 'cache-control': 'public, max-age=3600' } }),
);
