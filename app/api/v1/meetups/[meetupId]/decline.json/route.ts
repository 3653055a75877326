import { withCallerAgent } from '@/lib/attribution/attribution';
import * as meetups from '@/lib/contract/meetups';
import { route } from '@/lib/http/route';
import { answerJoin } from '@/lib/meetups/meetups';

// POST /api/v1/meetups/{meetupId}/decline.json – the host declines a pending join.
export const POST = route(meetups.declineMeetupJoin, async ({ db, auth, params, body, baseUrl }) =>
  answerJoin(db, {
    viewerId: auth.userId,
    meetupId: params.meetupId,
    userId: body.user_id,
    answer: 'decline',
    by: withCallerAgent(auth, body),
    baseUrl,
  }),
);
