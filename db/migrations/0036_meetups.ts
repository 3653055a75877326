// Meetups (issue 45): one person hosts, several join. Seats change only under the meetup's row
// lock, and the seat rule is also a CHECK here (confirmed + offered never above capacity - 1,
// the host holding the last seat), so no code path can overbook. Each join takes the next
// `join_seq` of its meetup under that lock: a waitlist ordered by `position` is ordered by
// commit. A weekly series is rows sharing `series_id`.
//
// The group chat is a chat with a meetup_id instead of a connection_id; its members are the
// host and the confirmed (chat_members rows with no other_user_id). Buddy chats are unchanged.
//
// Inbox versions (0013) are bumped by triggers in the same transaction: an attendee row's
// person on every change (and the host when a join waits for approval, or stops waiting),
// and everyone in a meetup when it is cancelled or moved.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meetups')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('host_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('series_id', 'uuid')
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('place_name', 'text', (c) => c.notNull())
    .addColumn('place_address', 'text')
    // Where it is found: the host's public point and city label when it was hosted (never an exact point).
    .addColumn('area', 'text')
    .addColumn('public_latitude', 'float8', (c) => c.notNull())
    .addColumn('public_longitude', 'float8', (c) => c.notNull())
    .addColumn('cell', 'integer', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().check(sql`capacity between 2 and 50`))
    .addColumn('join_policy', 'text', (c) => c.notNull().check(sql`join_policy in ('open', 'approval')`))
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'cancelled')`))
    .addColumn('confirmed_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`confirmed_count >= 0`))
    .addColumn('offered_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`offered_count >= 0`))
    .addColumn('waitlist_count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`waitlist_count >= 0`))
    .addColumn('join_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('calendar_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cancel_reason', 'text')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The transaction that last wrote it (as plans.xid, 0022): a cancel wakes the inbox exactly once.
    .addColumn('xid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
    .addCheckConstraint('meetups_ends_after_start', sql`ends_at > starts_at`)
    .addCheckConstraint('meetups_seats', sql`confirmed_count + offered_count <= capacity - 1`)
    .execute();
  // Search: per (activity, cell) the soonest open meetups, a LIMIT-bounded range scan each.
  await sql`create index meetups_search_idx on meetups (activity, cell, starts_at) where status = 'open'`.execute(db);
  await sql`create index meetups_host_idx on meetups (host_id, starts_at)`.execute(db);
  await sql`create index meetups_series_idx on meetups (series_id, starts_at) where series_id is not null`.execute(db);

  await db.schema
    .createTable('meetup_attendees')
    .addColumn('meetup_id', 'uuid', (c) => c.notNull().references('meetups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status in ('pending', 'waitlisted', 'offered', 'confirmed', 'left', 'declined', 'missed', 'removed')`,
        ),
    )
    // The meetup's join_seq at this join: the waitlist's order, which is the order of commit.
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('offer_expires_at', 'timestamptz')
    // Set when a freed seat was given (promoted) or offered: what the inbox tells.
    .addColumn('seat_given_at', 'timestamptz')
    .addColumn('attended', 'boolean')
    .addColumn('marked_at', 'timestamptz')
    .addColumn('agent_name', 'text')
    .addColumn('agent_session_id', 'text')
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('xid', sql`xid8`, (c) => c.notNull().defaultTo(sql`pg_current_xact_id()`))
    .addPrimaryKeyConstraint('meetup_attendees_pkey', ['meetup_id', 'user_id'])
    .addCheckConstraint('meetup_attendees_offer', sql`(status = 'offered') = (offer_expires_at is not null)`)
    .execute();
  await sql`create index meetup_attendees_user_idx on meetup_attendees (user_id, updated_at)`.execute(db);
  await sql`create index meetup_attendees_queue_idx on meetup_attendees (meetup_id, position)
    where status in ('waitlisted', 'pending')`.execute(db);
  await sql`create index meetup_attendees_offers_idx on meetup_attendees (offer_expires_at) where status = 'offered'`.execute(
    db,
  );
  // The reliability rule (lib/plans/reliability.ts) reads recent no-show marks.
  await sql`create index meetup_attendees_no_show_idx on meetup_attendees (marked_at) where attended = false`.execute(
    db,
  );

  await db.schema
    .createTable('meetup_reminders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('meetup_id', 'uuid', (c) => c.notNull().references('meetups.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('offset_minutes', 'integer', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz')
    .addUniqueConstraint('meetup_reminders_once', ['meetup_id', 'user_id', 'offset_minutes'])
    .execute();
  await sql`create index meetup_reminders_due_idx on meetup_reminders (due_at) where sent_at is null`.execute(db);

  // The group chat: a chat belongs to a connection (two buddies) or to a meetup, never both.
  await sql`alter table chats alter column connection_id drop not null`.execute(db);
  await sql`alter table chats add column meetup_id uuid unique references meetups(id) on delete cascade`.execute(db);
  await sql`alter table chats add constraint chats_one_owner check ((connection_id is null) <> (meetup_id is null))`.execute(
    db,
  );
  await sql`alter table chat_members alter column other_user_id drop not null`.execute(db);

  await sql`
    create function meetup_row_xid() returns trigger language plpgsql as $$
    begin
      new.xid := pg_current_xact_id();
      return new;
    end $$`.execute(db);
  await sql`
    create function meetup_attendees_bumped() returns trigger language plpgsql as $$
    declare host uuid;
    begin
      if tg_op = 'UPDATE' and new.status is not distinct from old.status
        and new.offer_expires_at is not distinct from old.offer_expires_at
        and new.attended is not distinct from old.attended then
        return null;
      end if;
      select host_id into host from meetups where id = new.meetup_id;
      if new.status = 'pending' or (tg_op = 'UPDATE' and old.status = 'pending') then
        perform bump_inbox_pair(new.user_id, host);
      else
        perform bump_inbox_version(new.user_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger meetup_attendees_xid before update on meetup_attendees
    for each row execute function meetup_row_xid()`.execute(db);
  await sql`create trigger meetup_attendees_bump after insert or update on meetup_attendees
    for each row execute function meetup_attendees_bumped()`.execute(db);

  await sql`
    create function meetups_bump() returns trigger language plpgsql as $$
    declare person uuid;
    begin
      if new.status is distinct from old.status or new.starts_at is distinct from old.starts_at
        or new.ends_at is distinct from old.ends_at then
        for person in
          select new.host_id
          union select user_id from meetup_attendees
            where meetup_id = new.id and status in ('pending', 'waitlisted', 'offered', 'confirmed')
          order by 1
        loop
          perform bump_inbox_version(person);
        end loop;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger meetups_xid before update on meetups
    for each row execute function meetup_row_xid()`.execute(db);
  await sql`create trigger meetups_bump after update on meetups for each row execute function meetups_bump()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists meetups_bump on meetups`.execute(db);
  await sql`drop trigger if exists meetups_xid on meetups`.execute(db);
  await sql`drop function if exists meetups_bump()`.execute(db);
  await sql`drop trigger if exists meetup_attendees_bump on meetup_attendees`.execute(db);
  await sql`drop trigger if exists meetup_attendees_xid on meetup_attendees`.execute(db);
  await sql`drop function if exists meetup_attendees_bumped()`.execute(db);
  await sql`drop function if exists meetup_row_xid()`.execute(db);
  await sql`delete from chats where meetup_id is not null`.execute(db);
  await sql`delete from chat_members where other_user_id is null`.execute(db);
  await sql`alter table chat_members alter column other_user_id set not null`.execute(db);
  await sql`alter table chats drop constraint chats_one_owner`.execute(db);
  await sql`alter table chats drop column meetup_id`.execute(db);
  await sql`alter table chats alter column connection_id set not null`.execute(db);
  await db.schema.dropTable('meetup_reminders').execute();
  await db.schema.dropTable('meetup_attendees').execute();
  await db.schema.dropTable('meetups').execute();
}
