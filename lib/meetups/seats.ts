// Seats and the waitlist (issue 45). Every change of a meetup's seats runs in a transaction that
// holds the meetup's row lock (lockMeetup), so parallel joins, leaves and cancels of one meetup
// run one after another, on any number of app instances, and each sees the last one's result:
//   - a join takes the next join_seq as its position, so the waitlist's order is the order of commit;
//   - a freed seat is given in the same transaction that frees it, to the first waitlisted, once;
//   - within MEETUP_LIMITS.offerWithinHours of the start it is offered instead, held for
//     offerHoldMinutes (a pg-boss job at the expiry, and the minute sweep, pass it on if not taken).
// The counts on the row are kept by these functions alone, and PostgreSQL's CHECK (0036) refuses
// more confirmed and offered than seats.
import type { Database } from '@/db';
import type { MeetupRow } from '@/db/types';
import { addGroupMember, removeGroupMember } from '../chats/chats';
import { MEETUP_LIMITS } from '../contract/meetups';
import { enqueue, QUEUES } from '../jobs/boss';
import type { MeetupEvent, PushJob } from '../notifications/push-job';
import { endShare } from '../plans/share';
import type { MeetupMailJob } from './mail';
import { offersSeats, seatsLeft } from './records';
import { dropMeetupReminders, scheduleMeetupReminders } from './reminders';

const MINUTE_MS = 60_000;

/** Locks a meetup's row (FOR NO KEY UPDATE: attendee rows' foreign-key checks do not wait on it). */
export async function lockMeetup(trx: Database, meetupId: string): Promise<MeetupRow | undefined> {
  return trx.selectFrom('meetups').selectAll().where('id', '=', meetupId).forNoKeyUpdate().executeTakeFirst();
}

