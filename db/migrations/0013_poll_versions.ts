// Cheap polls and cross-instance wake-ups (issue 13).
//
// inbox_versions holds one number per person that changes whenever their inbox or
// chat list may have changed: a request received, accepted, declined or cancelled,
// a message received or sent, a chat read, a block. Triggers bump it, so every
// writer is covered and the bump commits (or rolls back) with the change itself.
// Each bump also NOTIFYs channel buddy_poll (delivered on commit, to every
// instance's listener): "u:<user id>" wakes that person's held inbox polls, and
// "c:<chat id>" that chat's held message polls. "t:<token id>" and "r:<user id>"
// tell every instance to forget cached bearer tokens when one is revoked, deleted
// or rescoped, or an account is disabled.
//
// Pairs of people are bumped in id order, so two transactions touching the same
// two people lock their version rows in the same order and cannot deadlock.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create sequence inbox_version_seq`.execute(db);
  await sql`
    create table inbox_versions (
      user_id uuid primary key references users(id) on delete cascade,
      version bigint not null
    )`.execute(db);

  await sql`
    create function bump_inbox_version(person uuid) returns void language plpgsql as $$
    begin
      if person is null then return; end if;
      insert into inbox_versions (user_id, version) values (person, nextval('inbox_version_seq'))
        on conflict (user_id) do update set version = nextval('inbox_version_seq');
      perform pg_notify('buddy_poll', 'u:' || person);
    end $$`.execute(db);

  await sql`
    create function bump_inbox_pair(a uuid, b uuid) returns void language plpgsql as $$
    begin
      perform bump_inbox_version(least(a, b));
      if a is distinct from b then perform bump_inbox_version(greatest(a, b)); end if;
    end $$`.execute(db);

  // A row that concerns two people (a request: sender and recipient; a block: blocker and
  // blocked): the trigger's two arguments name the columns.
  await sql`
    create function pair_row_bump() returns trigger language plpgsql as $$
    declare r jsonb;
    begin
      if tg_op = 'DELETE' then r := to_jsonb(old); else r := to_jsonb(new); end if;
      perform bump_inbox_pair((r ->> tg_argv[0])::uuid, (r ->> tg_argv[1])::uuid);
      return null;
    end $$`.execute(db);
  await sql`create trigger buddy_requests_bump after insert or update or delete on buddy_requests
    for each row execute function pair_row_bump('sender_id', 'recipient_id')`.execute(db);
  await sql`create trigger blocks_bump after insert or delete on blocks
    for each row execute function pair_row_bump('blocker_id', 'blocked_id')`.execute(db);

  // A new message moves chats.last_message_id: both members' chat lists change
  // (last_message), and the chat's held message polls wake.
  await sql`
    create function chats_bump() returns trigger language plpgsql as $$
    declare member uuid;
    begin
      if new.last_message_id is distinct from old.last_message_id then
        for member in select user_id from chat_members where chat_id = new.id order by user_id loop
          perform bump_inbox_version(member);
        end loop;
        perform pg_notify('buddy_poll', 'c:' || new.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger chats_bump after update on chats
    for each row execute function chats_bump()`.execute(db);

  // Unread counters and read markers (a message received, a chat read).
  await sql`
    create function chat_members_bump() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform bump_inbox_version(old.user_id);
      elsif tg_op = 'INSERT'
        or new.unread_count is distinct from old.unread_count
        or new.last_read_message_id is distinct from old.last_read_message_id then
        perform bump_inbox_version(new.user_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger chat_members_bump after insert or update or delete on chat_members
    for each row execute function chat_members_bump()`.execute(db);

  // Inbox and chat cards show the other person's name, photo and public place:
  // when those change, everyone who may see the card gets a new version. Rare
  // (renames, photo and location changes are limited), so the fan-out is cheap.
  await sql`
    create function users_card_bump() returns trigger language plpgsql as $$
    declare person uuid;
    begin
      for person in
        select user_id from chat_members where other_user_id = new.id
        union select recipient_id from buddy_requests where sender_id = new.id
        union select sender_id from buddy_requests where recipient_id = new.id
        order by 1
      loop
        perform bump_inbox_version(person);
      end loop;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_card_bump after update on users for each row
    when (old.display_name is distinct from new.display_name or old.slug is distinct from new.slug
      or old.photo_url is distinct from new.photo_url or old.public_location is distinct from new.public_location)
    execute function users_card_bump()`.execute(db);

  await sql`
    create function access_tokens_revoked() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify('buddy_poll', 't:' || old.id);
      elsif (new.revoked_at is not null and old.revoked_at is null) or new.scopes is distinct from old.scopes then
        perform pg_notify('buddy_poll', 't:' || new.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger access_tokens_revoked after update of revoked_at, scopes or delete on access_tokens
    for each row execute function access_tokens_revoked()`.execute(db);

  await sql`
    create function users_disabled() returns trigger language plpgsql as $$
    begin
      if new.disabled_at is not null and old.disabled_at is null then
        perform pg_notify('buddy_poll', 'r:' || new.id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_disabled after update of disabled_at on users
    for each row execute function users_disabled()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists users_disabled on users`.execute(db);
  await sql`drop trigger if exists users_card_bump on users`.execute(db);
  await sql`drop trigger if exists access_tokens_revoked on access_tokens`.execute(db);
  await sql`drop trigger if exists chat_members_bump on chat_members`.execute(db);
  await sql`drop trigger if exists chats_bump on chats`.execute(db);
  await sql`drop trigger if exists blocks_bump on blocks`.execute(db);
  await sql`drop trigger if exists buddy_requests_bump on buddy_requests`.execute(db);
  for (const fn of [
    'users_disabled()',
    'users_card_bump()',
    'access_tokens_revoked()',
    'chat_members_bump()',
    'chats_bump()',
    'pair_row_bump()',
    'bump_inbox_pair(uuid, uuid)',
    'bump_inbox_version(uuid)',
  ]) {
    await sql.raw(`drop function if exists ${fn}`).execute(db);
  }
  await sql`drop table if exists inbox_versions`.execute(db);
  await sql`drop sequence if exists inbox_version_seq`.execute(db);
}
