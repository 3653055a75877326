// Location privacy: everything others can observe of a person's place (Discover's
// distances, radius filter, cells and ranking) comes from a public point, never from the
// exact coordinates. The public point is the exact point moved by a secret displacement
// that is fixed per person: a bearing (uniform) and a distance (uniform in 0.7-1.3 km),
// drawn from a random per-person seed. Distances between public points, however finely
// an attacker measures them, recover the public point, which is at least 0.7 km from
// where the person is; since the displacement never changes, returning to a place yields
// the same public point again, so there is nothing to average.
//
// Points the gazetteer placed (a city's published centre, coords_source 'gazetteer') get
// an independent second displacement from the same seed: everyone knows those centres,
// so sharing one displacement with private points would hand it out.
//
// PostgreSQL computes it (generated columns), so every writer is covered: registration,
// PATCH, the geocoding job, the demo seed and plain SQL. The math is mirrored by
// lib/discover/public-point.ts (unit-tested); change both or neither.
import { sql, type Kysely } from 'kysely';

/** The postings' columns, their source in users, and the update trigger's condition (as in 0007, but public). */
function postingsSql(point: { latitude: string; longitude: string }) {
  const postingColumns = sql.raw(
    `activity, cell, user_id, ${point.latitude}, ${point.longitude}, schedule, gender, birthday, show_age_by_decade, active_day`,
  );
  const postingsOf = (row: string) =>
    sql.raw(`select distinct a.activity, ${row}.discover_cell, ${row}.id, ${row}.${point.latitude}, ${row}.${point.longitude}, ${row}.schedule,
        ${row}.gender, ${row}.birthday, ${row}.show_age_by_decade, discover_active_day(${row}.last_active_at)`);
  const searchable = (row: string) => sql.raw(`${row}.onboarding_complete and ${row}.discover_cell is not null`);
  return { postingColumns, postingsOf, searchable };
}

