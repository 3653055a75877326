import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { readPlanTime } from '@/lib/plans/plans';

// POST /api/v1/plans/read_time.json – what a plan's times would be read as, without proposing
export const POST = route(plans.readPlanTime, async ({ db, auth, body }) => readPlanTime(db, auth.userId, body));
