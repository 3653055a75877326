import * as webApp from '@/lib/contract/web-app';
import { config } from '@/lib/config';
import { route } from '@/lib/http/route';
import { answerMeetupCheckin } from '@/lib/meetups/share';

// POST /api/v1/meetups/{meetupId}/checkin.json – check-in on or off, or "I'm fine" (web session only)
export const POST = route(webApp.answerMeetupCheckin, async ({ db, auth, params, body }) =>
  answerMeetupCheckin(
    db,
    {
      viewerId: auth.userId,
      meetupId: params.meetupId,
    },
    body,
    { mailDelivered: Boolean(config().smtpUrl), checkinDelaySeconds: config().planCheckin.delaySeconds },
  ),
);
