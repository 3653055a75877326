// A meetup's life (issue 45): host (one, or a weekly series), join and leave, approve and decline,
// cancel (one occurrence or the rest of a series), attendance after the end. Every change of seats
// runs under the meetup's row lock (./seats.ts); inbox versions are bumped by triggers (0036) and
// pushes, mails and offer expiries are queued in the same transaction.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { MeetupRow } from '@/db/types';
import { type Attribution, recordAgentAction } from '../attribution/attribution';
import { formatInstant } from '../availability/zoned';
import { createGroupChat } from '../chats/chats';
import { MEETUP_LIMITS, type CancelMeetupBody, type HostMeetupBody, type MeetupRecord } from '../contract/meetups';
import { isUuid } from '../contract/validation';
import { ApiError } from '../core/errors';
import { cellOf } from '../discover/cells';
import type { LimitRule } from '../limits/rules';
import { refuseWhileAwaitingConsent } from '../profiles/consent';
import {
  ACTIVE_STATUSES,
  type MeetupViewer,
  meetupNotFound,
  meetupRows,
  meetupStatus,
  seatsLeft,
  toMeetups,
  visibleTo,
} from './records';
import { dropMeetupReminders, scheduleMeetupReminders } from './reminders';
import { adjustCounts, lockMeetup, nextPosition, seated, tell, vacate } from './seats';
import { instantOn, readTimes, timeProblems } from './time';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

export interface Viewer extends MeetupViewer {
  timezone: string | null;
}

export async function loadViewer(db: Database, viewerId: string): Promise<Viewer> {
  const row = await db
    .selectFrom('users')
    .select(['id', 'birthday', 'timezone', 'review_sandbox'])
    .where('id', '=', viewerId)
    .executeTakeFirst();
  if (!row) throw meetupNotFound();
  return row;
}

// ---------------------------------------------------------------------------
// Reading

/** One meetup as the viewer sees it, or undefined when it is not visible to them (./records.ts visibleTo). */
export async function readMeetup(
  db: Database,
  viewer: Viewer,
  meetupId: string,
  baseUrl: string,
  now = new Date(),
): Promise<MeetupRecord | undefined> {
  if (!isUuid(meetupId)) return undefined;
  const row = await meetupRows(db, viewer.id)
    .where('m.id', '=', meetupId)
    .where(visibleTo(viewer, now))
    .executeTakeFirst();
  if (!row) return undefined;
  const [record] = await toMeetups(db, [row], viewer.id, baseUrl, now);
  return record;
}

async function readMeetupOrThrow(db: Database, viewer: Viewer, meetupId: string, baseUrl: string, now = new Date()) {
  const meetup = await readMeetup(db, viewer, meetupId, baseUrl, now);
  if (!meetup) throw meetupNotFound();
  return meetup;
}

export async function getMeetup(
  db: Database,
  { viewerId, meetupId, baseUrl }: { viewerId: string; meetupId: string; baseUrl: string },
) {
  const viewer = await loadViewer(db, viewerId);
  return { meetup: await readMeetupOrThrow(db, viewer, meetupId, baseUrl) };
}

/** Locks a meetup the viewer may see; 404 otherwise (the same as a meetup that does not exist). */
async function lockVisible(trx: Database, viewer: Viewer, meetupId: string, now: Date): Promise<MeetupRow> {
  if (!isUuid(meetupId)) throw meetupNotFound();
  const meetup = await lockMeetup(trx, meetupId);
  if (!meetup) throw meetupNotFound();
  const visible = await meetupRows(trx, viewer.id)
    .where('m.id', '=', meetupId)
    .where(visibleTo(viewer, now))
    .select(sql<number>`1`.as('seen'))
    .executeTakeFirst();
  if (!visible) throw meetupNotFound();
  return meetup;
}

function notOpen(meetup: MeetupRow, now: Date, what: string): ApiError {
  const status = meetupStatus(meetup, now);
  return new ApiError('meetup_not_open', `This meetup is ${status.replace('_', ' ')}, so you cannot ${what} it`, {
    hint: 'Read the meetup again (GET it) and tell the person; find another with GET /api/v1/meetups.json.',
  });
}

