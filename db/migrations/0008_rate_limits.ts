// The store of rate-limiter-flexible's PostgreSQL limiter (lib/limits): one row per
// counted key (limit name and user or client address), so the per-user and per-client
// limits hold across any number of app instances. The library's own schema; created
// here so no app instance runs DDL at request time.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
  await sql`create index rate_limits_expire_idx on rate_limits (expire)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
