import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { getPlan } from '@/lib/plans/plans';

// GET /api/v1/plans/{planId}.json – one of the caller's plans (the segment arrives with .json; the contract strips it).
export const GET = route(plans.getPlan, async ({ db, auth, params, baseUrl }) =>
  getPlan(db, { viewerId: auth.userId, planId: params.planId, baseUrl }),
);
