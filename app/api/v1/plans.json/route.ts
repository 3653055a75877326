import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { listPlans } from '@/lib/plans/plans';

// GET /api/v1/plans.json – the caller's plans: to_answer, upcoming or past, paged.
export const GET = route(plans.listPlans, async ({ db, auth, query, baseUrl }) =>
  listPlans(db, { viewerId: auth.userId, query, baseUrl }),
);
