// Discover postings: a narrow copy of what a search filters and ranks on, one row per
// (activity, cell, person), kept by triggers on users in the same transaction as the
// profile. Its primary key carries those columns (INCLUDE), so the candidates of a
// dense city come from an index-only scan over a few dozen adjacent leaf pages instead
// of one scattered users heap page each; only the final page's rows are read from
// users. Replaces the GIN index of 0006 (its keys are now this table's key).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Whole days since 1970-01-01 UTC. Only a change of this day reaches the postings, so
  // the once-a-minute touch of last_active_at stays a cheap HOT update of users alone;
  // the search derives exact bounds of "whole days away" from it (lib/discover/ranking.ts).
  await sql`create function discover_active_day(t timestamptz) returns int
    language sql immutable parallel safe
    return floor(extract(epoch from t) / 86400)::int`.execute(db);

  await sql`create table discover_postings (
    activity text not null,
    cell int not null,
    user_id uuid not null,
    latitude float8 not null,
    longitude float8 not null,
    schedule bit(126),
    gender text,
    birthday date,
    show_age_by_decade boolean not null,
    active_day int not null,
    -- No foreign key: its cascade would need a second index on user_id; the delete and
    -- truncate triggers below remove a person's rows through this key instead.
    constraint discover_postings_pkey primary key (activity, cell, user_id)
      include (latitude, longitude, schedule, gender, birthday, show_age_by_decade, active_day)
  )`.execute(db);

  // Only complete profiles with a place are searchable, so only they have postings.
  const postingColumns = sql.raw(
    'activity, cell, user_id, latitude, longitude, schedule, gender, birthday, show_age_by_decade, active_day',
  );
  const postingsOf = (row: string) =>
    sql.raw(`select distinct a.activity, ${row}.discover_cell, ${row}.id, ${row}.latitude, ${row}.longitude, ${row}.schedule,
        ${row}.gender, ${row}.birthday, ${row}.show_age_by_decade, discover_active_day(${row}.last_active_at)`);
  const searchable = (row: string) => sql.raw(`${row}.onboarding_complete and ${row}.discover_cell is not null`);

  // Inserts per statement (a transition table), so seeding 5,000 people is one insert here.
  await sql`create function discover_postings_on_insert() returns trigger language plpgsql as $$
    begin
      insert into discover_postings (${postingColumns})
        ${postingsOf('n')} from inserted_users n cross join lateral unnest(n.activities) as a(activity)
        where ${searchable('n')};
      return null;
    end $$`.execute(db);
  await sql`create trigger users_discover_postings_insert after insert on users
    referencing new table as inserted_users for each statement execute function discover_postings_on_insert()`.execute(
    db,
  );

  // Updates per row, and only when something a search reads changed (WHEN is checked
  // without calling the function): the common touch of last_active_at within a day costs nothing.
  await sql`create function discover_postings_on_update() returns trigger language plpgsql as $$
    begin
      delete from discover_postings where activity = any(old.activities) and cell = old.discover_cell and user_id = old.id;
      if ${searchable('new')} then
        insert into discover_postings (${postingColumns})
          ${postingsOf('new')} from unnest(new.activities) as a(activity);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_discover_postings_update after update on users for each row
    when (old.onboarding_complete is distinct from new.onboarding_complete
      or old.activities is distinct from new.activities
      or old.latitude is distinct from new.latitude or old.longitude is distinct from new.longitude
      or old.schedule is distinct from new.schedule
      or old.gender is distinct from new.gender
      or old.birthday is distinct from new.birthday
      or old.show_age_by_decade is distinct from new.show_age_by_decade
      or discover_active_day(old.last_active_at) is distinct from discover_active_day(new.last_active_at))
    execute function discover_postings_on_update()`.execute(db);

  await sql`create function discover_postings_on_delete() returns trigger language plpgsql as $$
    begin
      delete from discover_postings p using deleted_users o
        where p.activity = any(o.activities) and p.cell = o.discover_cell and p.user_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_discover_postings_delete after delete on users
    referencing old table as deleted_users for each statement execute function discover_postings_on_delete()`.execute(
    db,
  );

  await sql`create function discover_postings_on_truncate() returns trigger language plpgsql as $$
    begin
      truncate discover_postings;
      return null;
    end $$`.execute(db);
  await sql`create trigger users_discover_postings_truncate after truncate on users
    for each statement execute function discover_postings_on_truncate()`.execute(db);

  // Backfill.
  await sql`insert into discover_postings (${postingColumns})
    ${postingsOf('u')} from users u cross join lateral unnest(u.activities) as a(activity)
    where ${searchable('u')}`.execute(db);
  // Popular activities and big cities are not independent of each other; without these
  // the planner multiplies their frequencies.
  await sql`create statistics discover_postings_activity_cell_stats (mcv, dependencies) on activity, cell from discover_postings`.execute(
    db,
  );
  await sql`analyze discover_postings`.execute(db);

  // The search no longer reads the GIN index of 0006 (nor its key function); dropping it
  // saves its upkeep on every write.
  await sql`drop statistics if exists users_discover_keys_stats`.execute(db);
  await sql`drop index if exists users_discover_idx`.execute(db);
  await sql`drop function if exists discover_keys(text[], integer)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create function discover_keys(activities text[], cell int) returns text[]
    language sql immutable parallel safe
    return array(select a || '@' || cell::text from unnest(activities) as a)`.execute(db);
  await sql`create index users_discover_idx on users using gin (discover_keys(activities, discover_cell))
    where onboarding_complete`.execute(db);
  await sql`create statistics users_discover_keys_stats on (discover_keys(activities, discover_cell)) from users`.execute(
    db,
  );
  await sql`drop trigger if exists users_discover_postings_truncate on users`.execute(db);
  await sql`drop trigger if exists users_discover_postings_delete on users`.execute(db);
  await sql`drop trigger if exists users_discover_postings_update on users`.execute(db);
  await sql`drop trigger if exists users_discover_postings_insert on users`.execute(db);
  await sql`drop function if exists discover_postings_on_truncate()`.execute(db);
  await sql`drop function if exists discover_postings_on_delete()`.execute(db);
  await sql`drop function if exists discover_postings_on_update()`.execute(db);
  await sql`drop function if exists discover_postings_on_insert()`.execute(db);
  await sql`drop table if exists discover_postings`.execute(db);
  await sql`drop function if exists discover_active_day(timestamptz)`.execute(db);
}
