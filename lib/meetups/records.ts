// Meetup rows as the API shows them to one viewer: one query shape (the meetup, its host's first
// name and photo, the viewer's own place in it) and one mapping function. What a viewer sees
// depends on their place: the exact address and the people only to the host and the confirmed
// (the host also sees who waits); everyone else gets the place's name and area and the counts.
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '@/db';
import type { AttendeeStatus, MeetupRow } from '@/db/types';
import { reachableBirthdaysSql } from '../ages/worlds';
import { MEETUP_LIMITS, type MeetupRecord } from '../contract/meetups';
import { ApiError } from '../core/errors';
import { firstName, siteUrl } from '../profiles/records';
import { isoInstant } from './time';

/** Attendee statuses that hold a place in the meetup (a seat, an offer, the queue or a request). */
export const ACTIVE_STATUSES: readonly AttendeeStatus[] = ['pending', 'waitlisted', 'offered', 'confirmed'];

export const meetupNotFound = () =>
  new ApiError('not_found', 'Meetup not found', {
    hint: 'Find meetups with GET /api/v1/meetups.json (view=mine for yours).',
  });

const HOUR_MS = 3_600_000;

/** What the visibility of a meetup depends on in its viewer. */
export interface MeetupViewer {
  id: string;
  birthday: string | null;
  /** One of the review account's people (REVIEW_ACCOUNT): they see only their own sandbox's meetups. */
  review_sandbox: boolean;
}

/**
 * Who may see a meetup they hold no place in: not when either has blocked the host (or the host's
 * account is closed), only when the host is on the viewer's side of the review sandbox
 * (lib/review; its meetups have its people only), and only when the host and everyone holding a
 * place in it are people the viewer may meet by age (lib/ages/worlds.ts). Anyone else gets the 404
 * a meetup that does not exist gets, so nothing reveals a block, the sandbox or the other world.
 */
export function openToViewer(viewer: MeetupViewer, meetupAlias = 'm', today: Date = new Date()): Expression<SqlBool> {
  const host = sql.ref(`${meetupAlias}.host_id`);
  const id = sql.ref(`${meetupAlias}.id`);
  return sql<SqlBool>`(
    not exists (select 1 from blocks b where (b.blocker_id = ${viewer.id} and b.blocked_id = ${host})
      or (b.blocker_id = ${host} and b.blocked_id = ${viewer.id}))
    and exists (select 1 from users h where h.id = ${host} and h.disabled_at is null
      and h.review_sandbox = ${viewer.review_sandbox}
      and ${reachableBirthdaysSql(viewer.birthday, 'h.birthday', today)})
    and not exists (select 1 from meetup_attendees pa join users pu on pu.id = pa.user_id
      where pa.meetup_id = ${id} and pa.status in ('pending', 'waitlisted', 'offered', 'confirmed')
        and not ${reachableBirthdaysSql(viewer.birthday, 'pu.birthday', today)}))`;
}

/**
 * The viewer's own meetups (hosting, or holding a place) and those open to them; never one whose
 * host's account is closed (it vanishes for everyone, as its plans do). For meetupRows (`m`, `me`, `h`).
 */
export function visibleTo(viewer: MeetupViewer, today: Date = new Date()) {
  return sql<SqlBool>`(h.disabled_at is null and (m.host_id = ${viewer.id}
    or me.status in ('pending', 'waitlisted', 'offered', 'confirmed') or ${openToViewer(viewer, 'm', today)}))`;
}

/**
 * Whether `user` (an id, or a reference such as sql.ref('s.user_id')) holds a seat in the meetup
 * `meetupAlias`: its host, or confirmed. Those are who may share it (./share.ts).
 */
export function holdsSeat(meetupAlias: string, user: string | RawBuilder<string>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${meetupAlias}.host_id`)} = ${user} or exists (select 1 from meetup_attendees sa
    where sa.meetup_id = ${sql.ref(`${meetupAlias}.id`)} and sa.user_id = ${user} and sa.status = 'confirmed'))`;
}

/** Meetups with everything toMeetup needs for this viewer; `me` is the viewer's attendee row, if any. */
export function meetupRows(db: Database, viewerId: string) {
  return db
    .selectFrom('meetups as m')
    .innerJoin('users as h', 'h.id', 'm.host_id')
    .innerJoin('users as vu', (join) => join.on(sql<boolean>`vu.id = ${viewerId}`))
    .leftJoin('meetup_attendees as me', (join) =>
      join.onRef('me.meetup_id', '=', 'm.id').on('me.user_id', '=', viewerId),
    )
    .leftJoin('chats as c', 'c.meetup_id', 'm.id')
    .selectAll('m')
    .select([
      'h.display_name as host_name',
      'h.photo_url as host_photo_url',
      'vu.timezone as viewer_timezone',
      'me.status as my_status',
      'me.offer_expires_at as my_offer_expires_at',
      'me.attended as my_attended',
      'c.id as chat_id',
      sql<number | null>`case when me.status = 'waitlisted' then (select count(*)::int + 1 from meetup_attendees w
        where w.meetup_id = m.id and w.status = 'waitlisted' and w.position < me.position) end`.as('my_position'),
    ]);
}

export type MeetupQueryRow = MeetupRow & {
  host_name: string;
  host_photo_url: string | null;
  viewer_timezone: string | null;
  my_status: AttendeeStatus | null;
  my_offer_expires_at: Date | null;
  my_attended: boolean | null;
  chat_id: string | null;
  my_position: number | null;
};

