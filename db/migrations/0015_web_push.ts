// Web Push (RFC 8030, payloads encrypted per RFC 8291, VAPID per RFC 8292): the browser
// subscriptions a person opted in with on /account, one row per push endpoint (an
// endpoint is a capability URL: whoever holds it can push to that browser, so it is
// never shown back), and a per-person mute on each chat.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('web_push_subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index web_push_subscriptions_user_idx on web_push_subscriptions (user_id)`.execute(db);
  await db.schema
    .alterTable('chat_members')
    .addColumn('muted', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_members').dropColumn('muted').execute();
  await db.schema.dropTable('web_push_subscriptions').execute();
}
