// The Discover benchmark's population, generated inside PostgreSQL: millions of profiles in
// minutes (lib/discover/seed.ts builds each person in TypeScript and ships it over the wire,
// ~10,000 a second on a quiet machine and ~230 a second on a busy one; at 2M that was hours).
//
// Same shape of data as seedDemoUsers, drawn from the same generator where it matters:
//  - a pool of personas (gender, name, 1-6 activities with the popularity skew, 1-3
//    availability phrases and their grid, About me, avatar) made by demoProfile itself, so
//    the activity mix and the schedules are the TypeScript seeder's; each person draws one;
//  - the place in SQL with demoProfile's arithmetic: a city of the gazetteer weighted by
//    population, a Gaussian distance of the city's spread on a uniform bearing;
//  - age, last activity and sign-up date with demoProfile's distributions;
//  - the time zone of the city's centre (tz-lookup, once per city) rather than of each
//    exact point: it differs only for the few people a city's jitter carries over a border.
// PostgreSQL itself then computes what it computes for every writer: the public point and
// the cell (generated columns) and the postings (the insert trigger). Two things make that
// fast, both undone at the end, so this is for scratch databases with no other writer:
//  - The public point's SQL functions (0018) are not inlined (strict bodies with least/greatest,
//    arguments used more than once), so one row's public point was ~50 nested function calls
//    and the place hash computed six times: ~1.3 ms of CPU per row, most of seeding. For the
//    load, public_point_latitude/longitude get PL/pgSQL bodies with the same expressions,
//    each computed once; the original bodies are put back after it and a sample of the stored
//    points is checked against them (the run fails on any difference).
//  - The indexes of users and the postings are dropped for the load and rebuilt from their
//    own definitions after it (one sort each instead of millions of random inserts).
import { sql } from 'kysely';
import type { Database } from '../db';
import { type DemoPlace, demoProfile, seedReference } from '../lib/discover/seed';
import { timezoneForPoint } from '../lib/geo/timezone';
import { seededRandom } from '../lib/seeded-random';

export interface SqlSeedOptions {
  count: number;
  /** Only these places (weighted by population), e.g. one metro; all the gazetteer's largest by default. */
  places?: readonly DemoPlace[];
  passwordHash: string;
  /** Same seed, same population (personas from the PRNG, the rest from PostgreSQL's setseed). */
  seed?: number;
  tag?: string;
  now?: Date;
  /** People per INSERT statement (each its own transaction). */
  chunk?: number;
  personas?: number;
  onProgress?: (inserted: number) => void;
}

/** Rows per unnest() insert of the reference tables. */
const REFERENCE_BATCH = 5000;

/** Inserts `count` complete demo profiles generated in SQL; returns how many. */
export async function seedDemoUsersInSql(db: Database, options: SqlSeedOptions): Promise<number> {
  const seed = options.seed ?? 20_260_101;
  const tag = options.tag ?? Date.now().toString(36).slice(-5);
  const now = options.now ?? new Date();
  const chunk = options.chunk ?? 100_000;
  const personaCount = Math.min(options.personas ?? 65_536, Math.max(1000, options.count));
  const ref = seedReference();
  const allPlaces = options.places ?? ref.places;
  let weight = 0;
  const placeWeights = options.places ? options.places.map((p) => (weight += p.population)) : [...ref.placeWeights];
  const random = seededRandom(seed);

  // Temporary tables live in one session: everything runs on one connection.
  return db.connection().execute(async (conn) => {
    await sql`create temporary table seed_places (
      cum float8 not null, latitude float8 not null, longitude float8 not null, spread_km float8 not null,
      lon_scale float8 not null, location text not null, public_location text not null, timezone text not null)`.execute(
      conn,
    );
    for (let from = 0; from < allPlaces.length; from += REFERENCE_BATCH) {
      const places = allPlaces.slice(from, from + REFERENCE_BATCH);
      const column = <T>(f: (p: (typeof places)[number], i: number) => T) => places.map((p, i) => f(p, from + i));
      await sql`insert into seed_places
        select * from unnest(${column((_, i) => placeWeights[i]!)}::float8[], ${column((p) => p.latitude)}::float8[],
          ${column((p) => p.longitude)}::float8[], ${column((p) => p.spreadKm)}::float8[],
          ${column((p) => 111.32 * Math.max(0.05, Math.cos((p.latitude * Math.PI) / 180)))}::float8[],
          ${column((p) => (p.region ? `${p.name}, ${p.region}` : `${p.name}, ${p.country}`))}::text[],
          ${column((p) => p.label)}::text[], ${column((p) => timezoneForPoint(p.latitude, p.longitude))}::text[])`.execute(
        conn,
      );
    }
    await sql`create index on seed_places (cum)`.execute(conn);
    const totalWeight = placeWeights[placeWeights.length - 1]!;

    await sql`create temporary table seed_personas (
      i int primary key, slug_prefix text not null, display_name text not null, about_me text not null,
      gender text not null, show_age_by_decade boolean not null, activities text[] not null,
      availability_text text not null, schedule bit(126) not null, photo_url text not null)`.execute(conn);
    for (let from = 0; from < personaCount; from += REFERENCE_BATCH) {
      const size = Math.min(REFERENCE_BATCH, personaCount - from);
      // Places and dates drawn here are discarded: SQL draws its own per person.
      const people = Array.from({ length: size }, (_, i) => demoProfile(from + i, 'p', ref, random, now));
      const column = <T>(f: (p: (typeof people)[number]) => T) => people.map(f);
      await sql`insert into seed_personas
        select t.i, t.slug_prefix, t.display_name, t.about_me, t.gender, t.show_age_by_decade,
               string_to_array(t.activities, ','), t.availability_text, t.schedule::bit(126), t.photo_url
        from unnest(${people.map((_, i) => from + i)}::int[],
          ${column((p) => p.slug.slice(0, p.slug.lastIndexOf('-p-')))}::text[], ${column((p) => p.display_name)}::text[],
          ${column((p) => p.about_me)}::text[], ${column((p) => p.gender)}::text[],
          ${column((p) => p.show_age_by_decade)}::boolean[], ${column((p) => p.activities.join(','))}::text[],
          ${column((p) => p.availability_text)}::text[], ${column((p) => p.schedule)}::text[],
          ${column((p) => p.photo_url)}::text[])
        as t(i, slug_prefix, display_name, about_me, gender, show_age_by_decade, activities, availability_text, schedule, photo_url)`.execute(
        conn,
      );
    }

    const originals = await swapInFastPublicPoint(conn);
    const indexes = await dropIndexes(conn);
    // setseed makes random() repeatable within this session.
    await sql`select setseed(${((seed % 2_000_000) - 1_000_000) / 1_000_001})`.execute(conn);
    let inserted = 0;
    try {
      while (inserted < options.count) {
        const size = Math.min(chunk, options.count - inserted);
        await insertChunk(conn, {
          from: inserted,
          size,
          tag,
          now,
          personaCount,
          totalWeight,
          passwordHash: options.passwordHash,
        });
        inserted += size;
        options.onProgress?.(inserted);
      }
    } finally {
      for (const definition of originals) await sql.raw(definition).execute(conn);
      await restoreIndexes(conn, indexes);
      await sql`drop table seed_places, seed_personas`.execute(conn);
    }
    await checkPublicPoints(conn, 1000);
    return inserted;
  });
}

