// The built-in events directory: events imported from iCalendar and JSON feeds,
// one row per occurrence, searchable by text, date, place and activity.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Both ship with PostgreSQL (contrib) and are trusted, so a database owner may create them.
  await sql`create extension if not exists cube`.execute(db);
  await sql`create extension if not exists earthdistance`.execute(db);

  await db.schema
    .createTable('events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('source', 'text', (c) => c.notNull())
    // Per occurrence: the feed's UID, plus '#<start>' for an occurrence of a recurring event.
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('series_uid', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('all_day', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('timezone', 'text')
    // The start's calendar date where the event happens: date_from/date_to compare with it.
    .addColumn('local_date', 'date', (c) => c.notNull())
    .addColumn('venue_name', 'text')
    .addColumn('venue_address', 'text')
    .addColumn('city', 'text')
    .addColumn('region', 'text')
    .addColumn('country', 'text')
    .addColumn('latitude', 'float8')
    .addColumn('longitude', 'float8')
    // ll_to_earth(latitude, longitude), written with the row. A plain column rather than an
    // expression index: earthdistance 1.1 (PostgreSQL <= 16) resolves cube functions through
    // search_path, which autovacuum and pg_restore empty, so an expression index would fail there.
    .addColumn('earth_point', sql`cube`)
    .addColumn('activity_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('categories', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('url', 'text')
    .addColumn('scraped_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('search', sql`tsvector`, (c) =>
      c
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('english'::regconfig, title), 'A') ||
            setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B') ||
            setweight(to_tsvector('english'::regconfig, coalesce(venue_name, '') || ' ' || coalesce(city, '')), 'C')`,
        )
        .stored(),
    )
    .addUniqueConstraint('events_source_uid_key', ['source', 'uid'])
    .addCheckConstraint('events_coords_pair', sql`(latitude is null) = (longitude is null)`)
    .addCheckConstraint('events_end_after_start', sql`ends_at >= starts_at`)
    .execute();

  await db.schema.createIndex('events_starts_at_idx').on('events').columns(['starts_at', 'id']).execute();
  await db.schema.createIndex('events_ends_at_idx').on('events').column('ends_at').execute();
  await db.schema.createIndex('events_local_date_idx').on('events').column('local_date').execute();
  await sql`create index events_search_idx on events using gin (search)`.execute(db);
  await sql`create index events_activity_ids_idx on events using gin (activity_ids)`.execute(db);
  await sql`create index events_city_idx on events (lower(city))`.execute(db);
  await sql`create index events_region_idx on events (lower(region))`.execute(db);
  await db.schema.createIndex('events_lat_lon_idx').on('events').columns(['latitude', 'longitude']).execute();
  // Nearest-first ordering (cube's <-> operator) is a GiST index scan.
  await sql`create index events_earth_point_idx on events using gist (earth_point)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('events').execute();
  // The extensions stay: other tables may use them.
}
