import { withCallerAgent } from '@/lib/attribution/attribution';
import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { answerPlan } from '@/lib/plans/plans';

// POST /api/v1/plans/{planId}/decline.json – decline a plan proposed to you.
export const POST = route(plans.declinePlan, async ({ db, auth, params, body, baseUrl }) =>
  answerPlan(db, {
    viewerId: auth.userId,
    planId: params.planId,
    answer: 'decline',
    by: withCallerAgent(auth, body ?? {}),
    baseUrl,
  }),
);