async function insertChunk(
  conn: Database,
  c: {
    from: number;
    size: number;
    tag: string;
    now: Date;
    personaCount: number;
    totalWeight: number;
    passwordHash: string;
  },
): Promise<void> {
  // The inner select draws every random number of a person in its own target list (evaluated
  // once per row, in order); the outer one turns them into a profile as demoProfile does.
  await sql`
    insert into users (email, password_hash, slug, display_name, about_me, city, location, home_location, public_location,
                       latitude, longitude, coords_source, gender, birthday, show_age_by_decade, activities,
                       availability_text, schedule, photo_url, onboarding_complete, last_active_at, created_at, updated_at,
                       agent_name, timezone, timezone_source)
    select 'demo-' || ${c.tag} || '-' || r.g || '@example.com', ${c.passwordHash}, q.slug_prefix || '-' || ${c.tag} || '-' || r.g,
           q.display_name, q.about_me, null, p.location, p.location, p.public_location,
           round(greatest(-89.9, least(89.9, p.latitude + r.z_distance * p.spread_km * cos(r.bearing) / 111.32)) * 1e6) / 1e6,
           round(wrapped_longitude(p.longitude + r.z_distance * p.spread_km * sin(r.bearing) / p.lon_scale) * 1e6) / 1e6,
           'client', q.gender,
           (${c.now}::timestamptz - (round(least(70, greatest(18, 33 + r.z_age * 9))) * 365.25 + r.u_birthday * 364)
             * interval '1 day') at time zone 'UTC',
           q.show_age_by_decade, q.activities, q.availability_text, q.schedule, q.photo_url, true,
           r.last_active, r.last_active - r.u_created * 300 * interval '1 day', r.last_active - r.u_created * 300 * interval '1 day',
           'seed-demo', p.timezone, 'coords'
    from (select g, floor(random() * ${c.personaCount})::int as persona, random() * ${c.totalWeight}::float8 as place_weight,
                 abs(sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())) as z_distance, 2 * pi() * random() as bearing,
                 sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) as z_age, random() as u_birthday,
                 ${c.now}::timestamptz - least(120, -ln(1 - random()) * 10) * interval '1 day' as last_active,
                 random() as u_created
          from generate_series(${c.from}::int, ${c.from + c.size - 1}::int) g) r
    join seed_personas q on q.i = r.persona
    cross join lateral (select * from seed_places p where p.cum >= r.place_weight order by p.cum limit 1) p`.execute(
    conn,
  );
}

interface SavedIndex {
  table: string;
  name: string;
  /** `alter table … add constraint …` for a constraint's index, `create index …` otherwise. */
  create: string;
  constraint: boolean;
}

