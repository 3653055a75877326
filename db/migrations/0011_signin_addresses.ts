// Client addresses an account recently signed in from with its password. During a
// distributed guessing attack the account-wide backoff pauses password sign-in, but not
// from these addresses, so a stranger cannot lock the owner out at home or at work
// (lib/accounts/attempt-limits.ts). Keyed like auth_attempts, by the lower-cased email.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signin_addresses')
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('last_success_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('signin_addresses_pkey', ['account_key', 'ip'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signin_addresses').execute();
}
