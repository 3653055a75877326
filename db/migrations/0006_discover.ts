// Discover: one GIN index answers "who likes one of these activities in one of these grid
// cells", so a search touches only people who match both, however dense the city;
// users.last_active_at feeds the "recent activity" part of the ranking. No extension is
// needed: distances are plain haversine arithmetic on the few rows the index returns.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Touched with the token's last_used_at (at most once a minute) and in no index, so
  // the update stays a cheap HOT update.
  await sql`alter table users add column last_active_at timestamptz`.execute(db);
  await sql`update users u set last_active_at = greatest(u.updated_at,
    (select max(t.last_used_at) from access_tokens t where t.user_id = u.id))`.execute(db);
  await sql`alter table users alter column last_active_at set default now(), alter column last_active_at set not null`.execute(
    db,
  );

  // The search grid (mirrored by lib/discover/cells.ts; change both or neither): rows of
  // 0.25° latitude, cells 20-30 km wide (wider in degrees towards the poles), cell id =
  // row * 1440 + column. Plain SQL expressions, so PostgreSQL can inline them.
  await sql`create function discover_row(lat float8) returns int
    language sql immutable parallel safe
    return least(719, greatest(0, floor((lat + 90) / 0.25::float8)))::int`.execute(db);
  // By row: 200-519 is 40°S-40°N, 120-599 60°S-60°N, and so on; above 88° one cell per row.
  await sql`create function discover_lon_width(row_index int) returns float8
    language sql immutable parallel safe
    return case
      when row_index between 200 and 519 then 0.25::float8
      when row_index between 120 and 599 then 0.4::float8
      when row_index between 80 and 639 then 0.6::float8
      when row_index between 48 and 671 then 1::float8
      when row_index between 24 and 695 then 2::float8
      when row_index between 8 and 711 then 5::float8
      else 360::float8 end`.execute(db);
  await sql`create function discover_cell(lat float8, lon float8) returns int
    language sql immutable parallel safe
    return discover_row(lat) * 1440
      + least(floor(360 / discover_lon_width(discover_row(lat)))::int - 1,
              greatest(0, floor((lon + 180) / discover_lon_width(discover_row(lat))))::int)`.execute(db);
  // Stored, so it is computed once per write and plans read "discover_cell".
  await sql`alter table users add column discover_cell int generated always as (discover_cell(latitude, longitude)) stored`.execute(
    db,
  );

  // One GIN index over "activity@cell" keys: {tennis, hiking} in cell 698165 gives
  // {tennis@698165, hiking@698165}. "Has tennis or hiking in one of these cells" is then
  // a handful of small posting lists: a search reads only the rows that match both,
  // however dense the city. (A two-column GIN over activities and [cell] is smaller, but
  // each search must intersect the huge "hiking" list: its index step was 5x slower at 1M.)
  // Only complete profiles are ever searched, so the index is partial.
  await sql`create function discover_keys(activities text[], cell int) returns text[]
    language sql immutable parallel safe
    return array(select a || '@' || cell::text from unnest(activities) as a)`.execute(db);
  await sql`create index users_discover_idx on users using gin (discover_keys(activities, discover_cell))
    where onboarding_complete`.execute(db);
  // The planner ignores a partial index's statistics; without these it guesses 0.5% of
  // the table per key (86,000 rows instead of 1,400 at 1M people) and may pick parallel
  // workers or JIT for what is a small query.
  await sql`create statistics users_discover_keys_stats on (discover_keys(activities, discover_cell)) from users`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop statistics if exists users_discover_keys_stats`.execute(db);
  await sql`drop index if exists users_discover_idx`.execute(db);
  await sql`drop function if exists discover_keys(text[], int)`.execute(db);
  await sql`alter table users drop column if exists discover_cell`.execute(db);
  await sql`drop function if exists discover_cell(float8, float8)`.execute(db);
  await sql`drop function if exists discover_lon_width(int)`.execute(db);
  await sql`drop function if exists discover_row(float8)`.execute(db);
  await sql`alter table users drop column if exists last_active_at`.execute(db);
}
