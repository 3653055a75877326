// An account cannot be taken over before its owner arrives (issue 12, section 5):
//  - users.disabled_at: an account its mailbox's owner disowned ("This wasn't me"). It can
//    neither sign in nor act, and everyone else stops seeing it. Its rows are kept (for
//    moderators, and so others' chats and reports stay whole), but its email address is
//    released: the unique index on lower(email) now covers live accounts only, so the real
//    owner can register later.
//  - not_me_links: the single-use "This wasn't me" links of sign-in mails, stored only as
//    SHA-256 hashes like sign-in links; a separate table so one can never sign anyone in.
//  - access_tokens.confirmed_at: when the person, signed in on the web, chose to keep a token.
//  - a BEFORE trigger keeps a disabled account's onboarding_complete false, whoever writes
//    the row afterwards (the geocoding job, photo moderation): the Discover postings
//    triggers (0007 and any later version) then leave it out without being redefined here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('disabled_reason', 'text', (c) => c.check(sql`disabled_reason in ('not_me')`))
    .execute();
  await sql`alter table users add constraint users_disabled_reason_pair check ((disabled_at is null) = (disabled_reason is null))`.execute(
    db,
  );

  // Same name as before, so a 23505 on it still maps to email_taken (lib/core/errors.ts).
  await sql`drop index users_email_lower_key`.execute(db);
  await sql`create unique index users_email_lower_key on users (lower(email)) where disabled_at is null`.execute(db);

  await db.schema.alterTable('access_tokens').addColumn('confirmed_at', 'timestamptz').execute();

  await db.schema
    .createTable('not_me_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('not_me_links_user_idx').on('not_me_links').column('user_id').execute();

  // Fires only for writes that name either column, and WHEN is checked without calling the
  // function: the once-a-minute touch of last_active_at and bulk seeding pay nothing.
  await sql`create function users_disabled_not_searchable() returns trigger language plpgsql as $$
    begin
      new.onboarding_complete := false;
      return new;
    end $$`.execute(db);
  await sql`create trigger users_disabled_not_searchable
    before insert or update of onboarding_complete, disabled_at on users
    for each row when (new.disabled_at is not null and new.onboarding_complete)
    execute function users_disabled_not_searchable()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists users_disabled_not_searchable on users`.execute(db);
  await sql`drop function if exists users_disabled_not_searchable()`.execute(db);
  await db.schema.dropTable('not_me_links').execute();
  await db.schema.alterTable('access_tokens').dropColumn('confirmed_at').execute();
  // Fails if a released address was registered again: then two rows share it.
  await sql`drop index users_email_lower_key`.execute(db);
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);
  await sql`alter table users drop constraint users_disabled_reason_pair`.execute(db);
  await db.schema.alterTable('users').dropColumn('disabled_reason').dropColumn('disabled_at').execute();
}
