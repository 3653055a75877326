// Meetup reminders, as plans have them (lib/plans/reminders.ts): rows written in the transaction
// that gives a person their seat (the host's with the meetup), dropped when they leave or it is
// cancelled, and turned into a push and a mail by the minute sweep, each once.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { enqueue, QUEUES } from '../jobs/boss';
import type { PushJob } from '../notifications/push-job';
import type { MeetupMailJob } from './mail';

const MINUTE_MS = 60_000;
/** 24 h and 2 h before the start, as plans' defaults. */
export const MEETUP_REMINDER_OFFSETS: readonly number[] = [24 * 60, 2 * 60];

/** One person's reminders of a meetup they host or are confirmed for; offsets already past are skipped. */
export async function scheduleMeetupReminders(
  trx: Database,
  { meetupId, userId, startsAt, now }: { meetupId: string; userId: string; startsAt: Date; now: Date },
): Promise<void> {
  const rows = MEETUP_REMINDER_OFFSETS.map((offset) => ({
    meetup_id: meetupId,
    user_id: userId,
    offset_minutes: offset,
    due_at: new Date(startsAt.getTime() - offset * MINUTE_MS),
  })).filter((row) => row.due_at.getTime() > now.getTime());
  if (rows.length === 0) return;
  await trx
    .insertInto('meetup_reminders')
    .values(rows)
    .onConflict((oc) => oc.columns(['meetup_id', 'user_id', 'offset_minutes']).doNothing())
    .execute();
}

/** Unsent reminders of a meetup go: one person's (they left) or everyone's (cancelled). */
export async function dropMeetupReminders(trx: Database, meetupId: string, userId?: string): Promise<void> {
  let query = trx.deleteFrom('meetup_reminders').where('meetup_id', '=', meetupId).where('sent_at', 'is', null);
  if (userId) query = query.where('user_id', '=', userId);
  await query.execute();
}

/** The sweep's part: due reminders of meetups still on, for people still in, become jobs, at most once. */
export async function sendDueMeetupReminders(db: Database, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('meetup_reminders as r')
      .innerJoin('meetups as m', 'm.id', 'r.meetup_id')
      .leftJoin('meetup_attendees as a', (join) =>
        join.onRef('a.meetup_id', '=', 'r.meetup_id').onRef('a.user_id', '=', 'r.user_id'),
      )
      .select([
        'r.id',
        'r.user_id',
        'r.meetup_id',
        'r.offset_minutes',
        'm.status',
        'm.starts_at',
        'm.host_id',
        'a.status as attendee_status',
      ])
      .where('r.sent_at', 'is', null)
      .where('r.due_at', '<=', now)
      .orderBy('r.due_at')
      .limit(200)
      .forUpdate('r')
      .skipLocked()
      .execute();
    const live = due.filter(
      (r) =>
        r.status === 'open' &&
        new Date(r.starts_at).getTime() > now.getTime() &&
        (r.host_id === r.user_id || r.attendee_status === 'confirmed'),
    );
    const stale = due.filter((r) => !live.includes(r)).map((r) => r.id);
    if (stale.length > 0) await trx.deleteFrom('meetup_reminders').where('id', 'in', stale).execute();
    for (const r of live) {
      const push: PushJob = {
        kind: 'meetup_reminder',
        recipientId: r.user_id,
        meetupId: r.meetup_id,
        minutesBefore: r.offset_minutes,
      };
      await enqueue(trx, QUEUES.push, push);
      const mail: MeetupMailJob = { userId: r.user_id, meetupId: r.meetup_id, event: 'reminder' };
      await enqueue(trx, QUEUES.meetupMail, mail);
    }
    if (live.length > 0)
      await trx
        .updateTable('meetup_reminders')
        .set({ sent_at: sql<Date>`now()` })
        .where(
          'id',
          'in',
          live.map((r) => r.id),
        )
        .execute();
    return live.length;
  });
}
