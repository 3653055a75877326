import * as webApp from '@/lib/contract/web-app';
import { config } from '@/lib/config';
import { route } from '@/lib/http/route';
import { answerCheckin } from '@/lib/plans/share';

// POST /api/v1/plans/{planId}/checkin.json – check-in on or off, or "I'm fine" (web session only)
export const POST = route(webApp.answerCheckin, async ({ db, auth, params, body }) =>
  answerCheckin(db, { viewerId: auth.userId, planId: params.planId }, body, {
    mailDelivered: Boolean(config().smtpUrl),
    checkinDelaySeconds: config().planCheckin.delaySeconds,
  }),
);
