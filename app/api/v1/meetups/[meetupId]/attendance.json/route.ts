import { withCallerAgent } from '@/lib/attribution/attribution';
import * as meetups from '@/lib/contract/meetups';
import { route } from '@/lib/http/route';
import { markAttendance } from '@/lib/meetups/meetups';

// POST /api/v1/meetups/{meetupId}/attendance.json – the host, after the end: who did not come.
export const POST = route(meetups.meetupAttendance, async ({ db, auth, params, body, baseUrl }) =>
  markAttendance(db, {
    viewerId: auth.userId,
    meetupId: params.meetupId,
    noShow: body.no_show,
    by: withCallerAgent(auth, body),
    baseUrl,
  }),
);
