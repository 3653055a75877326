import * as webApp from '@/lib/contract/web-app';
import { config } from '@/lib/config';
import { route } from '@/lib/http/route';
import { revokeShare, sharePlan, shareState } from '@/lib/plans/share';

// GET /api/v1/plans/{planId}/share.json – whether the caller shared this plan (web session only)
export const GET = route(webApp.getPlanShare, async ({ db, auth, params }) =>
  shareState(db, { viewerId: auth.userId, planId: params.planId }, config().planCheckin.delaySeconds),
);

// POST /api/v1/plans/{planId}/share.json – a read-only page for a trusted contact (web session only)
export const POST = route(webApp.sharePlan, async ({ db, auth, params, body, baseUrl }) =>
  sharePlan(db, { viewerId: auth.userId, planId: params.planId }, body, {
    baseUrl,
    mailDelivered: Boolean(config().smtpUrl),
    checkinDelaySeconds: config().planCheckin.delaySeconds,
  }),
);

// DELETE /api/v1/plans/{planId}/share.json – turn the link off (410) and stop check-in (web session only)
export const DELETE = route(webApp.revokePlanShare, async ({ db, auth, params }) =>
  revokeShare(db, { viewerId: auth.userId, planId: params.planId }, config().planCheckin.delaySeconds),
);
