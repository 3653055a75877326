// Plans the service cancels itself. Apart from the rest of lib/plans, because blocks
// and account disabling call it and lib/plans reads blocks.
import { sql } from 'kysely';
import type { Database } from '@/db';

/**
 * A block or an account's end: the pair's open and confirmed plans are cancelled, by
 * nobody and for no reason, so the other person learns nothing but "cancelled". Call in
 * the transaction that blocks or disables. Pass one id to cancel all of that person's.
 * Rows are locked in chain order (calendar_uid, sequence), the order an accept of a counter
 * takes them (the replaced plan, then the counter), so the two cannot deadlock.
 */
export async function cancelPlansOf(trx: Database, userId: string, otherId?: string): Promise<number> {
  const cancelled = await trx
    .updateTable('plans')
    .set({
      status: 'cancelled',
      cancel_reason: null,
      acted_by_user: null,
      acted_agent_name: null,
      acted_agent_session_id: null,
      acted_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('plans')
        .select('id')
        // Open or upcoming only: what has happened, expired or closed stays as it was.
        .where(
          sql<boolean>`((status = 'proposed' and starts_at > now()) or (status = 'confirmed' and ends_at > now()))`,
        )
        .where((w) =>
          otherId
            ? w.or([
                w.and([w('proposer_id', '=', userId), w('recipient_id', '=', otherId)]),
                w.and([w('proposer_id', '=', otherId), w('recipient_id', '=', userId)]),
              ])
            : w.or([w('proposer_id', '=', userId), w('recipient_id', '=', userId)]),
        )
        .orderBy('calendar_uid')
        .orderBy('sequence')
        .forUpdate(),
    )
    .returning('id')
    .execute();
  // Their reminders stop (lib/plans/reminders.ts; not imported, which would import blocks back).
  if (cancelled.length > 0)
    await trx
      .deleteFrom('plan_reminders')
      .where(
        'plan_id',
        'in',
        cancelled.map((row) => row.id),
      )
      .where('sent_at', 'is', null)
      .execute();
  return cancelled.length;
}
