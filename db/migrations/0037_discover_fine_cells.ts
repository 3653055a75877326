// Discover for a city of millions (issue 42): a dense search reads the people nearest first
// and stops after a bounded number of postings (lib/discover/search.ts, boundedPeople).
//
// - Fine cells of about 1 km inside each Discover cell, of the public point (the triggers
//   compute it from the stored public point; a generated column cannot read another one):
//   discover_fine_cell() mirrored by lib/discover/cells.ts fineCellOf: 25 sub-rows of 0.01° latitude per row of cells, and as
//   many sub-columns per cell as the row's cells are km wide; id = sub-row * 4096 + sub-column.
// - discover_postings carries the fine cell, and its key becomes (activity, cell, fine_cell,
//   user_id): one fine cell's postings of one activity are one index range, and the exact
//   search's (activity, cell) prefix still reads a whole cell.
// - A person's postings also name each pair of their first PAIR_ACTIVITIES activities, as
//   "a+b" (a < b in C order): the people who share two searched activities are one index
//   range of their own, so a dense search reads them further out than everyone else.
// The trigger functions are written out in full (as 0033 left them, plus the fine cell), and
// every delete names the fine cell, so it stays a lookup by the whole key.
import { sql, type Kysely } from 'kysely';
import { replacePostings } from './0033_person_consent';

/** Pairs are made of a person's first this-many activities (a person may list 20: 190 pairs). */
export const PAIR_ACTIVITIES = 8;

const fineCellOf = (row: string) => `discover_fine_cell(${row}.public_latitude, ${row}.public_longitude)`;

const SEARCHABLE = (row: string) =>
  `${row}.onboarding_complete and ${row}.discover_cell is not null and not ${row}.awaiting_person_consent`;

function postingsSql() {
  /** The posting keys of the row: its activities and their pairs. */
  const keys = (row: string) => `${row}.activities || discover_activity_pairs(${row}.activities)`;
  const columns = sql.raw(
    `activity, cell, fine_cell, user_id, public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade, active_day, timezone`,
  );
  const postingsOf = (row: string) =>
    sql.raw(`select distinct a.activity, ${row}.discover_cell, ${fineCellOf(row)}, ${row}.id,
        ${row}.public_latitude, ${row}.public_longitude, ${row}.schedule, ${row}.gender, ${row}.birthday,
        ${row}.show_age_by_decade, discover_active_day(${row}.last_active_at), ${row}.timezone`);
  const keyOf = (row: string, alias: string) =>
    sql.raw(
      `${alias}.activity = any(${keys(row)}) and ${alias}.cell = ${row}.discover_cell
        and ${alias}.fine_cell = ${fineCellOf(row)} and ${alias}.user_id = ${row}.id`,
    );
  return { columns, postingsOf, keyOf, keys };
}

async function replaceFunctions(db: Kysely<any>): Promise<void> {
  const { columns, postingsOf, keyOf, keys } = postingsSql();
  await sql`create or replace function discover_postings_on_insert() returns trigger language plpgsql as $$
    begin
      insert into discover_postings (${columns})
        ${postingsOf('n')} from inserted_users n cross join lateral unnest(${sql.raw(keys('n'))}) as a(activity)
        where ${sql.raw(SEARCHABLE('n'))};
      return null;
    end $$`.execute(db);
  await sql`create or replace function discover_postings_on_update() returns trigger language plpgsql as $$
    begin
      delete from discover_postings p where ${keyOf('old', 'p')};
      if ${sql.raw(SEARCHABLE('new'))} then
        insert into discover_postings (${columns})
          ${postingsOf('new')} from unnest(${sql.raw(keys('new'))}) as a(activity);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create or replace function discover_postings_on_delete() returns trigger language plpgsql as $$
    begin
      delete from discover_postings p using deleted_users o where ${keyOf('o', 'p')};
      return null;
    end $$`.execute(db);
}

async function rebuildPostings(db: Kysely<any>): Promise<void> {
  const { columns, postingsOf, keys } = postingsSql();
  await sql`insert into discover_postings (${columns})
    ${postingsOf('u')} from users u cross join lateral unnest(${sql.raw(keys('u'))}) as a(activity)
    where ${sql.raw(SEARCHABLE('u'))}`.execute(db);
  await sql`analyze discover_postings`.execute(db);
}

const INCLUDED = sql.raw(
  'public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade, active_day, timezone',
);

export async function up(db: Kysely<any>): Promise<void> {
  // About 1 km per sub-column at the row's middle latitude (a grid constant, not a distance).
  await sql`create function discover_fine_columns(row_index int) returns int
    language sql immutable parallel safe
    return greatest(1, floor(discover_lon_width(row_index) * 111.32::float8
      * cos(radians((row_index + 0.5) * 0.25::float8 - 90))))::int`.execute(db);
  await sql`create function discover_fine_cell(lat float8, lon float8) returns int
    language sql immutable parallel safe
    return least(24, greatest(0, floor((lat + 90) * 100)::int - discover_row(lat) * 25)) * 4096
      + least(discover_fine_columns(discover_row(lat)) - 1, greatest(0,
          floor((lon + 180) / discover_lon_width(discover_row(lat)) * discover_fine_columns(discover_row(lat)))::int
          - discover_fine_columns(discover_row(lat)) * (discover_cell(lat, lon) - discover_row(lat) * 1440)))`.execute(
    db,
  );
  // "a+b" for each pair of the first activities, a < b byte by byte (as JavaScript compares them).
  await sql`create function discover_activity_pairs(activities text[]) returns text[]
    language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct a || '+' || b), '{}') from unnest(activities[1:${sql.lit(PAIR_ACTIVITIES)}]) a,
        unnest(activities[1:${sql.lit(PAIR_ACTIVITIES)}]) b where a collate "C" < b collate "C"
    $$`.execute(db);
  // The update trigger fires on a move already (public_latitude/longitude): no new condition.
  await sql`truncate discover_postings`.execute(db);
  await sql`alter table discover_postings drop constraint discover_postings_pkey, add column fine_cell int not null`.execute(
    db,
  );
  await sql`alter table discover_postings add constraint discover_postings_pkey
    primary key (activity, cell, fine_cell, user_id) include (${INCLUDED})`.execute(db);
  await replaceFunctions(db);
  await rebuildPostings(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`truncate discover_postings`.execute(db);
  await sql`alter table discover_postings drop constraint discover_postings_pkey, drop column fine_cell`.execute(db);
  await sql`alter table discover_postings add constraint discover_postings_pkey
    primary key (activity, cell, user_id) include (${INCLUDED})`.execute(db);
  // 0033's functions and update trigger and 0007's delete function, word for word, then the
  // postings from users.
  await replacePostings(db, true, true);
  await sql`create or replace function discover_postings_on_delete() returns trigger language plpgsql as $$
    begin
      delete from discover_postings p using deleted_users o
        where p.activity = any(o.activities) and p.cell = o.discover_cell and p.user_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`drop function discover_activity_pairs(text[])`.execute(db);
  await sql`drop function discover_fine_cell(float8, float8)`.execute(db);
  await sql`drop function discover_fine_columns(int)`.execute(db);
}
