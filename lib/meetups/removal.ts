// Meetups the service changes itself: a block, or an account's end. Kept apart so lib/buddies and
// lib/accounts can call it in their own transaction.
//   - A block between a host and someone holding a place in their meetup: that person is removed
//     (their seat goes to the next); both then see nothing of the other's meetups (./records.ts).
//     Two attendees who block each other both stay: nothing changes for either, so nothing tells
//     either of the block (docs/decisions/meetups.md).
//   - An account's end: the meetups it hosts are cancelled (by nobody, for no reason) and its places given up.
// Meetups are locked in (starts_at, id) order, as a series cancel locks them.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { cancelOne } from './meetups';
import { ACTIVE_STATUSES } from './records';
import { lockMeetup, vacate } from './seats';

async function removePlaces(trx: Database, places: readonly { meetup_id: string; user_id: string }[], now: Date) {
  for (const place of places) {
    const meetup = await lockMeetup(trx, place.meetup_id);
    if (!meetup) continue;
    const row = await trx
      .selectFrom('meetup_attendees')
      .select('status')
      .where('meetup_id', '=', place.meetup_id)
      .where('user_id', '=', place.user_id)
      .executeTakeFirst();
    if (row && ACTIVE_STATUSES.includes(row.status))
      await vacate(trx, meetup, { userId: place.user_id, from: row.status, to: 'removed', now });
  }
}

/** `blockerId` blocked `blockedId`: whichever of them holds a place in the other's meetups gives it up. */
export async function separateInMeetups(trx: Database, a: string, b: string, now = new Date()): Promise<void> {
  const places = await trx
    .selectFrom('meetup_attendees as p')
    .innerJoin('meetups as m', 'm.id', 'p.meetup_id')
    .select(['p.meetup_id', 'p.user_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('m.host_id', '=', a), eb('p.user_id', '=', b)]),
        eb.and([eb('m.host_id', '=', b), eb('p.user_id', '=', a)]),
      ]),
    )
    .where('p.status', 'in', ACTIVE_STATUSES)
    .where('m.ends_at', '>', now)
    .orderBy('m.starts_at')
    .orderBy('m.id')
    .execute();
  await removePlaces(trx, places, now);
}

/** An account ends: its hosted meetups not yet over are cancelled, and its places given up. */
export async function endMeetupsOf(trx: Database, userId: string, now = new Date()): Promise<void> {
  const hosted = await trx
    .selectFrom('meetups')
    .selectAll()
    .where('host_id', '=', userId)
    .where('status', '=', 'open')
    .where('ends_at', '>', now)
    .orderBy('starts_at')
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
  for (const meetup of hosted) await cancelOne(trx, meetup, null, now);
  const places = await trx
    .selectFrom('meetup_attendees as p')
    .innerJoin('meetups as m', 'm.id', 'p.meetup_id')
    .select(['p.meetup_id', 'p.user_id'])
    .where('p.user_id', '=', userId)
    .where('p.status', 'in', ACTIVE_STATUSES)
    .where('m.ends_at', '>', sql<Date>`${now}`)
    .orderBy('m.starts_at')
    .orderBy('m.id')
    .execute();
  await removePlaces(trx, places, now);
}
