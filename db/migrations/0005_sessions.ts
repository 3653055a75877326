// Web sign-in: database sessions (Auth.js, stored as SHA-256 hashes like every other
// secret), the ledger that rate-limits failed passwords and sign-in link requests, the
// generated Auth.js secret when AUTH_SECRET is unset, and when an email was verified.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  // One row per counted event: a failed password, or a request to email a sign-in link.
  // account_key is the lower-cased email, known account or not, so limits never reveal
  // whether an account exists.
  await db.schema
    .createTable('auth_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('password_failure', 'link_request')`))
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('auth_attempts_account_idx')
    .on('auth_attempts')
    .columns(['kind', 'account_key', 'created_at'])
    .execute();
  await db.schema
    .createIndex('auth_attempts_ip_idx')
    .on('auth_attempts')
    .columns(['kind', 'ip', 'created_at'])
    .execute();

  // Secrets the service generates for itself (the Auth.js secret when AUTH_SECRET is
  // unset), so every app instance on this database agrees on them.
  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
  await db.schema.dropTable('app_secrets').execute();
  await db.schema.dropTable('auth_attempts').execute();
  await db.schema.dropTable('sessions').execute();
}
