// Pacing shared by every app instance: each caller reserves the next free slot in
// PostgreSQL, then waits for it, so N workers together still make at most one call per interval.
import { sql } from 'kysely';
import type { Database } from '@/db';

export async function waitForSlot(db: Database, name: string, intervalMs: number): Promise<void> {
  const slot = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('throttles')
      .values({ name })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await trx
      .updateTable('throttles')
      .set({ next_at: sql`greatest(now(), next_at) + make_interval(secs => ${intervalMs / 1000})` })
      .where('name', '=', name)
      .returning(sql<Date>`next_at - make_interval(secs => ${intervalMs / 1000})`.as('slot'))
      .executeTakeFirstOrThrow();
    return new Date(row.slot);
  });
  const wait = slot.getTime() - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
