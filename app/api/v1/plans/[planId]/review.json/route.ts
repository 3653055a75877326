import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { reviewPlan } from '@/lib/plans/reviews';

// POST /api/v1/plans/{planId}/review.json – "Did you meet?", answered privately after the plan ended (web session only).
export const POST = route(webApp.reviewPlan, async ({ db, auth, params, body, baseUrl }) =>
  reviewPlan(db, { viewerId: auth.userId, planId: params.planId, outcome: body.outcome, baseUrl }),
);
