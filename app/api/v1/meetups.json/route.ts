import { withCallerAgent } from '@/lib/attribution/attribution';
import { config } from '@/lib/config';
import * as meetups from '@/lib/contract/meetups';
import { route } from '@/lib/http/route';
import { hostMeetup } from '@/lib/meetups/meetups';
import { findMeetups } from '@/lib/meetups/search';

// GET /api/v1/meetups.json – upcoming meetups near the caller, ranked by fit (view=mine: the caller's own).
export const GET = route(meetups.listMeetups, async ({ db, auth, query, baseUrl }) =>
  findMeetups(db, { viewerId: auth.userId, query, baseUrl }),
);

// POST /api/v1/meetups.json – host a meetup (or a weekly series of them).
export const POST = route(meetups.hostMeetup, async ({ db, auth, body, baseUrl }) =>
  hostMeetup(db, {
    viewerId: auth.userId,
    body,
    by: withCallerAgent(auth, body),
    baseUrl,
    limit: config().limits.meetups_hosted,
  }),
);
