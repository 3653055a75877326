import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { calendarFeedState, revokeCalendarFeed, rotateCalendarFeed } from '@/lib/plans/calendar-feed';

// GET /api/v1/me/calendar_feed.json – whether the private calendar feed is on (the settings page; web session only)
export const GET = route(webApp.getCalendarFeed, async ({ db, auth }) => calendarFeedState(db, auth.userId));

// POST – turn it on, or give it a new URL (shown once: only its hash is kept)
export const POST = route(webApp.rotateCalendarFeed, async ({ db, auth, baseUrl }) =>
  rotateCalendarFeed(db, auth.userId, baseUrl),
);

// DELETE – turn it off
export const DELETE = route(webApp.revokeCalendarFeed, async ({ db, auth }) => revokeCalendarFeed(db, auth.userId));
