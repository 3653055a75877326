import { withCallerAgent } from '@/lib/attribution/attribution';
import * as meetups from '@/lib/contract/meetups';
import { route } from '@/lib/http/route';
import { leaveMeetup } from '@/lib/meetups/meetups';

// POST /api/v1/meetups/{meetupId}/leave.json – leave a meetup or its waitlist; a freed seat goes to the next.
export const POST = route(meetups.leaveMeetup, async ({ db, auth, params, body, baseUrl }) =>
  leaveMeetup(db, { viewerId: auth.userId, meetupId: params.meetupId, by: withCallerAgent(auth, body ?? {}), baseUrl }),
);