export interface MeetupPerson {
  meetup_id: string;
  id: string;
  display_name: string;
  photo_url: string | null;
  status: 'confirmed' | 'offered' | 'waitlisted' | 'pending';
}

export type Role = MeetupRecord['me']['role'];

export function roleOf(row: Pick<MeetupQueryRow, 'host_id' | 'my_status'>, viewerId: string): Role {
  if (row.host_id === viewerId) return 'host';
  return row.my_status ?? 'none';
}

export function seatsLeft(row: Pick<MeetupRow, 'capacity' | 'confirmed_count' | 'offered_count'>): number {
  return row.capacity - 1 - row.confirmed_count - row.offered_count;
}

export function meetupStatus(row: Pick<MeetupRow, 'status' | 'starts_at' | 'ends_at'>, now: Date) {
  if (row.status === 'cancelled') return 'cancelled' as const;
  if (new Date(row.ends_at).getTime() <= now.getTime()) return 'over' as const;
  if (new Date(row.starts_at).getTime() <= now.getTime()) return 'under_way' as const;
  return 'upcoming' as const;
}

/** Whether a seat freed now is offered (held for a while) rather than given: close to the start. */
export function offersSeats(row: Pick<MeetupRow, 'starts_at'>, now: Date): boolean {
  return new Date(row.starts_at).getTime() - now.getTime() <= MEETUP_LIMITS.offerWithinHours * HOUR_MS;
}

/**
 * The people a viewer may see in each of `rows`: to the host everyone holding a place, to the
 * confirmed the other confirmed; first names and photos only, and never someone the viewer
 * blocked (their own choice, so it reveals nothing to anyone) or whose account is closed.
 */
export async function peopleOf(
  db: Database,
  viewerId: string,
  rows: readonly Pick<MeetupQueryRow, 'id' | 'host_id' | 'my_status'>[],
): Promise<Map<string, MeetupPerson[]>> {
  const hosting = rows.filter((r) => r.host_id === viewerId).map((r) => r.id);
  const confirmed = rows.filter((r) => r.host_id !== viewerId && r.my_status === 'confirmed').map((r) => r.id);
  const byMeetup = new Map<string, MeetupPerson[]>();
  if (hosting.length === 0 && confirmed.length === 0) return byMeetup;
  const people = await db
    .selectFrom('meetup_attendees as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.meetup_id', 'u.id', 'u.display_name', 'u.photo_url', 'a.status'])
    .where((eb) =>
      eb.or([
        ...(hosting.length > 0
          ? [eb.and([eb('a.meetup_id', 'in', hosting), eb('a.status', 'in', ACTIVE_STATUSES)])]
          : []),
        ...(confirmed.length > 0
          ? [eb.and([eb('a.meetup_id', 'in', confirmed), eb('a.status', '=', 'confirmed')])]
          : []),
      ]),
    )
    .where('u.disabled_at', 'is', null)
    .where(sql<SqlBool>`not exists (select 1 from blocks b where b.blocker_id = ${viewerId} and b.blocked_id = u.id)`)
    .orderBy('a.meetup_id')
    .orderBy(sql`case a.status when 'confirmed' then 0 when 'offered' then 1 when 'waitlisted' then 2 else 3 end`)
    .orderBy('a.position')
    .execute();
  for (const person of people) {
    const list = byMeetup.get(person.meetup_id) ?? [];
    list.push(person as MeetupPerson);
    byMeetup.set(person.meetup_id, list);
  }
  return byMeetup;
}

export function toMeetup(
  row: MeetupQueryRow,
  viewerId: string,
  people: readonly MeetupPerson[],
  baseUrl: string,
  now = new Date(),
): MeetupRecord {
  const role = roleOf(row, viewerId);
  const inside = role === 'host' || role === 'confirmed';
  const inZone = (at: Date | string) => isoInstant(new Date(at), row.viewer_timezone);
  return {
    id: row.id,
    series_id: row.series_id,
    activity: row.activity,
    starts_at: inZone(row.starts_at),
    ends_at: inZone(row.ends_at),
    place: { name: row.place_name, area: row.area, address: inside ? row.place_address : null },
    note: row.note,
    capacity: row.capacity,
    join: row.join_policy,
    status: meetupStatus(row, now),
    seats_left: Math.max(0, seatsLeft(row)),
    waitlist: row.waitlist_count,
    host: { id: row.host_id, first_name: firstName(row.host_name), photoURL: siteUrl(row.host_photo_url, baseUrl) },
    people: inside
      ? people.map((p) => ({
          id: p.id,
          first_name: firstName(p.display_name),
          photoURL: siteUrl(p.photo_url, baseUrl),
          status: p.status,
        }))
      : [],
    me: {
      role,
      waitlist_position: row.my_position,
      offer_expires_at: role === 'offered' && row.my_offer_expires_at ? inZone(row.my_offer_expires_at) : null,
      attended: row.my_attended,
    },
    chatId: inside ? row.chat_id : null,
    cancel_reason: row.status === 'cancelled' ? row.cancel_reason : null,
  };
}

/** Maps a page of rows with their people in one more query. */
export async function toMeetups(
  db: Database,
  rows: readonly MeetupQueryRow[],
  viewerId: string,
  baseUrl: string,
  now = new Date(),
): Promise<MeetupRecord[]> {
  const people = await peopleOf(db, viewerId, rows);
  return rows.map((row) => toMeetup(row, viewerId, people.get(row.id) ?? [], baseUrl, now));
}