/** Drops the indexes of users and discover_postings that no foreign key needs, keeping their definitions. */
async function dropIndexes(conn: Database): Promise<SavedIndex[]> {
  const { rows } = await sql<SavedIndex>`
    select t.relname as "table", coalesce(c.conname, i.relname) as name, c.conname is not null as "constraint",
           case when c.conname is not null
             then format('alter table %I add constraint %I %s', t.relname, c.conname, pg_get_constraintdef(c.oid))
             else pg_get_indexdef(i.oid) end as "create"
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    left join pg_constraint c on c.conindid = i.oid and c.contype in ('p', 'u', 'x')
    where t.relname in ('users', 'discover_postings') and t.relnamespace = 'public'::regnamespace
      -- Foreign keys from other tables hang on these; keeping them costs one index, not a rebuild.
      and not exists (select 1 from pg_constraint f where f.confrelid = t.oid and f.conindid = i.oid)`.execute(conn);
  for (const index of rows) {
    if (index.constraint)
      await sql`alter table ${sql.id(index.table)} drop constraint ${sql.id(index.name)}`.execute(conn);
    else await sql`drop index ${sql.id(index.name)}`.execute(conn);
  }
  return rows;
}

async function restoreIndexes(conn: Database, indexes: readonly SavedIndex[]): Promise<void> {
  // Sorting a million keys wants more than the 64 MB default.
  await sql`set maintenance_work_mem = '512MB'`.execute(conn);
  for (const index of indexes) await sql.raw(index.create).execute(conn);
  await sql`reset maintenance_work_mem`.execute(conn);
}

const CELL_DEGREES = '0.00899320363724538::float8';

/**
 * Replaces public_point_latitude/longitude with PL/pgSQL bodies that compute 0018's very
 * expressions once each (the grid shift, row, columns, column, place hash, bearing, angle);
 * returns the original definitions to put back.
 */
export async function swapInFastPublicPoint(conn: Database): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_functiondef(p.oid) as definition from pg_proc p
    where p.proname in ('public_point_latitude', 'public_point_longitude') and p.pronamespace = 'public'::regnamespace
    order by p.proname`.execute(conn);
  if (rows.length !== 2) throw new Error('public_point_latitude/longitude not found: is the schema migrated?');
  // displaced_latitude/longitude (0009) inlined too: they are strict, hence the null checks.
  const body = (result: string) => `
    declare
      grid bytea := sha256(uuid_send(seed) || '\\x02'::bytea);
      row_shift float8 := public_point_fraction(grid, 0);
      row_index int := floor(lat / ${CELL_DEGREES} + row_shift)::int;
      columns int := greatest(1, floor(360 * cos(radians((row_index + 0.5::float8 - row_shift) * ${CELL_DEGREES}))
        / ${CELL_DEGREES}))::int;
      column_index int := mod(floor((wrapped_longitude(lon) + 180) * columns / 360 + public_point_fraction(grid, 4))::int,
        columns);
      place bytea := case when source = 'gazetteer' then public_point_hash(seed, source)
        else sha256(uuid_send(seed) || '\\x00'::bytea || int4send(row_index) || int4send(column_index)) end;
      bearing float8 := 2 * pi() * public_point_fraction(place, 0);
      angle float8 := (0.7::float8 + 0.6::float8 * public_point_fraction(place, 4)) / 6371.0088::float8;
      displaced float8;
    begin
      if lat is null or bearing is null or angle is null then return null; end if;
      displaced := degrees(asin(least(1::float8, greatest(-1::float8,
        sin(radians(lat)) * cos(angle) + cos(radians(lat)) * sin(angle) * cos(bearing)))));
      return ${result};
    end`;
  await sql
    .raw(`create or replace function public_point_latitude(lat float8, lon float8, seed uuid, source text) returns float8
      language plpgsql immutable parallel safe as $fn$${body('displaced')}$fn$`)
    .execute(conn);
  await sql
    .raw(`create or replace function public_point_longitude(lat float8, lon float8, seed uuid, source text) returns float8
      language plpgsql immutable parallel safe as $fn$${body(`case when lon is null then null else wrapped_longitude(lon + degrees(atan2(
        sin(bearing) * sin(angle) * cos(radians(lat)), cos(angle) - sin(radians(lat)) * sin(radians(displaced))))) end`)}$fn$`)
    .execute(conn);
  return rows.map((r) => r.definition);
}

/** Recomputes a sample of the stored public points and cells with the original functions; throws on any difference. */
async function checkPublicPoints(conn: Database, sample: number): Promise<void> {
  const { rows } = await sql<{ checked: number; wrong: number }>`
    select count(*)::int as checked, count(*) filter (where
      public_latitude is distinct from public_point_latitude(latitude, longitude, location_seed, coords_source)
      or public_longitude is distinct from public_point_longitude(latitude, longitude, location_seed, coords_source)
      or discover_cell is distinct from discover_cell(public_point_latitude(latitude, longitude, location_seed, coords_source),
        public_point_longitude(latitude, longitude, location_seed, coords_source)))::int as wrong
    from (select * from users where agent_name = 'seed-demo' order by random() limit ${sample}) u`.execute(conn);
  const { checked, wrong } = rows[0]!;
  if (wrong > 0) throw new Error(`${wrong} of ${checked} seeded public points differ from the schema's functions`);
}
