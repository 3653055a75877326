// A marker per mail job that finished sending (issue 33 §4): pg-boss may run a job again
// (its worker killed mid-batch, or a batch outliving its expiry), and a retry finding
// the marker sends nothing. Keyed by pg-boss's job id, which a retry keeps.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_sends')
    .addColumn('job_id', 'uuid', (c) => c.primaryKey())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('mail_sends_sent_at_idx').on('mail_sends').column('sent_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_sends').execute();
}
