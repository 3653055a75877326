import * as webApp from '@/lib/contract/web-app';
import { config } from '@/lib/config';
import { personOnly, route } from '@/lib/http/route';
import { answerMeetupCheckin } from '@/lib/meetups/share';

// POST /api/v1/meetups/{meetupId}/checkin.json – check-in on or off, or "I'm fine" (web session only)
export const POST = route(webApp.answerMeetupCheckin, async ({ db, auth, params, body }) =>
  answerMeetupCheckin(
    db,
    {
      viewerId: personOnly(
        auth,
        'Check-ins are the person’s own: ask them to answer on the meetup page in the web app.',
      ),
      meetupId: params.meetupId,
    },
    body,
    { mailDelivered: Boolean(config().smtpUrl), checkinDelaySeconds: config().planCheckin.delaySeconds },
  ),
);
