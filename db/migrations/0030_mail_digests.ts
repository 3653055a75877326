// The mail digest for people without push (issue 31 §4): one row per person who was ever
// due one. `due_at` is set while a digest job waits (so a burst of messages schedules one),
// `last_sent_at` keeps digests at most an hour apart, and `covered_until` is the newest
// item the last digest counted, so a digest with nothing newer is not sent.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_digests')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('due_at', 'timestamptz')
    .addColumn('last_sent_at', 'timestamptz')
    .addColumn('covered_until', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_digests').execute();
}
