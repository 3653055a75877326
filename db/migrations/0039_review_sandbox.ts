// The review account (issue 47, REVIEW_ACCOUNT): app directories' reviewers sign in to one
// account with sample buddies, and that little world never meets the real one. users.review_sandbox
// marks its people; lib/ages/reach.ts mayReach answers "no one" across the line, and the
// postings' "searchable" condition (0033, 0037) gains `not review_sandbox`, so the review people
// have no Discover postings and every search and count leaves them out with no filter of its own.
// The flag is written when a review person is created and never changes afterwards, so the
// update trigger's WHEN list stays as it is. The functions are written out in full (as 0037 left
// them, plus the condition): migrations are frozen in time.
import { sql, type Kysely } from 'kysely';

const fineCellOf = (row: string) => `discover_fine_cell(${row}.public_latitude, ${row}.public_longitude)`;

function postingsSql(withSandbox: boolean) {
  const searchable = (row: string) =>
    `${row}.onboarding_complete and ${row}.discover_cell is not null and not ${row}.awaiting_person_consent` +
    (withSandbox ? ` and not ${row}.review_sandbox` : '');
  const keys = (row: string) => `${row}.activities || discover_activity_pairs(${row}.activities)`;
  const columns = sql.raw(
    `activity, cell, fine_cell, user_id, public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade, active_day, timezone`,
  );
  const postingsOf = (row: string) =>
    sql.raw(`select distinct a.activity, ${row}.discover_cell, ${fineCellOf(row)}, ${row}.id,
        ${row}.public_latitude, ${row}.public_longitude, ${row}.schedule, ${row}.gender, ${row}.birthday,
        ${row}.show_age_by_decade, discover_active_day(${row}.last_active_at), ${row}.timezone`);
  return { columns, postingsOf, keys, searchable };
}

async function replaceFunctions(db: Kysely<any>, withSandbox: boolean): Promise<void> {
  const { columns, postingsOf, keys, searchable } = postingsSql(withSandbox);
  const keyOf = (row: string, alias: string) =>
    sql.raw(
      `${alias}.activity = any(${keys(row)}) and ${alias}.cell = ${row}.discover_cell
        and ${alias}.fine_cell = ${fineCellOf(row)} and ${alias}.user_id = ${row}.id`,
    );
  await sql`create or replace function discover_postings_on_insert() returns trigger language plpgsql as $$
    begin
      insert into discover_postings (${columns})
        ${postingsOf('n')} from inserted_users n cross join lateral unnest(${sql.raw(keys('n'))}) as a(activity)
        where ${sql.raw(searchable('n'))};
      return null;
    end $$`.execute(db);
  await sql`create or replace function discover_postings_on_update() returns trigger language plpgsql as $$
    begin
      delete from discover_postings p where ${keyOf('old', 'p')};
      if ${sql.raw(searchable('new'))} then
        insert into discover_postings (${columns})
          ${postingsOf('new')} from unnest(${sql.raw(keys('new'))}) as a(activity);
      end if;
      return null;
    end $$`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  // Nobody is in the sandbox when the column is new, so the postings stand as they are.
  await sql`alter table users add column review_sandbox boolean not null default false`.execute(db);
  await replaceFunctions(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  // The review people go with the column (the server makes them again when REVIEW_ACCOUNT is on);
  // what they share first, while they exist (its delete bumps their inbox versions, 0013).
  const people = sql`select id from users where review_sandbox`;
  await sql`delete from meetups where host_id in (${people})`.execute(db);
  await sql`delete from chats where id in (select chat_id from chat_members where user_id in (${people}))`.execute(db);
  await sql`delete from connections where user_a in (${people}) or user_b in (${people})`.execute(db);
  await sql`delete from meetup_attendees where user_id in (${people})`.execute(db);
  await sql`delete from buddy_requests where sender_id in (${people}) or recipient_id in (${people})`.execute(db);
  await sql`delete from blocks where blocker_id in (${people}) or blocked_id in (${people})`.execute(db);
  await sql`delete from users where review_sandbox`.execute(db);
  await replaceFunctions(db, false);
  await sql`alter table users drop column review_sandbox`.execute(db);
}
