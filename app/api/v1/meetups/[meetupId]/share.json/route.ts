import * as webApp from '@/lib/contract/web-app';
import { config } from '@/lib/config';
import { route } from '@/lib/http/route';
import { meetupShareState, revokeMeetupShare, shareMeetup } from '@/lib/meetups/share';

// GET /api/v1/meetups/{meetupId}/share.json – whether the caller shared this meetup (web session only)
export const GET = route(webApp.getMeetupShare, async ({ db, auth, params }) =>
  meetupShareState(db, { viewerId: auth.userId, meetupId: params.meetupId }, config().planCheckin.delaySeconds),
);

// POST /api/v1/meetups/{meetupId}/share.json – a read-only page for a trusted contact (web session only)
export const POST = route(webApp.shareMeetup, async ({ db, auth, params, body, baseUrl }) =>
  shareMeetup(db, { viewerId: auth.userId, meetupId: params.meetupId }, body, {
    baseUrl,
    mailDelivered: Boolean(config().smtpUrl),
    checkinDelaySeconds: config().planCheckin.delaySeconds,
  }),
);

// DELETE /api/v1/meetups/{meetupId}/share.json – turn the link off (410) and stop check-in (web session only)
export const DELETE = route(webApp.revokeMeetupShare, async ({ db, auth, params }) =>
  revokeMeetupShare(db, { viewerId: auth.userId, meetupId: params.meetupId }, config().planCheckin.delaySeconds),
);
