import { lagTolerantDb } from '@/db/replicas';
import * as plans from '@/lib/contract/plans';
import { route } from '@/lib/http/route';
import { planOptions } from '@/lib/plans/options';

// GET /api/v1/users/{slug}/plan_options.json – up to five times and places to propose to a buddy
export const GET = route(plans.planOptions, async ({ db, auth, params, query }) =>
  planOptions(db, { viewerId: auth.userId, slugOrId: params.slug, query, reads: await lagTolerantDb(auth.userId) }),
);