const isOpen = (meetup: MeetupRow, now: Date) => meetupStatus(meetup, now) === 'upcoming';

function hostOnly(meetup: MeetupRow, viewerId: string, what: string): void {
  if (meetup.host_id !== viewerId)
    throw new ApiError('forbidden', `Only the host can ${what}`, { hint: 'Your own place: join.json or leave.json.' });
}

/**
 * Hosting or joining shows the person's first name and photo to others, so a profile still awaiting
 * its person's yes (REQUIRE_PERSON_CONSENT, lib/profiles/consent.ts) does neither (403).
 */
async function refuseWhileUnseen(db: Database, userId: string): Promise<void> {
  await refuseWhileAwaitingConsent(db, userId, 'host or join meetups');
}

// ---------------------------------------------------------------------------
// Hosting

/**
 * The occurrences' times: the first as given, the next ones a week apart on the host's clock; and
 * the notes on how the given times were read, for warnings.normalized.
 */
export function occurrences(
  body: Pick<HostMeetupBody, 'starts_at' | 'ends_at' | 'repeat_weekly'>,
  zone: string | null,
  now: Date,
) {
  const { startsAt, notes, ...read } = readTimes(body, zone, now);
  const endsAt = read.endsAt ?? new Date(startsAt.getTime() + MEETUP_LIMITS.defaultDurationHours * HOUR_MS);
  const fields = timeProblems(startsAt, endsAt, now, MEETUP_LIMITS);
  if (Object.keys(fields).length > 0) {
    throw new ApiError('validation_failed', 'The meetup’s times are not possible', {
      hint: 'Give a start in the future, e.g. 2026-06-04T19:00 (your clock) or with an offset.',
      fields,
    });
  }
  const duration = endsAt.getTime() - startsAt.getTime();
  // The same wall-clock time each week, across a daylight-saving change.
  const local = zone ? formatInstant(startsAt, zone).slice(0, 19) : startsAt.toISOString().slice(0, 19);
  const times = Array.from({ length: body.repeat_weekly ?? 1 }, (_, week) => {
    const start =
      week === 0
        ? startsAt
        : instantOn(new Date(Date.parse(`${local}Z`) + week * WEEK_MS).toISOString().slice(0, 19), zone);
    return { startsAt: start, endsAt: new Date(start.getTime() + duration) };
  });
  return { times, notes };
}

