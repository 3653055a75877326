// The migrations, proven both ways on a scratch database (embedded PostgreSQL, or a fresh
// database on DATABASE_URL's server): up to the latest, every down back to nothing, and up
// again to the very same schema. Then db/types.ts is held against that schema.
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchDatabase } from '../e2e/support/stack';
import { readCatalog, type Catalog, type CatalogColumn } from './catalog';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations/index';
import { readDeclaredTables } from './row-types';

// Kysely's own bookkeeping, which stays when every migration is down.
const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];
// Created by 0004 with `if not exists` (they may predate it, and other objects may use them),
// so its down leaves them; the second up finds them in place.
const EXTENSIONS_LEFT_BY_DOWN = ['cube', 'earthdistance'];
// rate-limiter-flexible's own table (0008): only that library reads and writes it.
const TABLES_WITHOUT_ROW_TYPES = ['public.rate_limits'];

let stopDatabase: (() => Promise<void>) | undefined;
let db: Kysely<any>;
const migrator = () => new Migrator({ db, provider: { getMigrations: async () => migrations } });

const isMigratorObject = (text: string) =>
  MIGRATOR_TABLES.some((t) => text.includes(`public.${t}`) || text.includes(` ${t}`));
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
  const database = await startScratchDatabase('buddy-schema-');
  stopDatabase = database.stop;
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // An idle connection the server ends (57P01, as the scratch server stops) is no failure of
  // these tests, which assert through their queries; unheard, it crashed the test process.
  pool.on('error', () => {});
  db = new Kysely({ dialect: new PostgresDialect({ pool }) });
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await stopDatabase?.();
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
    // One per activity, and one for the pair of them (0037).
    expect(rows[0]?.n).toBe(3);
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

// The pg type parsers of db/index.ts decide what a select returns: int8 and DATE are set there.
function expectedKinds(column: CatalogColumn): string[] | 'any' {
  const scalar = (udt: string): string | 'any' => {
    if (
      [
        'uuid',
        'text',
        'varchar',
        'bpchar',
        'bit',
        'varbit',
        'numeric',
        'cube',
        'tsvector',
        'inet',
        'date',
        'xid8',
      ].includes(udt)
    ) {
      return 'string';
    }
    if (['int2', 'int4', 'int8', 'float4', 'float8'].includes(udt)) return 'number';
    if (udt === 'bool') return 'boolean';
    if (udt === 'timestamptz' || udt === 'timestamp') return 'Date';
    if (udt === 'bytea') return 'Buffer';
    if (udt === 'json' || udt === 'jsonb') return 'any';
    throw new Error(
      `${column.table}.${column.name}: this test does not know what a ${udt} column returns; add it here`,
    );
  };
  const kind = column.udt.startsWith('_') ? `${scalar(column.udt.slice(1))}[]` : scalar(column.udt);
  if (kind === 'any' || kind === 'any[]') return 'any';
  return column.notNull ? [kind] : [kind, 'null'].sort();
}

describe('db/types.ts', () => {
  it('declares every table and column of the migrated schema, with the types a select returns', async () => {
    const columns = (await readCatalog(db)).columns.filter(
      (c) => c.table.startsWith('public.') && !MIGRATOR_TABLES.includes(c.table.slice('public.'.length)),
    );
    const declared = readDeclaredTables();
    const problems: string[] = [];
    const tables = new Set(columns.map((c) => c.table));
    for (const table of tables) {
      const name = table.slice('public.'.length);
      if (TABLES_WITHOUT_ROW_TYPES.includes(table)) {
        if (declared[name]) problems.push(`${name}: listed as having no row type, but DB has one`);
        continue;
      }
      if (!declared[name]) problems.push(`${name}: a table with no row type in DB`);
    }
    for (const name of Object.keys(declared)) {
      if (!tables.has(`public.${name}`)) problems.push(`${name}: in DB, but no such table`);
    }
    for (const column of columns) {
      const types = declared[column.table.slice('public.'.length)];
      if (!types) continue;
      const where = `${column.table.slice('public.'.length)}.${column.name} (${column.type}${column.notNull ? ' not null' : ''})`;
      const mine = types[column.name];
      if (!mine) {
        problems.push(`${where}: not declared`);
        continue;
      }
      const expected = expectedKinds(column);
      if (expected !== 'any' && mine.select.join(' | ') !== expected.join(' | ')) {
        problems.push(`${where}: declared ${mine.select.join(' | ')}, a select returns ${expected.join(' | ')}`);
      }
      const generated = column.generated !== '' || column.identity === 'a';
      const hasDefault = column.default !== null || column.identity !== '';
      if (generated && mine.insert !== 'never')
        problems.push(`${where}: generated, so an insert cannot give it (GeneratedAlways)`);
      if (!generated && mine.insert === 'never' && !hasDefault)
        problems.push(`${where}: an insert must give it, but the type forbids it`);
      if (mine.insert === 'optional' && column.notNull && !hasDefault) {
        problems.push(`${where}: has no default, so an insert must give it (the type makes it optional)`);
      }
    }
    for (const [table, columnsOfTable] of Object.entries(declared)) {
      for (const column of Object.keys(columnsOfTable)) {
        if (tables.has(`public.${table}`) && !columns.some((c) => c.table === `public.${table}` && c.name === column)) {
          problems.push(`${table}.${column}: declared, but no such column`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
