// A safety net for meeting a stranger (issue 29, section 6). A person shares one plan with
// a trusted contact: a read-only page behind a secret (stored only as its SHA-256 hash, as
// bearer tokens and the calendar feed are), one row per plan and person; making it again
// replaces the secret; the contact mail carries a second one (contact_secret_hash, made
// when that mail is sent, so no link is ever kept readable). Revoking keeps the row (the
// old links then answer 410) and forgets the contact. A counter that replaces the plan
// takes the row along, as reminders move.
// Check-in (opt-in) lives on the same row: the minute sweep asks "All good?" at the start
// plus a delay, and with no "I'm fine" within the answer window mails the contact, once.
// mail_suppressions: addresses that are not members and asked for no more mail (a signed
// link in the contact mail), kept as SHA-256 hashes of the lower-cased address.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plan_shares')
    .addColumn('plan_id', 'uuid', (c) => c.notNull().references('plans.id').onDelete('cascade'))
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
    .addPrimaryKeyConstraint('plan_shares_pkey', ['plan_id', 'user_id'])
    .addCheckConstraint('plan_shares_checkin_contact', sql`not checkin or contact_email is not null`)
    .execute();
  // The sweep's work list: check-ins still waiting to be asked or answered.
  await sql`create index plan_shares_checkin_idx on plan_shares (plan_id)
    where checkin and checkin_fine_at is null and contact_mail is null and revoked_at is null`.execute(db);
  // Contact mails per account in the last day (the rate limit).
  await sql`create index plan_shares_contact_mail_idx on plan_shares (user_id, contact_mail_at)
    where contact_mail = 'sent'`.execute(db);
  await db.schema
    .createTable('mail_suppressions')
    .addColumn('email_hash', 'bytea', (c) => c.primaryKey())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_suppressions').execute();
  await db.schema.dropTable('plan_shares').execute();
}
