import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { meetupFeedEvents } from '@/lib/meetups/calendar';
import { calendarResponse, feedIcs } from '@/lib/plans/calendar-feed';

// GET /api/v1/calendar/{secret}.ics – a person's private calendar feed, plans and meetups (the secret is the
// credential; never logged).
export const GET = route(webApp.calendarFeedFile, async ({ db, params, baseUrl }) =>
  calendarResponse(await feedIcs(db, params.secret, baseUrl, { also: [meetupFeedEvents] }), 'buddy-match.ics'),
);
