// Plans (issue 29): a time and place two buddies agree on, belonging to their chat.
//
// A plan is proposed by one person and answered by the other (recipient_id, stored so
// every list is one index scan per person). A counter-proposal is a new row naming the
// plan it `replaces`; the chain shares one calendar_uid and each step takes the next
// sequence, which is what an iCalendar feed needs (UID stable, SEQUENCE growing).
// agent_* says which assistant proposed it; accepted_* who accepted it; acted_* who acted
// last (accept, decline, cancel), and through which assistant (a null acted_by_user on a
// cancelled plan: the service itself, after a block or an account deletion).
// Every insert or update bumps both people's inbox versions (migration 0013's
// pair_row_bump), in the same transaction, so held inbox polls wake on plan changes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('chat_id', 'uuid', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('proposer_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('place_name', 'text', (c) => c.notNull())
    .addColumn('place_address', 'text')
    .addColumn('event_id', 'text')
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('proposed')
        .check(sql`status in ('proposed', 'confirmed', 'superseded', 'declined', 'cancelled', 'expired')`),
    )
    .addColumn('replaces', 'uuid', (c) => c.references('plans.id').onDelete('set null'))
    .addColumn('superseded_by', 'uuid', (c) => c.references('plans.id').onDelete('set null'))
    .addColumn('calendar_uid', 'uuid', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('accepted_by_user', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('accepted_agent_name', 'text')
    .addColumn('acted_by_user', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('acted_agent_name', 'text')
    .addColumn('acted_agent_session_id', 'text')
    .addColumn('acted_at', 'timestamptz')
    .addColumn('cancel_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('plans_ends_after_start', sql`ends_at > starts_at`)
    .execute();
  // Each person's plans by time (to answer, upcoming, past), and a chat's open proposals (the cap).
  await sql`create index plans_proposer_idx on plans (proposer_id, starts_at)`.execute(db);
  await sql`create index plans_recipient_idx on plans (recipient_id, starts_at)`.execute(db);
  await sql`create index plans_chat_open_idx on plans (chat_id, starts_at) where status = 'proposed'`.execute(db);
  await sql`create index plans_open_end_idx on plans (ends_at) where status in ('proposed', 'confirmed')`.execute(db);
  await sql`create index plans_calendar_uid_idx on plans (calendar_uid, sequence)`.execute(db);
  await sql`create trigger plans_bump after insert or update on plans
    for each row execute function pair_row_bump('proposer_id', 'recipient_id')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists plans_bump on plans`.execute(db);
  await db.schema.dropTable('plans').execute();
}
