import * as webApp from '@/lib/contract/web-app';
import { config } from '@/lib/config';
import { personOnly, route } from '@/lib/http/route';
import { meetupShareState, revokeMeetupShare, shareMeetup } from '@/lib/meetups/share';

const PERSON_ONLY =
  'Sharing a meetup and check-ins are the person’s own: ask them to use the meetup page in the web app.';

// GET /api/v1/meetups/{meetupId}/share.json – whether the caller shared this meetup (web session only)
export const GET = route(webApp.getMeetupShare, async ({ db, auth, params }) =>
  meetupShareState(
    db,
    { viewerId: personOnly(auth, PERSON_ONLY), meetupId: params.meetupId },
    config().planCheckin.delaySeconds,
  ),
);

// POST /api/v1/meetups/{meetupId}/share.json – a read-only page for a trusted contact (web session only)
export const POST = route(webApp.shareMeetup, async ({ db, auth, params, body, baseUrl }) =>
  shareMeetup(db, { viewerId: personOnly(auth, PERSON_ONLY), meetupId: params.meetupId }, body, {
    baseUrl,
    mailDelivered: Boolean(config().smtpUrl),
    checkinDelaySeconds: config().planCheckin.delaySeconds,
  }),
);

// DELETE /api/v1/meetups/{meetupId}/share.json – turn the link off (410) and stop check-in (web session only)
export const DELETE = route(webApp.revokeMeetupShare, async ({ db, auth, params }) =>
  revokeMeetupShare(
    db,
    { viewerId: personOnly(auth, PERSON_ONLY), meetupId: params.meetupId },
    config().planCheckin.delaySeconds,
  ),
);
