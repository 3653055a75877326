// A private calendar feed per person (issue 29, section 4): a webcal:// URL whose secret
// is stored only as its SHA-256 hash, like bearer tokens; rotating replaces the row, and
// turning the feed off deletes it (the old URL then answers 404). Also section 5's
// reminder rows and the mail preferences they honour.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Reminders wait here, not in pg-boss (whose retention is 14 days; plans may be 90 days
  // ahead): written with the confirm, move or cancel, turned into jobs by the minute sweep.
  await db.schema
    .createTable('plan_reminders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('plan_id', 'uuid', (c) => c.notNull().references('plans.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('offset_minutes', 'integer', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz')
    .addUniqueConstraint('plan_reminders_once', ['plan_id', 'user_id', 'offset_minutes'])
    .execute();
  await sql`create index plan_reminders_due_idx on plan_reminders (due_at) where sent_at is null`.execute(db);
  // One model for optional mail (reminders now; check-ins and digests later), all on by default.
  await db.schema
    .createTable('mail_preferences')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('reminders', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('checkins', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('digests', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_preferences').execute();
  await db.schema.dropTable('plan_reminders').execute();
  await db.schema.dropTable('calendar_feeds').execute();
}
