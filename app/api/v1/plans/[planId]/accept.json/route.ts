import { withCallerAgent } from '@/lib/attribution/attribution';
import * as plans from '@/lib/contract/plans';
import { config } from '@/lib/config';
import { route } from '@/lib/http/route';
import { answerPlan } from '@/lib/plans/plans';

// POST /api/v1/plans/{planId}/accept.json – accept a plan proposed to you (it becomes confirmed).
export const POST = route(plans.acceptPlan, async ({ db, auth, params, body, baseUrl }) =>
  answerPlan(db, {
    viewerId: auth.userId,
    planId: params.planId,
    answer: 'accept',
    by: withCallerAgent(auth, body ?? {}),
    baseUrl,
    reminderOffsets: config().planReminderOffsets,
  }),
);
