// One plan's .ics, and each person's private calendar feed (issue 29, section 4).
// The feed's URL carries a secret, the only credential a calendar app can send; it is
// stored as a SHA-256 hash (as bearer tokens are), so it is shown once, when made.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { randomSecret, sha256 } from '../core/secrets';
import { notBlockedBy } from '../blocks/status';
import { ApiError } from '../core/errors';
import { isUuid } from '../contract/validation';
import {
  type CalendarEvent,
  type CalendarPlan,
  eventsCalendar,
  planEvent,
  planFileName,
  plansCalendar,
} from './calendar';
import { effectiveStatus, planNotFound, planRows, type PlanQueryRow } from './records';
import { isoInstant } from './time';

export const CALENDAR_FEED_PREFIX = 'bm_cal_';
/** How long a cancelled plan stays in the feed as STATUS:CANCELLED, so subscribed calendars drop it. */
export const CANCELLED_KEPT_DAYS = 30;
/** How far back confirmed plans stay in the feed. */
export const PAST_KEPT_DAYS = 90;

const calendarName = 'Buddy Match plans';

function toCalendarPlan(row: PlanQueryRow, now: Date): CalendarPlan {
  return { ...row, status: effectiveStatus(row, now), other_name: row.u_display_name };
}

export function calendarResponse(body: string, filename: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}

/** A plan of the viewer's as a VCALENDAR with one VEVENT, and its file name; 404 as the JSON endpoint would. */
export async function planIcs(
  db: Database,
  { viewerId, planId, baseUrl, now = new Date() }: { viewerId: string; planId: string; baseUrl: string; now?: Date },
): Promise<{ ics: string; filename: string }> {
  if (!isUuid(planId)) throw planNotFound();
  const row = await planRows(db, viewerId)
    .where('p.id', '=', planId)
    .where(notBlockedBy(viewerId, 'u.id'))
    .executeTakeFirst();
  if (!row) throw planNotFound();
  const plan = toCalendarPlan(row as PlanQueryRow, now);
  return {
    ics: plansCalendar([plan], { host: new URL(baseUrl).hostname, name: calendarName, baseUrl }),
    filename: planFileName(plan),
  };
}

const feedNotFound = () =>
  new ApiError('not_found', 'No such calendar feed', {
    hint: 'The feed was turned off or given a new URL; copy the current one from /account/settings.',
  });

/** More events for a person's feed (meetups, lib/meetups/calendar.ts), given by the caller. */
export type FeedSource = (db: Database, userId: string, now: Date) => Promise<CalendarEvent[]>;

/**
 * The feed behind a secret: every confirmed plan, and recently cancelled ones as STATUS:CANCELLED,
 * then whatever `also` adds for the same person.
 */
export async function feedIcs(
  db: Database,
  secret: string,
  baseUrl: string,
  { now = new Date(), also = [] }: { now?: Date; also?: readonly FeedSource[] } = {},
): Promise<string> {
  if (!secret.startsWith(CALENDAR_FEED_PREFIX)) throw feedNotFound();
  const feed = await db
    .selectFrom('calendar_feeds')
    .select('user_id')
    .where('secret_hash', '=', sha256(secret))
    .executeTakeFirst();
  if (!feed) throw feedNotFound();
  const viewerId = feed.user_id;
  const rows = (await planRows(db, viewerId)
    .where(notBlockedBy(viewerId, 'u.id'))
    .where((eb) =>
      eb.or([
        eb.and([
          eb('p.status', '=', 'confirmed'),
          eb('p.ends_at', '>', sql<Date>`${now}::timestamptz - make_interval(days => ${PAST_KEPT_DAYS})`),
        ]),
        // Only a plan that was once in the calendar (confirmed) needs its cancellation shown.
        eb.and([
          eb('p.status', '=', 'cancelled'),
          eb('p.accepted_by_user', 'is not', null),
          eb('p.updated_at', '>', sql<Date>`${now}::timestamptz - make_interval(days => ${CANCELLED_KEPT_DAYS})`),
        ]),
      ]),
    )
    .orderBy('p.starts_at', 'asc')
    .limit(500)
    .execute()) as PlanQueryRow[];
  // One event per UID: the chain's newest step that was confirmed.
  const byUid = new Map<string, PlanQueryRow>();
  for (const row of rows) {
    const kept = byUid.get(row.calendar_uid);
    if (!kept || row.sequence > kept.sequence) byUid.set(row.calendar_uid, row);
  }
  const more = (await Promise.all(also.map((source) => source(db, viewerId, now)))).flat();
  return eventsCalendar([...[...byUid.values()].map((row) => planEvent(toCalendarPlan(row, now), baseUrl)), ...more], {
    host: new URL(baseUrl).hostname,
    name: calendarName,
  });
}

export interface CalendarFeedState {
  success: true;
  on: boolean;
  created_at: string | null;
  url: string | null;
  webcal_url: string | null;
}

export async function calendarFeedState(db: Database, userId: string): Promise<CalendarFeedState> {
  const row = await db
    .selectFrom('calendar_feeds')
    .select('created_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    success: true,
    on: Boolean(row),
    created_at: row ? isoInstant(new Date(row.created_at)) : null,
    url: null,
    webcal_url: null,
  };
}

/** Turns the feed on, or replaces its secret: the old URL stops working in the same statement. */
export async function rotateCalendarFeed(db: Database, userId: string, baseUrl: string): Promise<CalendarFeedState> {
  const secret = randomSecret(CALENDAR_FEED_PREFIX);
  const now = new Date();
  const row = await db
    .insertInto('calendar_feeds')
    .values({ user_id: userId, secret_hash: sha256(secret), created_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret_hash: sha256(secret), created_at: now }))
    .returning('created_at')
    .executeTakeFirstOrThrow();
  const url = `${baseUrl}/api/v1/calendar/${secret}.ics`;
  return {
    success: true,
    on: true,
    created_at: isoInstant(new Date(row.created_at)),
    url,
    webcal_url: url.replace(/^https?:/, 'webcal:'),
  };
}

export async function revokeCalendarFeed(db: Database, userId: string): Promise<CalendarFeedState> {
  await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
  return { success: true, on: false, created_at: null, url: null, webcal_url: null };
}
