// Meetups in calendars (issue 45), as plans are (lib/plans/calendar.ts): one meetup's .ics, and
// the meetups a person hosts or holds a seat in, in their private feed. A cancelled meetup stays
// in the feed for a while as STATUS:CANCELLED, so subscribed calendars drop it.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { MeetupRow } from '@/db/types';
import { type CalendarEvent, eventsCalendar, ICalEventStatus } from '../plans/calendar';
import { firstName } from '../profiles/records';
import { loadViewer } from './meetups';
import { meetupNotFound, meetupRows, visibleTo, type MeetupQueryRow } from './records';
import { isUuid } from '../contract/validation';

const CANCELLED_KEPT_DAYS = 30;
const PAST_KEPT_DAYS = 90;

function meetupEvent(row: MeetupRow & { host_name: string }, showAddress: boolean): CalendarEvent {
  const activity = row.activity.replace(/_/g, ' ');
  return {
    uid: `meetup-${row.id}`,
    // Hosted or joined (0), then every cancel or move adds one.
    sequence: row.calendar_sequence,
    status: row.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    start: new Date(row.starts_at),
    end: new Date(row.ends_at),
    summary: `${activity[0]?.toUpperCase() ?? ''}${activity.slice(1)} meetup (${firstName(row.host_name)})`,
    location: showAddress && row.place_address ? `${row.place_name}, ${row.place_address}` : row.place_name,
  };
}

/** One meetup the viewer may see, as a VCALENDAR; the address only for the host and the confirmed. */
export async function meetupIcs(
  db: Database,
  {
    viewerId,
    meetupId,
    baseUrl,
    now = new Date(),
  }: { viewerId: string; meetupId: string; baseUrl: string; now?: Date },
): Promise<string> {
  if (!isUuid(meetupId)) throw meetupNotFound();
  const viewer = await loadViewer(db, viewerId);
  const row = (await meetupRows(db, viewerId)
    .where('m.id', '=', meetupId)
    .where(visibleTo(viewer, now))
    .executeTakeFirst()) as MeetupQueryRow | undefined;
  if (!row) throw meetupNotFound();
  const inside = row.host_id === viewerId || row.my_status === 'confirmed';
  return eventsCalendar([meetupEvent(row, inside)], { host: new URL(baseUrl).hostname, name: 'Buddy Match meetup' });
}

/** A person's feed's meetups: those they host or hold a seat in, and recently cancelled ones. */
export async function meetupFeedEvents(db: Database, userId: string, now: Date): Promise<CalendarEvent[]> {
  const rows = await db
    .selectFrom('meetups as m')
    .innerJoin('users as h', 'h.id', 'm.host_id')
    .leftJoin('meetup_attendees as a', (join) => join.onRef('a.meetup_id', '=', 'm.id').on('a.user_id', '=', userId))
    .selectAll('m')
    .select('h.display_name as host_name')
    .where((eb) => eb.or([eb('m.host_id', '=', userId), eb('a.status', '=', 'confirmed')]))
    .where((eb) =>
      eb.or([
        eb.and([
          eb('m.status', '=', 'open'),
          eb('m.ends_at', '>', sql<Date>`${now}::timestamptz - make_interval(days => ${PAST_KEPT_DAYS})`),
        ]),
        eb.and([
          eb('m.status', '=', 'cancelled'),
          eb('m.cancelled_at', '>', sql<Date>`${now}::timestamptz - make_interval(days => ${CANCELLED_KEPT_DAYS})`),
        ]),
      ]),
    )
    .orderBy('m.starts_at')
    .limit(500)
    .execute();
  return rows.map((row) => meetupEvent(row, true));
}