export async function hostMeetup(
  db: Database,
  {
    viewerId,
    body,
    by,
    baseUrl,
    limit,
    now = new Date(),
  }: { viewerId: string; body: HostMeetupBody; by: Attribution; baseUrl: string; limit: LimitRule; now?: Date },
) {
  const host = await db
    .selectFrom('users')
    .select(['id', 'birthday', 'timezone', 'review_sandbox', 'public_latitude', 'public_longitude', 'public_location'])
    .where('id', '=', viewerId)
    .executeTakeFirstOrThrow();
  if (host.public_latitude === null || host.public_longitude === null) {
    throw new ApiError('onboarding_incomplete', 'Set where you are before hosting: nearby people find meetups by it', {
      hint: 'PATCH /api/v1/me.json with location (a city) or coords, then host again.',
      fields: { location: 'required: a city or coords' },
    });
  }
  await refuseWhileUnseen(db, viewerId);
  const { times, notes } = occurrences(body, host.timezone, now);
  const ids = await db.transaction().execute(async (trx) => {
    // One host's hosting runs one at a time, so the count below holds under concurrency.
    await sql`select pg_advisory_xact_lock(hashtextextended(${`meetups-hosted:${viewerId}`}, 0))`.execute(trx);
    const open = await trx
      .selectFrom('meetups')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('ends_at').as('first_end')])
      .where('host_id', '=', viewerId)
      .where('status', '=', 'open')
      .where('ends_at', '>', now)
      .executeTakeFirstOrThrow();
    if (Number(open.n) + times.length > limit.points) {
      const firstEnd = open.first_end ? new Date(open.first_end).getTime() : now.getTime() + HOUR_MS;
      throw new ApiError(
        'rate_limited',
        `You host ${open.n} meetups that have not ended; at most ${limit.points} at once`,
        {
          hint: 'Wait until one ends, cancel one, or host a shorter series.',
          retryAfterSeconds: Math.max(1, Math.ceil((firstEnd - now.getTime()) / 1000)),
        },
      );
    }
    const seriesId = times.length > 1 ? randomUUID() : null;
    const cell = cellOf(host.public_latitude!, host.public_longitude!);
    const made: string[] = [];
    for (const { startsAt, endsAt } of times) {
      const row = await trx
        .insertInto('meetups')
        .values({
          host_id: viewerId,
          series_id: seriesId,
          activity: body.activity,
          starts_at: startsAt,
          ends_at: endsAt,
          place_name: body.place.name,
          place_address: body.place.address || null,
          area: host.public_location,
          public_latitude: host.public_latitude!,
          public_longitude: host.public_longitude!,
          cell,
          capacity: body.capacity,
          join_policy: body.join ?? 'open',
          note: body.note || null,
          agent_name: by.agentName ?? null,
          agent_session_id: by.agentSessionId ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await createGroupChat(trx, row.id, viewerId);
      await scheduleMeetupReminders(trx, { meetupId: row.id, userId: viewerId, startsAt, now });
      made.push(row.id);
    }
    await recordAgentAction(trx, viewerId, 'host_meetup', by);
    return made;
  });
  const viewer = { id: host.id, birthday: host.birthday, timezone: host.timezone, review_sandbox: host.review_sandbox };
  const meetup = await readMeetupOrThrow(db, viewer, ids[0]!, baseUrl, now);
  const series = await db
    .selectFrom('meetups')
    .select(['id', 'starts_at'])
    .where('id', 'in', ids)
    .orderBy('starts_at')
    .execute();
  return {
    success: true as const,
    meetup,
    series: series.map((row) => ({
      id: row.id,
      starts_at: host.timezone
        ? formatInstant(new Date(row.starts_at), host.timezone)
        : new Date(row.starts_at).toISOString(),
    })),
    ...(notes.length > 0 ? { warnings: { normalized: notes } } : {}),
  };
}

// ---------------------------------------------------------------------------
// A person's place

interface Act {
  viewerId: string;
  meetupId: string;
  by: Attribution;
  baseUrl: string;
  now?: Date;
}

