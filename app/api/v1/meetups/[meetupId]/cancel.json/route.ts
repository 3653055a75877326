import { withCallerAgent } from '@/lib/attribution/attribution';
import * as meetups from '@/lib/contract/meetups';
import { route } from '@/lib/http/route';
import { cancelMeetup } from '@/lib/meetups/meetups';

// POST /api/v1/meetups/{meetupId}/cancel.json – the host cancels it (series=true: the later occurrences too).
export const POST = route(meetups.cancelMeetup, async ({ db, auth, params, body, baseUrl }) =>
  cancelMeetup(db, {
    viewerId: auth.userId,
    meetupId: params.meetupId,
    body: body ?? {},
    by: withCallerAgent(auth, body ?? {}),
    baseUrl,
  }),
);
