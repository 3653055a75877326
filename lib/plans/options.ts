// Plan options (issue 29, section 2): a few concrete times two buddies could meet, drawn
// from both weekly grids (each on their own clock, via sharedIntervals), their shared
// activities and the events directory near both public points (never exact coordinates).
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { getActivity, matchActivity } from '../activities';
import { sharedIntervals, type Interval } from '../availability/zoned';
import { PLAN_LIMITS, type PlanOption } from '../contract/plans';
import { zonedPair } from '../availability/zoned-pair';
import { ApiError } from '../core/errors';
import { getActiveUserOrThrow, getUserOrThrow } from '../profiles/profile';
import { isoInstant } from './time';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** An event counts as near when it is within this distance of both people's public points. */
const EVENT_RADIUS_KM = 30;
/** Options start at least this long from now, so there is time to agree. */
const LEAD_MS = 2 * HOUR_MS;
const OPTION_MS = PLAN_LIMITS.defaultDurationHours * HOUR_MS;

const notFound = (slugOrId: string) =>
  new ApiError('not_found', `No buddy with slug or id "${slugOrId}"`, {
    hint: 'Plan options are for buddies: GET /api/v1/chats.json lists yours.',
  });

/** Whether the two share a chat (are buddies) and neither has blocked the other or left. */
async function areOpenBuddies(db: Database, viewerId: string, otherId: string): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`select
      exists (select 1 from chat_members where user_id = ${viewerId} and other_user_id = ${otherId})
      and not exists (select 1 from blocks where (blocker_id = ${viewerId} and blocked_id = ${otherId})
                                          or (blocker_id = ${otherId} and blocked_id = ${viewerId}))
      and not exists (select 1 from users where id = ${otherId} and disabled_at is not null) as ok`.execute(db);
  return rows[0]?.ok === true;
}

const activityName = (id: string) => getActivity(id)?.name ?? id;

/** The activities to offer: the one asked for (canonical when the catalog knows it), else the shared ones. */
function chooseActivities(requested: string | undefined, caller: UserRow, other: UserRow) {
  if (requested) {
    const id = matchActivity(requested);
    return { ids: id ? [id] : [], names: [id ? activityName(id) : requested], shared: false };
  }
  const shared = caller.activities.filter((id) => other.activities.includes(id));
  if (shared.length > 0) return { ids: shared, names: shared.map(activityName), shared: true };
  const either = [...new Set([...caller.activities, ...other.activities])].slice(0, 3);
  return { ids: either, names: either.length > 0 ? either.map(activityName) : ['Meet up'], shared: false };
}

interface Candidate {
  start: Date;
  end: Date;
  activity: string;
  place: PlanOption['place'];
  eventId: string | null;
  why: string[];
}

/** Upcoming events near both public points, of the chosen activities, that fit inside a shared free interval. */
async function eventCandidates(
  db: Database,
  caller: UserRow,
  other: UserRow,
  activityIds: string[],
  intervals: Interval[],
  from: Date,
  to: Date,
): Promise<Candidate[]> {
  const a = caller.public_latitude !== null && caller.public_longitude !== null ? caller : null;
  const b = other.public_latitude !== null && other.public_longitude !== null ? other : null;
  if (!a || !b || activityIds.length === 0 || intervals.length === 0) return [];
  const near = (person: UserRow) =>
    sql<boolean>`earth_distance(earth_point::earth, ll_to_earth(${person.public_latitude}, ${person.public_longitude}))
      <= ${EVENT_RADIUS_KM * 1000}`;
  const events = await db
    .selectFrom('events')
    .select(['id', 'title', 'starts_at', 'ends_at', 'venue_name', 'venue_address', 'activity_ids'])
    .where('all_day', '=', false)
    .where('earth_point', 'is not', null)
    .where('starts_at', '>=', from)
    .where('starts_at', '<', to)
    .where(sql<boolean>`activity_ids && ${sql.val(activityIds)}::text[]`)
    .where(near(a))
    .where(near(b))
    .orderBy('starts_at')
    .limit(50)
    .execute();
  const inside = (start: number, end: number) =>
    intervals.some((i) => i.start.getTime() <= start && end <= i.end.getTime());
  return events.flatMap((event) => {
    const start = new Date(event.starts_at);
    const end = new Date(event.ends_at);
    if (!(end > start) || !inside(start.getTime(), end.getTime())) return [];
    const activity = activityIds.find((id) => event.activity_ids.includes(id)) ?? activityIds[0]!;
    const place = event.venue_name ? { name: event.venue_name, address: event.venue_address } : null;
    return [
      {
        start,
        end,
        activity: activityName(activity),
        place,
        eventId: event.id,
        why: [place ? `${event.title} at ${place.name}` : event.title],
      },
    ];
  });
}

