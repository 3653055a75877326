// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header-06) for every POST: one row
// per (caller, key). A row with no status is a claim in progress (its holder runs the
// request; duplicates wait for it); a row with a status holds the stored answer, replayed
// to retries until expires_at (24 h). Neither the key nor the answer is stored readable:
// key_hash is SHA-256 of the key, and the answer (which may hold a new bearer token) is
// encrypted with a key derived from the client's Idempotency-Key (lib/http/idempotency.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'smallint')
    .addColumn('response', 'bytea')
    .addColumn('locked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'key_hash'])
    .execute();
  await sql`create index idempotency_keys_expires_at_idx on idempotency_keys (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
