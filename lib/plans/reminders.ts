// Plan reminders (issue 29 §5). pg-boss drops jobs that wait longer than its retention
// (14 days) and plans may be 90 days ahead, so reminders wait as rows in plan_reminders,
// written in the transaction that confirms, moves or cancels the plan; the minute sweep
// (plans-sweep) turns due rows into a push job and a mail job and marks them sent in the
// same transaction, so each is sent once, and none for a plan no longer confirmed.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { enqueue, QUEUES } from '../jobs/boss';
import type { PushJob } from '../notifications/push-job';

const MINUTE_MS = 60_000;
/** 24 h and 2 h before the start (PLAN_REMINDER_OFFSETS overrides them). */
export const DEFAULT_REMINDER_OFFSETS: readonly number[] = [24 * 60, 2 * 60];

/** Both people's reminders of a plan that is (now) confirmed; offsets already past are skipped. */
export async function scheduleReminders(
  trx: Database,
  planId: string,
  offsetsMinutes: readonly number[],
  now: Date,
): Promise<void> {
  const plan = await trx
    .selectFrom('plans')
    .select(['proposer_id', 'recipient_id', 'starts_at'])
    .where('id', '=', planId)
    .where('status', '=', 'confirmed')
    .executeTakeFirst();
  if (!plan) return;
  const start = new Date(plan.starts_at).getTime();
  const rows = [plan.proposer_id, plan.recipient_id].flatMap((userId) =>
    offsetsMinutes
      .map((offset) => ({
        plan_id: planId,
        user_id: userId,
        offset_minutes: offset,
        due_at: new Date(start - offset * MINUTE_MS),
      }))
      .filter((row) => row.due_at.getTime() > now.getTime()),
  );
  if (rows.length === 0) return;
  await trx
    .insertInto('plan_reminders')
    .values(rows)
    .onConflict((oc) => oc.columns(['plan_id', 'user_id', 'offset_minutes']).doNothing())
    .execute();
}

/** A plan cancelled, declined or replaced: its unsent reminders go. */
export async function dropReminders(trx: Database, planIds: readonly string[]): Promise<void> {
  if (planIds.length === 0) return;
  await trx.deleteFrom('plan_reminders').where('plan_id', 'in', planIds).where('sent_at', 'is', null).execute();
}

export interface ReminderMailJob extends Record<string, unknown> {
  reminderId: string;
}

/** The sweep's part: due reminders of still-confirmed, not yet started plans become jobs, at most once. */
export async function sendDueReminders(db: Database, now = new Date()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('plan_reminders as r')
      .innerJoin('plans as p', 'p.id', 'r.plan_id')
      .select(['r.id', 'r.user_id', 'r.plan_id', 'r.offset_minutes', 'p.chat_id', 'p.status', 'p.starts_at'])
      .where('r.sent_at', 'is', null)
      .where('r.due_at', '<=', now)
      .orderBy('r.due_at')
      .limit(200)
      .forUpdate('r')
      .skipLocked()
      .execute();
    const live = due.filter((r) => r.status === 'confirmed' && new Date(r.starts_at).getTime() > now.getTime());
    const stale = due.filter((r) => !live.includes(r)).map((r) => r.id);
    if (stale.length > 0) await trx.deleteFrom('plan_reminders').where('id', 'in', stale).execute();
    for (const r of live) {
      const push: PushJob = {
        kind: 'plan_reminder',
        recipientId: r.user_id,
        planId: r.plan_id,
        chatId: r.chat_id,
        minutesBefore: r.offset_minutes,
      };
      await enqueue(trx, QUEUES.push, push);
      await enqueue(trx, QUEUES.reminderMail, { reminderId: r.id } satisfies ReminderMailJob);
    }
    if (live.length > 0)
      await trx
        .updateTable('plan_reminders')
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
