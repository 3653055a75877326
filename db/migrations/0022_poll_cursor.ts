// Poll cursors that never repeat and never skip (issue 30).
//
// The inbox's poll_next_url carries the PostgreSQL snapshot its answer was read in. What is
// new to the next poll is what the old snapshot could not see: a row whose writing
// transaction was not yet visible then. Ids and timestamps cannot say this (they are taken
// before commit, so they commit out of order); transaction ids against a snapshot can.
//   messages.xid                 the transaction that stored the message
//   buddy_requests.state_xid     the transaction that last set its state (sent, accepted, ...)
//   plans.xid                    the transaction that last wrote the plan (a change wakes the inbox)
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Rows already stored get this migration's transaction, which every later snapshot sees.
  await sql`alter table messages add column xid xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`alter table buddy_requests add column state_xid xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`
    create function buddy_requests_state_xid() returns trigger language plpgsql as $$
    begin
      if new.state is distinct from old.state then new.state_xid := pg_current_xact_id(); end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger buddy_requests_state_xid before update on buddy_requests
    for each row execute function buddy_requests_state_xid()`.execute(db);
  await sql`alter table plans add column xid xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`
    create function plans_xid() returns trigger language plpgsql as $$
    begin
      new.xid := pg_current_xact_id();
      return new;
    end $$`.execute(db);
  await sql`create trigger plans_xid before update on plans for each row execute function plans_xid()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger plans_xid on plans`.execute(db);
  await sql`drop function plans_xid()`.execute(db);
  await sql`alter table plans drop column xid`.execute(db);
  await sql`drop trigger buddy_requests_state_xid on buddy_requests`.execute(db);
  await sql`drop function buddy_requests_state_xid()`.execute(db);
  await sql`alter table buddy_requests drop column state_xid`.execute(db);
  await sql`alter table messages drop column xid`.execute(db);
}
