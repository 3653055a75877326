// Accounts and profiles: users, their access tokens, single-use sign-in links
// and the registration ledger that the per-IP limit counts.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('about_me', 'text')
    .addColumn('city', 'text')
    .addColumn('location', 'text')
    .addColumn('home_location', 'text')
    .addColumn('public_location', 'text')
    .addColumn('latitude', 'float8')
    .addColumn('longitude', 'float8')
    .addColumn('coords_source', 'text')
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('male', 'female', 'non_binary', 'prefer_not_to_say')`))
    .addColumn('birthday', 'date')
    .addColumn('show_age_by_decade', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('activities', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('availability_text', 'text')
    .addColumn('schedule', sql`bit(126)`)
    .addColumn('photo_url', 'text')
    .addColumn('onboarding_complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('users_coords_pair', sql`(latitude is null) = (longitude is null)`)
    .execute();
  // Emails are unique regardless of case; the 23505 on this index maps to email_taken.
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('access_tokens_user_idx').on('access_tokens').column('user_id').execute();

  await db.schema
    .createTable('signin_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('mobile', 'email')`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('signin_links_user_idx').on('signin_links').column('user_id').execute();

  await db.schema
    .createTable('registrations')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Which agent did what for whom (attribution never blocks a request; the web app lists it).
  await db.schema
    .createTable('agent_actions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('agent_actions_user_time_idx')
    .on('agent_actions')
    .columns(['user_id', 'created_at'])
    .execute();

  // Shared pacing for outbound calls with a rate policy (the public geocoder: 1 request/s),
  // so the pace holds across every app instance.
  await db.schema
    .createTable('throttles')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createIndex('registrations_ip_time_idx').on('registrations').columns(['ip', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('throttles').execute();
  await db.schema.dropTable('agent_actions').execute();
  await db.schema.dropTable('registrations').execute();
  await db.schema.dropTable('signin_links').execute();
  await db.schema.dropTable('access_tokens').execute();
  await db.schema.dropTable('users').execute();
}