/** Moves the counts by the given amounts; returns the row as it now is. */
export async function adjustCounts(
  trx: Database,
  meetupId: string,
  by: { confirmed?: number; offered?: number; waitlist?: number },
  now: Date,
): Promise<MeetupRow> {
  return trx
    .updateTable('meetups')
    .set((eb) => ({
      confirmed_count: eb('confirmed_count', '+', by.confirmed ?? 0),
      offered_count: eb('offered_count', '+', by.offered ?? 0),
      waitlist_count: eb('waitlist_count', '+', by.waitlist ?? 0),
      updated_at: now,
    }))
    .where('id', '=', meetupId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The next place in the queue: the meetup's join_seq, taken under its lock. */
export async function nextPosition(trx: Database, meetupId: string): Promise<number> {
  const row = await trx
    .updateTable('meetups')
    .set((eb) => ({ join_seq: eb('join_seq', '+', 1) }))
    .where('id', '=', meetupId)
    .returning('join_seq')
    .executeTakeFirstOrThrow();
  return Number(row.join_seq);
}

/** Tells a person what happened, by push (and by mail for a seat given or offered); queued in the transaction. */
export async function tell(
  trx: Database,
  {
    recipientId,
    meetupId,
    actorId,
    event,
  }: { recipientId: string; meetupId: string; actorId: string; event: MeetupEvent },
): Promise<void> {
  const push: PushJob = { kind: 'meetup', recipientId, meetupId, actorId, event };
  await enqueue(trx, QUEUES.push, push);
  if (event === 'promoted' || event === 'offered') {
    const mail: MeetupMailJob = { userId: recipientId, meetupId, event };
    await enqueue(trx, QUEUES.meetupMail, mail);
  }
}

async function chatOf(trx: Database, meetupId: string): Promise<string | undefined> {
  const chat = await trx.selectFrom('chats').select('id').where('meetup_id', '=', meetupId).executeTakeFirst();
  return chat?.id;
}

/** A person now holds a seat: into the group chat, and their reminders. */
export async function seated(trx: Database, meetup: MeetupRow, userId: string, now: Date): Promise<void> {
  const chatId = await chatOf(trx, meetup.id);
  if (chatId) await addGroupMember(trx, chatId, userId);
  await scheduleMeetupReminders(trx, { meetupId: meetup.id, userId, startsAt: new Date(meetup.starts_at), now });
}

/**
 * A person no longer holds a seat: out of the group chat, no more reminders, and their share of
 * it ends (its links answer 410, check-in stops), so joining again never brings an old link back.
 */
export async function unseated(trx: Database, meetupId: string, userId: string): Promise<void> {
  const chatId = await chatOf(trx, meetupId);
  if (chatId) await removeGroupMember(trx, chatId, userId);
  await dropMeetupReminders(trx, meetupId, userId);
  await endShare(trx, { kind: 'meetup', id: meetupId, userId });
}

/**
 * Gives every free seat to the waitlist, first come first: a seat (confirmed, told) while the
 * start is far, an offer held for a while when it is near. Call under the meetup's lock after
 * anything that frees a seat; returns the row as it then is.
 */
export async function fillFreedSeats(trx: Database, meetup: MeetupRow, now: Date): Promise<MeetupRow> {
  let row = meetup;
  const startsAt = new Date(row.starts_at).getTime();
  if (row.status !== 'open' || startsAt <= now.getTime()) return row;
  while (seatsLeft(row) > 0 && row.waitlist_count > 0) {
    const next = await trx
      .selectFrom('meetup_attendees')
      .select('user_id')
      .where('meetup_id', '=', row.id)
      .where('status', '=', 'waitlisted')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    if (!next) break;
    if (offersSeats(row, now)) {
      const expires = new Date(Math.min(now.getTime() + MEETUP_LIMITS.offerHoldMinutes * MINUTE_MS, startsAt));
      await trx
        .updateTable('meetup_attendees')
        .set({ status: 'offered', offer_expires_at: expires, seat_given_at: now, updated_at: now })
        .where('meetup_id', '=', row.id)
        .where('user_id', '=', next.user_id)
        .execute();
      row = await adjustCounts(trx, row.id, { offered: 1, waitlist: -1 }, now);
      await enqueue(trx, QUEUES.meetupOfferExpiry, { meetupId: row.id, userId: next.user_id }, { startAfter: expires });
      await tell(trx, { recipientId: next.user_id, meetupId: row.id, actorId: row.host_id, event: 'offered' });
    } else {
      await trx
        .updateTable('meetup_attendees')
        .set({ status: 'confirmed', seat_given_at: now, updated_at: now })
        .where('meetup_id', '=', row.id)
        .where('user_id', '=', next.user_id)
        .execute();
      row = await adjustCounts(trx, row.id, { confirmed: 1, waitlist: -1 }, now);
      await seated(trx, row, next.user_id, now);
      await tell(trx, { recipientId: next.user_id, meetupId: row.id, actorId: row.host_id, event: 'promoted' });
    }
  }
  return row;
}

/**
 * A person's place ends (they left, were declined, removed, or let an offer pass): the counts
 * follow, and a seat they held goes to the next. Call under the meetup's lock.
 */
export async function vacate(
  trx: Database,
  meetup: MeetupRow,
  {
    userId,
    from,
    to,
    now,
  }: { userId: string; from: string; to: 'left' | 'declined' | 'missed' | 'removed'; now: Date },
): Promise<MeetupRow> {
  await trx
    .updateTable('meetup_attendees')
    .set({ status: to, offer_expires_at: null, updated_at: now })
    .where('meetup_id', '=', meetup.id)
    .where('user_id', '=', userId)
    .execute();
  if (from === 'confirmed') {
    await unseated(trx, meetup.id, userId);
    return fillFreedSeats(trx, await adjustCounts(trx, meetup.id, { confirmed: -1 }, now), now);
  }
  if (from === 'offered') return fillFreedSeats(trx, await adjustCounts(trx, meetup.id, { offered: -1 }, now), now);
  if (from === 'waitlisted') return adjustCounts(trx, meetup.id, { waitlist: -1 }, now);
  return meetup;
}

/** One offer that ran out: it passes to the next (the job at its expiry, or the sweep). Returns whether it did. */
export async function expireOffer(
  db: Database,
  { meetupId, userId }: { meetupId: string; userId: string },
  now = new Date(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const meetup = await lockMeetup(trx, meetupId);
    if (!meetup) return false;
    const offer = await trx
      .selectFrom('meetup_attendees')
      .select(['status', 'offer_expires_at'])
      .where('meetup_id', '=', meetupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (offer?.status !== 'offered' || !offer.offer_expires_at) return false;
    if (new Date(offer.offer_expires_at).getTime() > now.getTime()) return false;
    await vacate(trx, meetup, { userId, from: 'offered', to: 'missed', now });
    return true;
  });
}

/** The minute sweep's part: every offer past its time passes on (a job that was lost or failed). */
export async function expireDueOffers(db: Database, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom('meetup_attendees')
    .select(['meetup_id', 'user_id'])
    .where('status', '=', 'offered')
    .where('offer_expires_at', '<=', now)
    .orderBy('offer_expires_at')
    .limit(200)
    .execute();
  let passed = 0;
  for (const offer of due)
    if (await expireOffer(db, { meetupId: offer.meetup_id, userId: offer.user_id }, now)) passed++;
  return passed;
}
