// Buddies, chats and the inbox: buddy requests, connections, chats with their
// members' read markers, messages, blocks, reports and device push tokens.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // A connection per unordered pair of users: user_a is always the smaller id, so
  // the unique key holds whichever side accepted.
  await db.schema
    .createTable('connections')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_a', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_b', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('connections_ordered_pair', sql`user_a < user_b`)
    .addUniqueConstraint('connections_pair_key', ['user_a', 'user_b'])
    .execute();
  await db.schema.createIndex('connections_user_b_idx').on('connections').column('user_b').execute();

  await db.schema
    .createTable('chats')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('connection_id', 'uuid', (c) => c.notNull().references('connections.id').onDelete('cascade'))
    // Denormalised from messages (written under the chat row lock) so lists need no aggregate.
    .addColumn('last_message_id', 'bigint')
    .addColumn('last_message_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('chats_connection_key', ['connection_id'])
    .execute();

  await db.schema
    .createTable('buddy_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('sender_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message', 'text')
    .addColumn('activity_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('chat_id', 'uuid', (c) => c.references('chats.id').onDelete('set null'))
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('responder_agent_name', 'text')
    .addColumn('responder_agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('responded_at', 'timestamptz')
    .addCheckConstraint('buddy_requests_state', sql`state in ('pending', 'accepted', 'declined', 'cancelled')`)
    .addCheckConstraint('buddy_requests_not_self', sql`sender_id <> recipient_id`)
    .addCheckConstraint('buddy_requests_responded', sql`(state = 'pending') = (responded_at is null)`)
    .execute();
  // At most one pending request per unordered pair, whichever way it points.
  await sql`create unique index buddy_requests_one_pending_per_pair on buddy_requests
    (least(sender_id, recipient_id), greatest(sender_id, recipient_id)) where state = 'pending'`.execute(db);
  await sql`create index buddy_requests_received_idx on buddy_requests (recipient_id, created_at desc)`.execute(db);
  await sql`create index buddy_requests_sent_idx on buddy_requests (sender_id, created_at desc)`.execute(db);
  // The inbox's two request queries: pending received, and recently accepted sent.
  await sql`create index buddy_requests_pending_received_idx on buddy_requests (recipient_id, created_at desc)
    where state = 'pending'`.execute(db);
  await sql`create index buddy_requests_accepted_sent_idx on buddy_requests (sender_id, responded_at desc)
    where state = 'accepted'`.execute(db);
  await db.schema
    .createIndex('buddy_requests_pair_idx')
    .on('buddy_requests')
    .columns(['sender_id', 'recipient_id'])
    .execute();

  // One row per participant: the read marker and an unread counter kept in the
  // same transaction as each message insert, so the inbox never counts history.
  await db.schema
    .createTable('chat_members')
    .addColumn('chat_id', 'uuid', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('other_user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('last_read_message_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_read_at', 'timestamptz')
    .addColumn('unread_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`unread_count >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('chat_members_pkey', ['chat_id', 'user_id'])
    .addUniqueConstraint('chat_members_pair_key', ['user_id', 'other_user_id'])
    .execute();
  await sql`create index chat_members_unread_idx on chat_members (user_id) where unread_count > 0`.execute(db);

  await db.schema
    .createTable('messages')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('chat_id', 'uuid', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('sender_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    // Millisecond precision, and never earlier than the chat's previous message,
    // so `since=<ms>` and id order agree within a chat.
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('messages_chat_id_idx').on('messages').columns(['chat_id', 'id']).execute();
  await db.schema.createIndex('messages_chat_created_idx').on('messages').columns(['chat_id', 'created_at']).execute();
  // The per-sender rate limit counts a rolling window of one sender in one chat.
  await db.schema
    .createIndex('messages_rate_idx')
    .on('messages')
    .columns(['chat_id', 'sender_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('blocks')
    .addColumn('blocker_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('blocks_pkey', ['blocker_id', 'blocked_id'])
    .addCheckConstraint('blocks_not_self', sql`blocker_id <> blocked_id`)
    .execute();
  await db.schema.createIndex('blocks_blocked_idx').on('blocks').column('blocked_id').execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('reporter_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reported_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('chat_id', 'uuid', (c) => c.references('chats.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('reports_status', sql`status in ('open', 'reviewed', 'dismissed')`)
    .execute();
  await db.schema.createIndex('reports_reported_idx').on('reports').columns(['reported_id', 'created_at']).execute();
  await db.schema.createIndex('reports_reporter_idx').on('reports').columns(['reporter_id', 'created_at']).execute();

  // A device token belongs to whoever registered it last (one phone, one signed-in user).
  await db.schema
    .createTable('push_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('platform', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('push_tokens_token_key', ['token'])
    .execute();
  await db.schema.createIndex('push_tokens_user_idx').on('push_tokens').columns(['user_id', 'last_seen_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_tokens').execute();
  await db.schema.dropTable('reports').execute();
  await db.schema.dropTable('blocks').execute();
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('chat_members').execute();
  await db.schema.dropTable('buddy_requests').execute();
  await db.schema.dropTable('chats').execute();
  await db.schema.dropTable('connections').execute();
}
