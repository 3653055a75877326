import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { calendarResponse, feedIcs } from '@/lib/plans/calendar-feed';

// GET /api/v1/calendar/{secret}.ics – a person's private calendar feed (the secret is the credential; never logged).
export const GET = route(webApp.calendarFeedFile, async ({ db, params, baseUrl }) =>
  calendarResponse(await feedIcs(db, params.secret, baseUrl), 'buddy-match.ics'),
);