export async function replacePostingTriggers(
  db: Kysely<any>,
  point: { latitude: string; longitude: string },
): Promise<void> {
  const { postingColumns, postingsOf, searchable } = postingsSql(point);
  await sql`create or replace function discover_postings_on_insert() returns trigger language plpgsql as $$
    begin
      insert into discover_postings (${postingColumns})
        ${postingsOf('n')} from inserted_users n cross join lateral unnest(n.activities) as a(activity)
        where ${searchable('n')};
      return null;
    end $$`.execute(db);
  await sql`create or replace function discover_postings_on_update() returns trigger language plpgsql as $$
    begin
      delete from discover_postings where activity = any(old.activities) and cell = old.discover_cell and user_id = old.id;
      if ${searchable('new')} then
        insert into discover_postings (${postingColumns})
          ${postingsOf('new')} from unnest(new.activities) as a(activity);
      end if;
      return null;
    end $$`.execute(db);
  const latitude = sql.raw(point.latitude);
  const longitude = sql.raw(point.longitude);
  await sql`drop trigger if exists users_discover_postings_update on users`.execute(db);
  await sql`create trigger users_discover_postings_update after update on users for each row
    when (old.onboarding_complete is distinct from new.onboarding_complete
      or old.activities is distinct from new.activities
      or old.${latitude} is distinct from new.${latitude} or old.${longitude} is distinct from new.${longitude}
      or old.schedule is distinct from new.schedule
      or old.gender is distinct from new.gender
      or old.birthday is distinct from new.birthday
      or old.show_age_by_decade is distinct from new.show_age_by_decade
      or discover_active_day(old.last_active_at) is distinct from discover_active_day(new.last_active_at))
    execute function discover_postings_on_update()`.execute(db);
  // Rebuild: every cell and point changed.
  await sql`truncate discover_postings`.execute(db);
  await sql`insert into discover_postings (${postingColumns})
    ${postingsOf('u')} from users u cross join lateral unnest(u.activities) as a(activity)
    where ${searchable('u')}`.execute(db);
  await sql`analyze discover_postings`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  // The secret: 122 random bits from the server's strong random source. A volatile
  // default is evaluated per row, so existing people get their own seed here, and any
  // insert that does not name the column gets a fresh one. Never shown, never redrawn.
  await sql`alter table users add column location_seed uuid not null default gen_random_uuid()`.execute(db);

  // Two uniform numbers in [0, 1) per (seed, kind of point) from SHA-256 of the seed and
  // one byte for the kind: 0 for private points (the client's coordinates, the geocoder's
  // answer for a typed address), 1 for gazetteer centres.
  await sql`create function public_point_hash(seed uuid, source text) returns bytea
    language sql immutable parallel safe
    return sha256(uuid_send(seed) || case when source = 'gazetteer' then '\\x01'::bytea else '\\x00'::bytea end)`.execute(
    db,
  );
  await sql`create function public_point_fraction(hash bytea, byte_offset int) returns float8
    language sql immutable parallel safe
    return ('x' || encode(substring(hash from byte_offset + 1 for 4), 'hex'))::bit(32)::bigint / 4294967296::float8`.execute(
    db,
  );
  // Bearing in radians clockwise from north; distance as an angle on the Discover sphere
  // (6371.0088 km, lib/discover/cells.ts).
  await sql`create function public_point_bearing(seed uuid, source text) returns float8
    language sql immutable parallel safe
    return 2 * pi() * public_point_fraction(public_point_hash(seed, source), 0)`.execute(db);
  await sql`create function public_point_angle(seed uuid, source text) returns float8
    language sql immutable parallel safe
    return (0.7::float8 + 0.6::float8 * public_point_fraction(public_point_hash(seed, source), 4)) / 6371.0088::float8`.execute(
    db,
  );

  // The destination point on the sphere (bearing and angular distance from a start).
  // Strict: no coordinates, no public point (least/greatest would otherwise skip the null).
  await sql`create function displaced_latitude(lat float8, bearing float8, angle float8) returns float8
    language sql immutable strict parallel safe
    return degrees(asin(least(1::float8, greatest(-1::float8,
      sin(radians(lat)) * cos(angle) + cos(radians(lat)) * sin(angle) * cos(bearing)))))`.execute(db);
  await sql`create function wrapped_longitude(lon float8) returns float8
    language sql immutable parallel safe
    return lon - 360 * floor((lon + 180) / 360)`.execute(db);
  await sql`create function displaced_longitude(lat float8, lon float8, bearing float8, angle float8) returns float8
    language sql immutable strict parallel safe
    return wrapped_longitude(lon + degrees(atan2(sin(bearing) * sin(angle) * cos(radians(lat)),
      cos(angle) - sin(radians(lat)) * sin(radians(displaced_latitude(lat, bearing, angle))))))`.execute(db);

  await sql`create function public_latitude_of(lat float8, seed uuid, source text) returns float8
    language sql immutable parallel safe
    return displaced_latitude(lat, public_point_bearing(seed, source), public_point_angle(seed, source))`.execute(db);
  await sql`create function public_longitude_of(lat float8, lon float8, seed uuid, source text) returns float8
    language sql immutable parallel safe
    return displaced_longitude(lat, lon, public_point_bearing(seed, source), public_point_angle(seed, source))`.execute(
    db,
  );

  // The public point, and the search cell recomputed from it (a generated column cannot
  // read another, so the cell repeats the expression). Null when there are no coordinates.
  await sql`alter table users drop column discover_cell`.execute(db);
  await sql`alter table users
    add column public_latitude float8 generated always as (public_latitude_of(latitude, location_seed, coords_source)) stored,
    add column public_longitude float8 generated always as (public_longitude_of(latitude, longitude, location_seed, coords_source)) stored,
    add column discover_cell int generated always as (discover_cell(
      public_latitude_of(latitude, location_seed, coords_source),
      public_longitude_of(latitude, longitude, location_seed, coords_source))) stored`.execute(db);

  // The postings carry the public point (renamed, so nobody mistakes it for the exact one).
  await sql`alter table discover_postings rename column latitude to public_latitude`.execute(db);
  await sql`alter table discover_postings rename column longitude to public_longitude`.execute(db);
  await replacePostingTriggers(db, { latitude: 'public_latitude', longitude: 'public_longitude' });
  await sql`analyze users`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // Its condition reads the public point; replacePostingTriggers recreates it.
  await sql`drop trigger if exists users_discover_postings_update on users`.execute(db);
  await sql`alter table discover_postings rename column public_latitude to latitude`.execute(db);
  await sql`alter table discover_postings rename column public_longitude to longitude`.execute(db);
  await sql`alter table users drop column discover_cell`.execute(db);
  await sql`alter table users drop column public_latitude, drop column public_longitude, drop column location_seed`.execute(
    db,
  );
  await sql`alter table users add column discover_cell int generated always as (discover_cell(latitude, longitude)) stored`.execute(
    db,
  );
  await replacePostingTriggers(db, { latitude: 'latitude', longitude: 'longitude' });
  await sql`drop function if exists public_longitude_of(float8, float8, uuid, text)`.execute(db);
  await sql`drop function if exists public_latitude_of(float8, uuid, text)`.execute(db);
  await sql`drop function if exists displaced_longitude(float8, float8, float8, float8)`.execute(db);
  await sql`drop function if exists displaced_latitude(float8, float8, float8)`.execute(db);
  await sql`drop function if exists wrapped_longitude(float8)`.execute(db);
  await sql`drop function if exists public_point_angle(uuid, text)`.execute(db);
  await sql`drop function if exists public_point_bearing(uuid, text)`.execute(db);
  await sql`drop function if exists public_point_fraction(bytea, int)`.execute(db);
  await sql`drop function if exists public_point_hash(uuid, text)`.execute(db);
  await sql`analyze users`.execute(db);
}
