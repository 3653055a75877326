// Share my meetup (issue 45): the safety net plans have (0026), for a meetup. A person who holds a
// seat in a meetup (its host, or someone confirmed) shares it with a trusted contact: a read-only
// page behind a secret stored only as its SHA-256 hash, one row per meetup and person, with the
// same opt-in check-in on the row. The columns, checks and indexes are plan_shares' own, keyed by
// the meetup instead of the plan, so lib/plans/share.ts and checkins.ts run both kinds with one code.
// A person's place that ends (left, removed) revokes their row in the same transaction
// (lib/meetups/seats.ts), so a later join never brings an old link back.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meetup_shares')
    .addColumn('meetup_id', 'uuid', (c) => c.notNull().references('meetups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('contact_secret_hash', 'bytea', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('contact_email', 'text')
    .addColumn('checkin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('checkin_asked_at', 'timestamptz')
    .addColumn('checkin_fine_at', 'timestamptz')
    .addColumn('contact_mail', 'text', (c) => c.check(sql`contact_mail in ('sent', 'rate_limited', 'suppressed')`))
    .addColumn('contact_mail_at', 'timestamptz')
    .addPrimaryKeyConstraint('meetup_shares_pkey', ['meetup_id', 'user_id'])
    .addCheckConstraint('meetup_shares_checkin_contact', sql`not checkin or contact_email is not null`)
    .execute();
  // The sweep's work list: check-ins still waiting to be asked or answered.
  await sql`create index meetup_shares_checkin_idx on meetup_shares (meetup_id)
    where checkin and checkin_fine_at is null and contact_mail is null and revoked_at is null`.execute(db);
  // Contact mails per account in the last day (the rate limit counts both kinds).
  await sql`create index meetup_shares_contact_mail_idx on meetup_shares (user_id, contact_mail_at)
    where contact_mail = 'sent'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('meetup_shares').execute();
}
