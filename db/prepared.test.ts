// Statements marked prepared() run by name on a real PostgreSQL: parsed once per connection
// and then planned generically where PostgreSQL judges it as cheap; unmarked ones, and every
// statement of a pool that must not name them (a transaction pooler), stay unnamed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchDatabase } from '../e2e/support/stack';
import { namedStatementsAllowed } from '../lib/core/database-env';
import { createDb, type Database } from './index';
import { MAX_PREPARED_PER_CONNECTION, PREPARED_MARK, prepared, statementName } from './prepared';

let url = '';
let stopDatabase: () => Promise<void> = async () => {};
const dbs: Database[] = [];

/** One connection, so every statement lands where pg_prepared_statements is read. */
function oneConnection(prepareMarked: boolean): Database {
  const db = createDb(url, 1, { prepareMarked });
  dbs.push(db);
  return db;
}

const namedHere = async (db: Database) =>
  (
    await sql<{
      name: string;
      generic_plans: number;
      custom_plans: number;
    }>`select name, generic_plans::int, custom_plans::int from pg_prepared_statements order by name`.execute(db)
  ).rows;

const plusOne = (n: number) => prepared(sql<{ n: number }>`select ${n}::int + 1 as n`);

beforeAll(async () => {
  const database = await startScratchDatabase('buddy-prepared-');
  url = database.url;
  stopDatabase = database.stop;
}, 120_000);

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.destroy().catch(() => {})));
  await stopDatabase();
});

describe('statements marked prepared()', () => {
  it('run by the name of their text, parsed once, and move to a generic plan', async () => {
    const db = oneConnection(true);
    const compiled = plusOne(1).compile(db);
    expect(compiled.sql.startsWith(PREPARED_MARK)).toBe(true);
    const answers: number[] = [];
    for (let n = 0; n < 8; n++) answers.push((await plusOne(n).execute(db)).rows[0]!.n);
    expect(answers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await sql`select ${1}::int as unmarked`.execute(db);
    const named = await namedHere(db);
    expect(named.map((s) => s.name)).toEqual([statementName(compiled.sql)]);
    // PostgreSQL's own choice (plan_cache_mode = auto): five custom plans, then the generic one.
    expect(named[0]).toMatchObject({ custom_plans: 5, generic_plans: 3 });
  });

  it(`name at most ${MAX_PREPARED_PER_CONNECTION} shapes a connection; later shapes still run, unnamed`, async () => {
    const db = oneConnection(true);
    const shapes = Array.from({ length: MAX_PREPARED_PER_CONNECTION + 3 }, (_, i) =>
      prepared(sql<{ n: number }>`select ${i}::int as n, ${sql.lit(i)} as shape`),
    );
    for (const [i, shape] of shapes.entries()) expect((await shape.execute(db)).rows[0]!.n).toBe(i);
    // Twice: a named shape runs by its name again, a later one still unnamed.
    for (const [i, shape] of shapes.entries()) expect((await shape.execute(db)).rows[0]!.n).toBe(i);
    const named = await namedHere(db);
    expect(named).toHaveLength(MAX_PREPARED_PER_CONNECTION);
    expect(named.map((s) => s.name).sort()).toEqual(
      shapes
        .slice(0, MAX_PREPARED_PER_CONNECTION)
        .map((shape) => statementName(shape.compile(db).sql))
        .sort(),
    );
  });

  it('stay unnamed on a pool that may not name them', async () => {
    const db = oneConnection(false);
    for (let n = 0; n < 3; n++) expect((await plusOne(n).execute(db)).rows[0]!.n).toBe(n + 1);
    expect(await namedHere(db)).toEqual([]);
  });

  it("marked generic, plan generically from the first run, and leave the connection's other statements on auto", async () => {
    const db = oneConnection(true);
    const modeNow = async () =>
      (await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(db)).rows[0]!.mode;
    const genericPlusOne = (n: number) =>
      prepared(
        sql<{ n: number; mode: string }>`select ${n}::int + 1 as n, current_setting('plan_cache_mode') as mode`,
        'generic',
      );
    const seen: string[] = [];
    for (let n = 0; n < 3; n++) {
      const row = (await genericPlusOne(n).execute(db)).rows[0]!;
      expect(row.n).toBe(n + 1);
      seen.push(row.mode, await modeNow());
    }
    // Set just before the marked statement, reset before the next other one (a skewed column's
    // unnamed query took 70 ms instead of 0.3 under force_generic_plan).
    expect(seen).toEqual(Array(3).fill(['force_generic_plan', 'auto']).flat());
    expect((await plusOne(1).execute(db)).rows[0]!.n).toBe(2);
    const generic = (await namedHere(db)).find((s) => s.name === statementName(genericPlusOne(0).compile(db).sql));
    expect(generic).toMatchObject({ custom_plans: 0, generic_plans: 3 });
  });

  it('are named only where no transaction pooler is declared (DATABASE_DIRECT_URL)', () => {
    expect(namedStatementsAllowed({ DATABASE_URL: 'postgres://db/app' })).toBe(true);
    expect(namedStatementsAllowed({})).toBe(true);
    expect(
      namedStatementsAllowed({ DATABASE_URL: 'postgres://bouncer/app', DATABASE_DIRECT_URL: 'postgres://db/app' }),
    ).toBe(false);
  });
});