const weekdayFormats = new Map<string, Intl.DateTimeFormat>();
/** Weekday, clock ("9", "9:30") and minutes since midnight of an instant on a zone's clock. */
function clockParts(at: Date, zone: string) {
  let format = weekdayFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'long',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    weekdayFormats.set(zone, format);
  }
  const parts = format.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const hour = Number(get('hour'));
  const minute = get('minute');
  return {
    weekday: get('weekday'),
    clock: `${hour}${minute === '00' ? '' : `:${minute}`}`,
    minutes: hour * 60 + Number(minute),
  };
}

/** "You're both free Saturday 9–12" (or "Monday 17–midnight"), on the reader's clock. */
export function describeFree(interval: Interval, zone: string): string {
  const start = clockParts(interval.start, zone);
  const end = clockParts(interval.end, zone);
  const endClock =
    end.weekday === start.weekday ? end.clock : end.clock === '0' ? 'midnight' : `${end.weekday} ${end.clock}`;
  return `You're both free ${start.weekday} ${start.clock}–${endClock}`;
}

/** No option starts before this hour on the reader's clock where the free block leaves room later. */
const EARLIEST_START_HOUR = 9;

/**
 * Where a free block's option starts: at its start, or at EARLIEST_START_HOUR that morning
 * where the block begins earlier ("free Sunday 6–12" is offered at 9, not 6) and still holds
 * the option from then.
 */
export function sensibleStart(interval: Interval, zone: string): Date {
  const { minutes } = clockParts(interval.start, zone);
  if (minutes >= EARLIEST_START_HOUR * 60) return interval.start;
  const later = new Date(interval.start.getTime() + (EARLIEST_START_HOUR * 60 - minutes) * 60_000);
  return later.getTime() + OPTION_MS <= interval.end.getTime() ? later : interval.start;
}

const isWeekend = (at: Date, zone: string) => ['Saturday', 'Sunday'].includes(clockParts(at, zone).weekday);

export async function planOptions(
  db: Database,
  {
    viewerId,
    slugOrId,
    query,
    now = new Date(),
    reads = db,
  }: {
    viewerId: string;
    slugOrId: string;
    query: { activity?: string; days?: number };
    now?: Date;
    /** A replica for the other person and the events (db/replicas.ts); the caller and buddies from `db`. */
    reads?: Database;
  },
): Promise<{ options: PlanOption[]; none_because: string | null }> {
  const other = await getActiveUserOrThrow(db, reads, slugOrId, viewerId).catch((error: unknown) => {
    if (error instanceof ApiError) return null; // Not found reads the same as not a buddy.
    throw error;
  });
  if (!other || other.id === viewerId || !(await areOpenBuddies(db, viewerId, other.id))) throw notFound(slugOrId);
  const caller = await getUserOrThrow(db, viewerId);
  const days = query.days ?? PLAN_LIMITS.optionsDaysDefault;
  const from = new Date(now.getTime() + LEAD_MS);
  const to = new Date(now.getTime() + days * DAY_MS);
  const [mine, theirs] = zonedPair(caller, other);
  const intervals = sharedIntervals(mine, theirs, from, to);
  const zone = caller.timezone;
  const show = (at: Date) => isoInstant(at, zone);
  if (intervals.length === 0) {
    const unset = !caller.schedule?.includes('1') ? 'your' : !other.schedule?.includes('1') ? 'their' : null;
    return {
      options: [],
      none_because: unset
        ? `No shared free time: ${unset} availability is not set`
        : `No shared free time in the next ${days} days`,
    };
  }

  const activities = chooseActivities(query.activity, caller, other);
  const events = await eventCandidates(reads, caller, other, activities.ids, intervals, from, to);
  // Free blocks: longer first on weekends, then weekdays; earlier first among equals.
  const zoneForDays = zone ?? mine.timezone;
  const blocks = [...intervals].sort(
    (x, y) =>
      Number(isWeekend(y.start, zoneForDays)) - Number(isWeekend(x.start, zoneForDays)) ||
      y.end.getTime() - y.start.getTime() - (x.end.getTime() - x.start.getTime()) ||
      x.start.getTime() - y.start.getTime(),
  );
  const freeOptions: Candidate[] = blocks.map((interval, i) => {
    const activity = activities.names[i % activities.names.length]!;
    const start = sensibleStart(interval, zoneForDays);
    return {
      start,
      end: new Date(Math.min(start.getTime() + OPTION_MS, interval.end.getTime())),
      activity,
      place: null,
      eventId: null,
      why: [
        describeFree(interval, zoneForDays),
        ...(activities.shared ? [`You both like ${activity.toLowerCase()}`] : []),
      ],
    };
  });
  // Chosen by rank (events, then weekend and longer blocks), shown in date order (a stable
  // sort: an event before a free block at the same time).
  const chosen = [...events, ...freeOptions].slice(0, PLAN_LIMITS.options);
  chosen.sort((x, y) => x.start.getTime() - y.start.getTime());
  const options = chosen.map((c) => ({
    starts_at: show(c.start),
    ends_at: show(c.end),
    activity: c.activity,
    place: c.place,
    event_id: c.eventId,
    why: c.why,
  }));
  return { options, none_because: null };
}