async function attendeeOf(trx: Database, meetupId: string, userId: string) {
  return trx
    .selectFrom('meetup_attendees')
    .selectAll()
    .where('meetup_id', '=', meetupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function joinMeetup(db: Database, { viewerId, meetupId, by, baseUrl, now = new Date() }: Act) {
  const viewer = await loadViewer(db, viewerId);
  await refuseWhileUnseen(db, viewerId);
  await db.transaction().execute(async (trx) => {
    let meetup = await lockVisible(trx, viewer, meetupId, now);
    if (meetup.host_id === viewerId)
      throw new ApiError('forbidden', 'You host this meetup', { hint: 'Your seat is yours already.' });
    if (!isOpen(meetup, now)) throw notOpen(meetup, now, 'join');
    let mine = await attendeeOf(trx, meetup.id, viewerId);
    if (mine?.status === 'offered' && mine.offer_expires_at && new Date(mine.offer_expires_at) <= now) {
      // The hold ran out before its job passed it on: it passes now, and this is a new join.
      meetup = await vacate(trx, meetup, { userId: viewerId, from: 'offered', to: 'missed', now });
      mine = await attendeeOf(trx, meetup.id, viewerId);
    }
    if (mine && ['confirmed', 'waitlisted', 'pending'].includes(mine.status)) return; // Joined already: the same place.
    if (mine?.status === 'declined')
      throw new ApiError('forbidden', 'The host did not approve your request to join', {
        hint: 'Find another meetup with GET /api/v1/meetups.json.',
      });
    if (mine?.status === 'offered') {
      // Taking the seat held for them.
      await trx
        .updateTable('meetup_attendees')
        .set({ status: 'confirmed', offer_expires_at: null, updated_at: now, agent_name: by.agentName ?? null })
        .where('meetup_id', '=', meetup.id)
        .where('user_id', '=', viewerId)
        .execute();
      const row = await adjustCounts(trx, meetup.id, { offered: -1, confirmed: 1 }, now);
      await seated(trx, row, viewerId, now);
      await recordAgentAction(trx, viewerId, 'join_meetup', by);
      return;
    }
    const position = await nextPosition(trx, meetup.id);
    const status =
      meetup.join_policy === 'approval'
        ? 'pending'
        : seatsLeft(meetup) > 0 && meetup.waitlist_count === 0
          ? 'confirmed'
          : 'waitlisted';
    const values = {
      status,
      position,
      offer_expires_at: null,
      seat_given_at: null,
      attended: null,
      marked_at: null,
      agent_name: by.agentName ?? null,
      agent_session_id: by.agentSessionId ?? null,
      joined_at: now,
      updated_at: now,
    } as const;
    await trx
      .insertInto('meetup_attendees')
      .values({ meetup_id: meetup.id, user_id: viewerId, ...values })
      .onConflict((oc) => oc.columns(['meetup_id', 'user_id']).doUpdateSet(values))
      .execute();
    if (status === 'confirmed') {
      const row = await adjustCounts(trx, meetup.id, { confirmed: 1 }, now);
      await seated(trx, row, viewerId, now);
    } else if (status === 'waitlisted') {
      await adjustCounts(trx, meetup.id, { waitlist: 1 }, now);
    } else {
      await tell(trx, { recipientId: meetup.host_id, meetupId: meetup.id, actorId: viewerId, event: 'join_request' });
    }
    await recordAgentAction(trx, viewerId, 'join_meetup', by);
  });
  return { success: true as const, meetup: await readMeetupOrThrow(db, viewer, meetupId, baseUrl, now) };
}

export async function leaveMeetup(db: Database, { viewerId, meetupId, by, baseUrl, now = new Date() }: Act) {
  const viewer = await loadViewer(db, viewerId);
  await db.transaction().execute(async (trx) => {
    const meetup = await lockVisible(trx, viewer, meetupId, now);
    if (meetup.host_id === viewerId)
      throw new ApiError('forbidden', 'You host this meetup: cancel it instead', { hint: 'POST …/cancel.json.' });
    const mine = await attendeeOf(trx, meetup.id, viewerId);
    if (!mine || !ACTIVE_STATUSES.includes(mine.status)) return; // Nothing to leave: the meetup as it is.
    if (!isOpen(meetup, now)) throw notOpen(meetup, now, 'leave');
    await vacate(trx, meetup, { userId: viewerId, from: mine.status, to: 'left', now });
    await recordAgentAction(trx, viewerId, 'leave_meetup', by);
  });
  return { success: true as const, meetup: await readMeetupOrThrow(db, viewer, meetupId, baseUrl, now) };
}

// ---------------------------------------------------------------------------
// The host's acts

/** Cancels one locked meetup: everyone holding a place is told; reminders stop; calendars get STATUS:CANCELLED. */
export async function cancelOne(trx: Database, meetup: MeetupRow, reason: string | null, now: Date): Promise<void> {
  await trx
    .updateTable('meetups')
    .set((eb) => ({
      status: 'cancelled',
      cancel_reason: reason,
      cancelled_at: now,
      updated_at: now,
      calendar_sequence: eb('calendar_sequence', '+', 1),
    }))
    .where('id', '=', meetup.id)
    .execute();
  await dropMeetupReminders(trx, meetup.id);
  const people = await trx
    .selectFrom('meetup_attendees')
    .select('user_id')
    .where('meetup_id', '=', meetup.id)
    .where('status', 'in', ACTIVE_STATUSES)
    .execute();
  for (const person of people)
    await tell(trx, { recipientId: person.user_id, meetupId: meetup.id, actorId: meetup.host_id, event: 'cancelled' });
}

export async function cancelMeetup(
  db: Database,
  { viewerId, meetupId, body, by, baseUrl, now = new Date() }: Act & { body: CancelMeetupBody },
) {
  const viewer = await loadViewer(db, viewerId);
  await db.transaction().execute(async (trx) => {
    const meetup = await lockVisible(trx, viewer, meetupId, now);
    hostOnly(meetup, viewerId, 'cancel a meetup');
    const reason = body.reason || null;
    if (meetup.status !== 'cancelled') {
      if (!isOpen(meetup, now)) throw notOpen(meetup, now, 'cancel');
      await cancelOne(trx, meetup, reason, now);
    }
    if (body.series && meetup.series_id) {
      // The later occurrences, locked in start order (as every writer of several meetups locks them).
      const later = await trx
        .selectFrom('meetups')
        .selectAll()
        .where('series_id', '=', meetup.series_id)
        .where('host_id', '=', viewerId)
        .where('starts_at', '>', meetup.starts_at)
        .where('status', '=', 'open')
        .orderBy('starts_at')
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
      for (const next of later) await cancelOne(trx, next, reason, now);
    }
    await recordAgentAction(trx, viewerId, 'cancel_meetup', by);
  });
  return { success: true as const, meetup: await readMeetupOrThrow(db, viewer, meetupId, baseUrl, now) };
}

async function pendingJoin(trx: Database, meetup: MeetupRow, userId: string) {
  const person = isUuid(userId) ? await attendeeOf(trx, meetup.id, userId) : undefined;
  if (!person || person.status === 'left' || person.status === 'missed' || person.status === 'removed')
    throw new ApiError('not_found', 'No one by that id asked to join this meetup', {
      hint: 'user_id is an id from meetup.people (status pending), or from your inbox.',
      fields: { user_id: 'no pending join' },
    });
  return person;
}

export async function answerJoin(
  db: Database,
  {
    viewerId,
    meetupId,
    userId,
    answer,
    by,
    baseUrl,
    now = new Date(),
  }: Act & { userId: string; answer: 'approve' | 'decline' },
) {
  const viewer = await loadViewer(db, viewerId);
  await db.transaction().execute(async (trx) => {
    const meetup = await lockVisible(trx, viewer, meetupId, now);
    hostOnly(meetup, viewerId, `${answer} a join`);
    const person = await pendingJoin(trx, meetup, userId);
    const done = answer === 'approve' ? ['confirmed', 'waitlisted', 'offered'] : ['declined'];
    if (done.includes(person.status)) return; // Answered the same way already.
    if (person.status !== 'pending')
      throw new ApiError('conflict', `This person is ${person.status} already`, { hint: 'Read the meetup again.' });
    if (!isOpen(meetup, now))
      throw notOpen(meetup, now, answer === 'approve' ? 'approve joins to' : 'decline joins to');
    if (answer === 'decline') {
      await vacate(trx, meetup, { userId, from: 'pending', to: 'declined', now });
      await tell(trx, { recipientId: userId, meetupId: meetup.id, actorId: viewerId, event: 'declined' });
    } else {
      // Approved: a seat while one is free, else the end of the waitlist (in the order of approval).
      const seat = seatsLeft(meetup) > 0 && meetup.waitlist_count === 0;
      const position = await nextPosition(trx, meetup.id);
      await trx
        .updateTable('meetup_attendees')
        .set({ status: seat ? 'confirmed' : 'waitlisted', position, updated_at: now })
        .where('meetup_id', '=', meetup.id)
        .where('user_id', '=', userId)
        .execute();
      const row = await adjustCounts(trx, meetup.id, seat ? { confirmed: 1 } : { waitlist: 1 }, now);
      if (seat) await seated(trx, row, userId, now);
      await tell(trx, { recipientId: userId, meetupId: meetup.id, actorId: viewerId, event: 'approved' });
    }
    await recordAgentAction(trx, viewerId, `${answer}_meetup_join`, by);
  });
  return { success: true as const, meetup: await readMeetupOrThrow(db, viewer, meetupId, baseUrl, now) };
}

/** After the end, the host says who did not come (everyone else confirmed came); marks may be changed. */
export async function markAttendance(
  db: Database,
  { viewerId, meetupId, noShow, by, baseUrl, now = new Date() }: Act & { noShow: readonly string[] },
) {
  const viewer = await loadViewer(db, viewerId);
  await db.transaction().execute(async (trx) => {
    const meetup = await lockVisible(trx, viewer, meetupId, now);
    hostOnly(meetup, viewerId, 'take attendance');
    if (meetup.status === 'cancelled' || new Date(meetup.ends_at).getTime() > now.getTime())
      throw new ApiError('conflict', 'Attendance is taken after a meetup ends', {
        hint: 'Come back after ends_at; a cancelled meetup has none.',
      });
    const confirmed = await trx
      .selectFrom('meetup_attendees')
      .select('user_id')
      .where('meetup_id', '=', meetup.id)
      .where('status', '=', 'confirmed')
      .execute();
    const ids = new Set(confirmed.map((row) => row.user_id));
    const strangers = noShow.filter((id) => !ids.has(id));
    if (strangers.length > 0)
      throw new ApiError('validation_failed', 'no_show names someone who was not confirmed', {
        hint: 'Use ids from meetup.people (status confirmed).',
        fields: { no_show: `not confirmed: ${strangers.slice(0, 3).join(', ')}` },
      });
    for (const id of ids) {
      await trx
        .updateTable('meetup_attendees')
        .set({ attended: !noShow.includes(id), marked_at: now, updated_at: now })
        .where('meetup_id', '=', meetup.id)
        .where('user_id', '=', id)
        .execute();
    }
    await recordAgentAction(trx, viewerId, 'meetup_attendance', by);
  });
  return { success: true as const, meetup: await readMeetupOrThrow(db, viewer, meetupId, baseUrl, now) };
}

// ---------------------------------------------------------------------------
// view=mine: hosting and joined, upcoming (soonest first) then past (latest first)

const MINE_CURSOR = 'mm1';

function decodeMineCursor(cursor: string): number {
  try {
    const [version, offset] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (version === MINE_CURSOR && typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // Falls through to the refusal.
  }
  throw new ApiError('validation_failed', 'That cursor is not one this API returned.', {
    hint: 'Copy next_cursor (or next_url) as it was returned.',
    fields: { cursor: 'not a cursor this API returned' },
  });
}

export async function myMeetups(
  db: Database,
  viewer: Viewer,
  { limit, cursor }: { limit: number; cursor?: string },
  baseUrl: string,
  now = new Date(),
) {
  const offset = cursor ? decodeMineCursor(cursor) : 0;
  const rows = await meetupRows(db, viewer.id)
    .where((eb) => eb.or([eb('m.host_id', '=', viewer.id), eb('me.status', 'is not', null)]))
    .where('h.disabled_at', 'is', null)
    .orderBy(sql`case when m.ends_at > ${now} then 0 else 1 end`)
    .orderBy(sql`case when m.ends_at > ${now} then m.starts_at end`, 'asc')
    .orderBy('m.starts_at', 'desc')
    .orderBy('m.id')
    .offset(offset)
    .limit(limit + 1)
    .execute();
  const page = await toMeetups(db, rows.slice(0, limit) as never, viewer.id, baseUrl, now);
  const next =
    rows.length > limit
      ? Buffer.from(JSON.stringify([MINE_CURSOR, offset + limit]), 'utf8').toString('base64url')
      : null;
  return {
    view: 'mine' as const,
    results: page.map((meetup) => ({ meetup, fit: null })),
    next_cursor: next,
    next_url: next ? `${baseUrl}/api/v1/meetups.json?view=mine&limit=${limit}&cursor=${next}` : null,
  };
}
