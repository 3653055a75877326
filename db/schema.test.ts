// The migrations, proven both ways on a scratch database (embedded PostgreSQL, or a fresh
// database on DATABASE_URL's server): up to the latest, every down back to nothing, and up
// again to the very same schema. Then db/types.ts is held against that schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDatabase } from '../e2e/support/stack';
import { readCatalog, type Catalog } from './catalog';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations/index';

// Kysely's own bookkeeping, which stays when every migration is down.
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];
// Created by 0004 with `if not exists` (they may predate it, and other objects may use them),
// so its down leaves them; the second up finds them in place.
const EXTENSIONS_LEFT_BY_DOWN = ['cube', 'earthdistance'];

let dataDir: string;
let stopDatabase: (() => Promise<void>) | undefined;
let db: Kysely<any>;
const migrator = () => new Migrator({ db, provider: { getMigrations: async () => migrations } });

const isMigratorObject = (text: string) => MIGRATOR_TABLES.some((t) => text.includes(`public.${t}`) || text.includes(` ${t}`));
/** A catalog without the migrator's tables and the extensions a down leaves, for comparing states. */
function comparable(catalog: Catalog): Catalog {
  return {
    ...catalog,
    extensions: catalog.extensions.filter((e) => !EXTENSIONS_LEFT_BY_DOWN.includes(e.split(' ')[0]!)),
    relations: catalog.relations.filter((r) => !isMigratorObject(r)),
    columns: catalog.columns.filter((c) => !MIGRATOR_TABLES.includes(c.table.slice('public.'.length))),
    constraints: catalog.constraints.filter((c) => !isMigratorObject(c)),
    indexes: catalog.indexes.filter((i) => !isMigratorObject(i)),
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'buddy-schema-'));
  // As root the embedded server runs as the `postgres` user, which must reach its data dir.
  fs.chmodSync(dataDir, 0o755);
  const database = await startTestDatabase(dataDir);
  stopDatabase = database.stop;
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await stopDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('migrations', () => {
  // The schema before each migration's up: its down must bring back exactly that.
  const before = new Map<string, Catalog>();
  let first: Catalog;

  it('go up one at a time to the latest', async () => {
    for (const name of Object.keys(migrations)) {
      before.set(name, await readCatalog(db));
      const { error, results } = await migrator().migrateUp();
      expect(error, String(error)).toBeUndefined();
      expect(results?.map((r) => `${r.migrationName} ${r.direction} ${r.status}`)).toEqual([`${name} Up Success`]);
    }
    first = await readCatalog(db);
    expect(first.relations.length).toBeGreaterThan(MIGRATOR_TABLES.length);
    // A searchable person (with postings, a public point, an inbox version), so the downs meet rows.
    await sql`insert into users (email, password_hash, slug, display_name, latitude, longitude, coords_source,
        activities, onboarding_complete)
      values ('ada@example.com', 'x', 'ada', 'Ada', 48.2, 16.37, 'client', '{tennis,hiking}', true)`.execute(db);
    await sql`select bump_inbox_version(id) from users`.execute(db);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from discover_postings`.execute(db);
    expect(rows[0]?.n).toBe(2);
  }, 120_000);

  it('go down one at a time, each down undoing exactly its up, to nothing', async () => {
    for (const name of Object.keys(migrations).reverse()) {
      const { error, results } = await migrator().migrateDown();
      expect(error, `${name} down: ${String(error)}`).toBeUndefined();
      expect(results?.map((r) => `${r.migrationName} ${r.direction} ${r.status}`)).toEqual([`${name} Down Success`]);
      expect(comparable(await readCatalog(db)), `the schema after ${name} down`).toEqual(comparable(before.get(name)!));
    }
    const empty = await readCatalog(db);
    const notMigrator = (text: string) => !isMigratorObject(text);
    expect({
      relations: empty.relations.filter(notMigrator),
      constraints: empty.constraints.filter(notMigrator),
      indexes: empty.indexes.filter(notMigrator),
      triggers: empty.triggers,
      functions: empty.functions,
      sequences: empty.sequences,
      types: empty.types,
      views: empty.views,
      statistics: empty.statistics,
      policies: empty.policies,
      schemas: empty.schemas,
      extensions: empty.extensions.map((e) => e.split(' ')[0]).filter((e) => e !== 'plpgsql'),
    }).toEqual({
      relations: [],
      constraints: [],
      indexes: [],
      triggers: [],
      functions: [],
      sequences: [],
      types: [],
      views: [],
      statistics: [],
      policies: [],
      schemas: ['public'],
      extensions: EXTENSIONS_LEFT_BY_DOWN,
    });
  }, 120_000);

  it('go up again to the same schema, catalog for catalog', async () => {
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
    const second = await readCatalog(db);
    expect(second).toEqual(first);
  }, 120_000);
});
