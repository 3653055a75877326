import { withCallerAgent } from '@/lib/attribution/attribution';
import * as meetups from '@/lib/contract/meetups';
import { route } from '@/lib/http/route';
import { joinMeetup } from '@/lib/meetups/meetups';

// POST /api/v1/meetups/{meetupId}/join.json – a seat, else the waitlist (approval: a request); or take an offered seat.
export const POST = route(meetups.joinMeetup, async ({ db, auth, params, body, baseUrl }) =>
  joinMeetup(db, { viewerId: auth.userId, meetupId: params.meetupId, by: withCallerAgent(auth, body ?? {}), baseUrl }),
);
