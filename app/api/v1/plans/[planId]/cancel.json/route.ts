import { withCallerAgent } from '@/lib/attribution/attribution';
import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { cancelPlan } from '@/lib/plans/plans';

// POST /api/v1/plans/{planId}/cancel.json – cancel a proposed or confirmed plan before it starts.
export const POST = route(plans.cancelPlan, async ({ db, auth, params, body, baseUrl }) =>
  cancelPlan(db, {
    viewerId: auth.userId,
    planId: params.planId,
    body: body ?? {},
    by: withCallerAgent(auth, body ?? {}),
    baseUrl,
  }),
);
