import * as meetups from '@/lib/contract/meetups';
import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { meetupIcs } from '@/lib/meetups/calendar';
import { getMeetup } from '@/lib/meetups/meetups';
import { calendarResponse } from '@/lib/plans/calendar-feed';

// GET /api/v1/meetups/{meetupId}.json – one meetup as the caller sees it (the segment arrives with .json; the contract strips it).
const meetupJson = route(meetups.getMeetup, async ({ db, auth, params, baseUrl }) =>
  getMeetup(db, { viewerId: auth.userId, meetupId: params.meetupId, baseUrl }),
);

// GET /api/v1/meetups/{meetupId}.ics – the same meetup as an iCalendar file (RFC 5545).
const meetupCalendar = route(webApp.meetupCalendar, async ({ db, auth, params, baseUrl }) =>
  calendarResponse(await meetupIcs(db, { viewerId: auth.userId, meetupId: params.meetupId, baseUrl }), 'meetup.ics'),
);

// One route file serves both: Next.js routes /meetups/x.json and /meetups/x.ics to the same [meetupId] segment.
export async function GET(request: Request, context: { params: Promise<Record<string, string | string[]>> }) {
  const { meetupId } = await context.params;
  return (String(meetupId).endsWith('.ics') ? meetupCalendar : meetupJson)(request, context);
}
