// `npm run bench:discover`: Discover at scale. A fresh embedded PostgreSQL is seeded with
// a baseline population (10,000) and the full one (1,000,000, or several), one database each,
// and all are measured turn about: p50/p95/p99 of the domain call in process and over HTTP, for callers
// in the densest seeded city and in a sparse one (radius 25 km, two activities,
// overlap >= 2 hours), with the EXPLAIN (ANALYZE, BUFFERS) plan of each.
//
//   npm run bench:discover -- [--users 1000000[,2000000…]] [--baseline 10000] [--iterations 200] [--no-http]
//     [--seeder sql|ts] [--grow] [--metro]
//
// --metro puts every profile in the densest city (Shanghai, its usual ~12 km spread): a metro
// of N profiles rather than N spread over 5,000 cities.
// --grow (with --no-http) seeds one database from size to size and measures each as it is
// reached: 2M rows of seeding for 1M and 2M instead of 3M.
//
// The populations are generated inside PostgreSQL (scripts/bench-discover-seed.ts: 2M in
// minutes); `--seeder ts` uses the demo seeder (lib/discover/seed.ts) instead, as before.
// PostgreSQL's CPU per search is read from /proc around a run of searches made alone
// (the client backends' CPU time, scripts/bench-cpu.ts), so Linux only.
//
// It is a script, not a test: it needs minutes and most of a small machine.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
// db/index sets the DATE and INT8 type parsers the domain code relies on.
import type { Database } from '../db';
import '../db';
import type { DB } from '../db/types';
import { startEmbeddedPostgres } from '../db/embedded';
import { freePort } from '../lib/net/free-port';
import { migrateToLatest } from '../db/migrate';
import { prepareMarkedStatements } from '../db/prepared';
import { generatePassword, hashPassword } from '../lib/core/secrets';
import { mintAccessToken } from '../lib/accounts/tokens';
import { gridToBits, parseAvailabilityText } from '../lib/availability';
import { discoverQuerySchema, type DiscoverQuery } from '../lib/contract/discover';
import { discover, discoverQuery, distanceSql, searchForCaller } from '../lib/discover';
import { DISCOVER_POSTINGS_CEILING, rankedPage } from '../lib/discover/search';
import { compareWithExact, qualityCallers, type QualityReport } from './discover-quality';
import { seedDemoUsers, seedReference, type DemoPlace } from '../lib/discover/seed';
import { distanceKm } from '../lib/geo';
import { serverArgs } from '../server/command';
import { processCpuMs } from './bench-cpu';
import { seedDemoUsersInSql } from './bench-discover-seed';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000000' },
    baseline: { type: 'string', default: '10000' },
    iterations: { type: 'string', default: '200' },
    'no-http': { type: 'boolean', default: false },
    seeder: { type: 'string', default: 'sql' },
    grow: { type: 'boolean', default: false },
    metro: { type: 'boolean', default: false },
    'no-exact': { type: 'boolean', default: false },
    quality: { type: 'string', default: '100' },
  },
});
// One population or several (--users 1000000,2000000), each in its own database.
const TOTALS = values.users.split(',').map(Number);
const BASELINE = Number(values.baseline);
const ITERATIONS = Number(values.iterations);
const WARMUP = Math.max(5, Math.round(ITERATIONS / 10));
const HTTP = !values['no-http'];
const SEEDER = values.seeder;
// One database grown from size to size, measured at each (HTTP is not measured): a third less
// seeding for 1M and 2M, at the price of measuring the sizes one after the other.
const GROW = values.grow;
// Everyone in the densest city (its usual spread, ~12 km): "2M profiles in one metro".
const METRO = values.metro;
// The exact search (the reference) measured turn about with the bounded one, and the bounded
// first page compared with the exact one for this many of the population's own people.
const EXACT = !values['no-exact'];
const QUALITY_CALLERS = Number(values.quality);
const root = path.resolve(import.meta.dirname, '..');

// The benchmark searches: two activities, overlap >= 2 hours, 25 km.
const SEARCHES: { activities: [string, string]; availability: string }[] = [
  { activities: ['tennis', 'hiking'], availability: 'weekend mornings' },
  { activities: ['running', 'yoga'], availability: 'weekday evenings' },
  { activities: ['board_games', 'coffee'], availability: 'weekends' },
  { activities: ['rock_climbing', 'swimming'], availability: 'Tuesday and Thursday evenings, Saturday' },
  { activities: ['road_cycling', 'craft_beer'], availability: 'Sunday, Wednesday evenings' },
];
const QUERY_PARAMS = { radius_km: '25', available: '2' };

interface Caller {
  id: string;
  token: string;
  query: DiscoverQuery;
  url: string;
}

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  results: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function stats(samples: number[], results: number): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: samples.reduce((s, x) => s + x, 0) / samples.length,
    results,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const log = (line: string) => console.log(line);

/** The smallest seeded city with no other seeded city within 60 km: few people nearby. */
function sparsePlace(places: readonly DemoPlace[]): DemoPlace {
  for (let i = places.length - 1; i >= 0; i--) {
    const candidate = places[i]!;
    if (places.every((other, j) => j === i || distanceKm(candidate, other) > 60)) return candidate;
  }
  return places[places.length - 1]!;
}

async function createCallers(
  db: Database,
  place: DemoPlace,
  label: string,
  passwordHash: string,
  baseUrl: string,
): Promise<Caller[]> {
  const callers: Caller[] = [];
  for (const [i, search] of SEARCHES.entries()) {
    const grid = parseAvailabilityText(search.availability).grid;
    const row = await db
      .insertInto('users')
      .values({
        email: `bench-${label}-${i}@example.com`,
        password_hash: passwordHash,
        slug: `bench-${label}-${i}`,
        display_name: `Bench ${label} ${i}`,
        about_me: 'Benchmark caller',
        location: place.label,
        home_location: place.label,
        public_location: place.label,
        // A little off the centre, as a real person would be.
        latitude: place.latitude + 0.01 * i,
        longitude: place.longitude - 0.01 * i,
        coords_source: 'client',
        gender: 'female',
        birthday: '1990-05-05',
        activities: [...search.activities],
        availability_text: search.availability,
        schedule: gridToBits(grid),
        photo_url: `${baseUrl}/demo-avatars/BC-200.svg`,
        onboarding_complete: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = await mintAccessToken(db, row.id, { label: 'bench' });
    const params = { ...QUERY_PARAMS, activities: search.activities.join(',') };
    callers.push({
      id: row.id,
      token: token.token,
      query: discoverQuerySchema.parse(params),
      url: `/api/v1/discover.json?${new URLSearchParams(params).toString()}`,
    });
  }
  return callers;
}

/** Calls each group in turn (one call from each, round and round), so all share the same moments. */
async function measureTurnAbout(
  groups: { callers: readonly Caller[]; call: (caller: Caller) => Promise<number> }[],
): Promise<Stats[]> {
  for (let i = 0; i < WARMUP; i++)
    for (const group of groups) await group.call(group.callers[i % group.callers.length]!);
  const samples = groups.map(() => [] as number[]);
  const results = groups.map(() => 0);
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [g, group] of groups.entries()) {
      const started = performance.now();
      results[g] = results[g]! + (await group.call(group.callers[i % group.callers.length]!));
      samples[g]!.push(performance.now() - started);
    }
  }
  return samples.map((s, g) => stats(s, results[g]! / ITERATIONS));
}

async function httpCall(baseUrl: string, caller: Caller): Promise<number> {
  const res = await fetch(`${baseUrl}${caller.url}`, { headers: { authorization: `Bearer ${caller.token}` } });
  const body = (await res.json()) as { results?: unknown[] };
  if (res.status !== 200 || !body.results)
    throw new Error(`discover answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.results.length;
}

/** The plan of the bounded search's ranked statement (after it chose its radius and fine cells). */
async function explain(db: Database, caller: Caller): Promise<string> {
  const search = await searchForCaller(db, caller.id, caller.query, { asOf: new Date(), after: null });
  const { used } = await rankedPage(db, search);
  const query = discoverQuery({ ...search, ...used });
  const plan = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers) ${query}`.execute(db);
  return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** People within `km` of the place, as a search counts them: by their public points. */
async function peopleWithin(db: Database, place: DemoPlace, km: number): Promise<number> {
  const dLat = km / 111;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from users u
    where onboarding_complete and public_latitude between ${place.latitude - dLat}::float8 and ${place.latitude + dLat}::float8
      and ${distanceSql(place.latitude, place.longitude)} <= ${km}::float8`.execute(db);
  return rows[0]!.n;
}

async function startServer(
  databaseUrl: string,
  dataDir: string,
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      // It measures the search, not the per-person limit (each caller searches hundreds of times).
      DISCOVER_LIMIT_PER_HOUR: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('The server did not start in time');
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    baseUrl,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    },
  };
}

interface Round {
  population: number;
  seedSeconds: number;
  quality?: QualityReport;
  /** PostgreSQL CPU per write that changes the postings, ms. */
  writes?: { move: number; activities: number };
  cities: {
    label: string;
    place: string;
    nearby: number;
    load: number;
    inProcess: Stats;
    /** The exact search (the whole circle), measured turn about with the bounded one. */
    exact: Stats | null;
    http: Stats | null;
    cpu: CpuPerSearch | null;
    plan: string;
  }[];
}

interface CpuPerSearch {
  /** PostgreSQL's CPU per in-process Discover call (every statement of it), ms. */
  ms: number;
  /** Of which the ranked search alone (what DATABASE_READ_URLS sends to a replica), ms. */
  rankedMs: number;
  /** The ranked search alone with every statement unnamed (as behind a transaction pooler), ms: the planning named statements save. */
  rankedUnnamedMs: number;
  calls: number;
  load: number;
}

/** CPU ms of the server's client backends (the connections that run the searches), by pid. */
async function backendCpuMs(db: Database): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity where backend_type = 'client backend'`.execute(db);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, processCpuMs(pid));
    } catch {
      // ended meanwhile
    }
  }
  return cpu;
}

/** CPU the client backends used between two readings (a backend new since the first counts whole). */
function spent(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * PostgreSQL's CPU per Discover call: the CPU time of the client backends around `calls`
 * calls made one after another (background processes such as the checkpointer and
 * autovacuum, busy after seeding, are left out). The clock ticks at 10 ms, so a few hundred
 * calls make the figure good to a few percent.
 */
async function postgresCpuPerSearch(
  db: Database,
  unnamed: Database,
  callers: readonly Caller[],
  calls: number,
): Promise<CpuPerSearch | null> {
  if (process.platform !== 'linux') return null;
  const load = os.loadavg()[0]!;
  const before = await backendCpuMs(db);
  for (let i = 0; i < calls; i++) {
    const caller = callers[i % callers.length]!;
    await discover(db, caller.id, caller.query, { baseUrl: 'http://bench' });
  }
  const whole = spent(before, await backendCpuMs(db));
  const searches = await Promise.all(
    callers.map((c) => searchForCaller(db, c.id, c.query, { asOf: new Date(), after: null })),
  );
  // The ranked search with and without named statements, turn about in rounds of ten calls (the
  // backends of the two pools are told apart by pid), so the load is the same for both.
  const pidsOf = async (on: Database) => {
    const pids = new Set<number>();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        pids.add((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(on)).rows[0]!.pid);
      }),
    );
    return pids;
  };
  const unnamedPids = await pidsOf(unnamed);
  let ranked = 0;
  let rankedUnnamed = 0;
  for (let round = 0; round < calls; round += 10) {
    for (const [on, add] of [
      [db, (ms: number) => (ranked += ms)],
      [unnamed, (ms: number) => (rankedUnnamed += ms)],
    ] as const) {
      const before = await backendCpuMs(db);
      for (let i = round; i < Math.min(calls, round + 10); i++) await rankedPage(on, searches[i % searches.length]!);
      const after = await backendCpuMs(db);
      // Only the backends of the pool that ran: the other pool's idle ones add nothing anyway.
      let used = 0;
      for (const [pid, cpuMs] of after)
        if (unnamedPids.has(pid) === (on === unnamed)) used += cpuMs - (before.get(pid) ?? 0);
      add(used);
    }
  }
  return {
    ms: whole / calls,
    rankedMs: ranked / calls,
    rankedUnnamedMs: rankedUnnamed / calls,
    calls,
    load: (load + os.loadavg()[0]!) / 2,
  };
}

/**
 * PostgreSQL's CPU per write that changes what Discover reads, on `count` of the population's
 * own people one statement each: half move about 1 km (a new public point, fine cell and
 * postings), half change their activities (the postings and pairs rewritten).
 */
async function postgresCpuPerWrite(db: Database, count: number): Promise<{ move: number; activities: number } | null> {
  if (process.platform !== 'linux') return null;
  const { rows } = await sql<{ id: string; activities: string[] }>`select id, activities from users
    where agent_name = 'seed-demo' order by md5(id::text) limit ${2 * count}::int`.execute(db);
  const timed = async (people: typeof rows, write: (person: (typeof rows)[number]) => Promise<unknown>) => {
    const before = await backendCpuMs(db);
    for (const person of people) await write(person);
    return spent(before, await backendCpuMs(db)) / Math.max(1, people.length);
  };
  const move = await timed(rows.slice(0, count), (person) =>
    sql`update users set latitude = latitude + 0.01, longitude = longitude - 0.01 where id = ${person.id}::uuid`.execute(
      db,
    ),
  );
  const activities = await timed(rows.slice(count), (person) =>
    sql`update users set activities = ${[...person.activities.slice(1), 'chess'].filter((a, i, all) => all.indexOf(a) === i)}::text[]
      where id = ${person.id}::uuid`.execute(db),
  );
  return { move, activities };
}

/** One population in its own database of the benchmark's server. */
interface Population {
  size: number;
  url: string;
  db: Database;
  /** The same database with every statement unnamed, for the planning's share of the CPU. */
  unnamed: Database;
  callers: { dense: Caller[]; sparse: Caller[] };
  server?: Awaited<ReturnType<typeof startServer>>;
  seedSeconds: number;
}

async function main(): Promise<void> {
  if (!(TOTALS.every((total) => total >= BASELINE) && BASELINE >= 1 && ITERATIONS >= 10))
    throw new Error('Need every --users >= --baseline >= 1 and --iterations >= 10');
  if (SEEDER !== 'sql' && SEEDER !== 'ts') throw new Error('--seeder is sql or ts');
  if (METRO && SEEDER !== 'sql') throw new Error('--metro needs the SQL seeder');
  if (GROW && HTTP) throw new Error('--grow measures in process only: add --no-http');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'buddy-bench-'));
  fs.chmodSync(dataDir, 0o755);
  log(`Fresh embedded PostgreSQL in ${dataDir}`);
  const database = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), {
    persistent: false,
    // A server sized for its data, as production would be; the rest is PostgreSQL's defaults.
    settings: { shared_buffers: '1GB', max_wal_size: '4GB', checkpoint_timeout: '30min' },
  });
  const pools: pg.Pool[] = [];
  const connect = (url: string, prepared = true): Database => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // Stopping the server at the end terminates idle connections; that is not an error here.
    pool.on('error', () => {});
    // As the app connects without a transaction pooler: Discover's statements by name (db/prepared.ts).
    if (prepared) prepareMarkedStatements(pool);
    pools.push(pool);
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  };
  const populations: Population[] = [];
  try {
    const passwordHash = await hashPassword(generatePassword());
    const places = seedReference().places;
    const dense = places[0]!;
    const sparse = sparsePlace(places);
    // The two populations live in two databases of one server and are measured turn
    // about, call by call: on a shared machine whose load swings from minute to minute,
    // measuring one after the other would compare the load as much as the populations.
    const sizes = [...new Set([BASELINE, ...TOTALS])].sort((a, b) => a - b);
    const grown: Round[] = [];
    for (const [i, size] of sizes.entries()) {
      const previous = GROW ? populations[populations.length - 1] : undefined;
      const url = i === 0 || previous ? database.url : await createDatabase(database.url, `buddy_${size}`);
      const db = previous?.db ?? connect(url);
      if (!previous) await migrateToLatest(db);
      if (i === 0) log((await sql<{ v: string }>`select version() as v`.execute(db)).rows[0]!.v);
      const callers = previous?.callers ?? {
        dense: await createCallers(db, dense, 'dense', passwordHash, 'http://bench'),
        sparse: await createCallers(db, sparse, 'sparse', passwordHash, 'http://bench'),
      };
      const count = size - (previous?.size ?? 0);
      const started = Date.now();
      log(`Seeding ${count.toLocaleString('en')} demo users${previous ? ` (to ${size.toLocaleString('en')})` : ''}…`);
      let lastReport = 0;
      const onProgress = (n: number) => {
        if (Date.now() - lastReport > 15_000) {
          lastReport = Date.now();
          log(
            `  ${n.toLocaleString('en')} (${((Date.now() - started) / 1000).toFixed(0)} s, load ${os.loadavg()[0]!.toFixed(1)})`,
          );
        }
      };
      if (SEEDER === 'ts') await seedDemoUsers(db, { count, passwordHash, seed: size, batchSize: 5000, onProgress });
      else
        await seedDemoUsersInSql(db, {
          count,
          passwordHash,
          seed: size,
          onProgress,
          places: METRO ? [dense] : undefined,
        });
      const seedSeconds = (Date.now() - started) / 1000;
      // Autovacuum does this in production (inserts alone trigger it since PostgreSQL 13);
      // run at once here so the postings' visibility map lets the search stay index-only.
      await sql`vacuum analyze users`.execute(db);
      await sql`vacuum analyze discover_postings`.execute(db);
      // The seeding's dirty pages written now, not by a checkpoint in the middle of the timings.
      await sql`checkpoint`.execute(db);
      log(`Seeded ${size.toLocaleString('en')} in ${seedSeconds.toFixed(1)} s (+ vacuum analyze)`);
      populations.push({ size, url, db, unnamed: connect(url, false), callers, seedSeconds });
      if (GROW) {
        // Each size measured as soon as it exists (and reported, in case a later size takes too long).
        grown.push(...(await measure([populations[populations.length - 1]!], { dense, sparse })));
        report(grown);
      }
    }
    if (GROW) return;
    if (HTTP) {
      log('Starting the app servers (builds first if the sources changed)…');
      for (const population of populations) population.server = await startServer(population.url, dataDir);
    }

    report(await measure(populations, { dense, sparse }));
  } finally {
    for (const population of populations) await population.server?.stop();
    for (const pool of pools) await pool.end().catch(() => {});
    await database.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(
  populations: Population[],
  { dense, sparse }: { dense: DemoPlace; sparse: DemoPlace },
): Promise<Round[]> {
  const rounds: Round[] = populations.map((p) => ({ population: p.size, seedSeconds: p.seedSeconds, cities: [] }));
  for (const [label, place] of [
    ['dense', dense],
    ['sparse', sparse],
  ] as const) {
    const nearby = await Promise.all(populations.map((p) => peopleWithin(p.db, place, 25)));
    // The machine is shared: the 1-minute load average says how busy it was.
    const load = os.loadavg()[0]!;
    // The bounded search and the exact one (the reference), turn about, call by call.
    const turns = await measureTurnAbout([
      ...populations.map((p) => ({
        callers: p.callers[label],
        call: async (caller: Caller) =>
          (await discover(p.db, caller.id, caller.query, { baseUrl: 'http://bench' })).results.length,
      })),
      ...(EXACT
        ? populations.map((p) => ({
            callers: p.callers[label],
            call: async (caller: Caller) =>
              Math.min(
                20,
                (
                  await discoverQuery(
                    await searchForCaller(p.db, caller.id, caller.query, { asOf: new Date(), after: null }),
                  ).execute(p.db)
                ).rows.length,
              ),
          }))
        : []),
    ]);
    const local = turns.slice(0, populations.length);
    const exact = EXACT ? turns.slice(populations.length) : [];
    const http = HTTP
      ? await measureTurnAbout(
          populations.map((p) => ({
            callers: p.callers[label],
            call: (caller: Caller) => httpCall(p.server!.baseUrl, caller),
          })),
        )
      : null;
    // One population at a time, so each one's CPU is its own.
    const cpu: (CpuPerSearch | null)[] = [];
    for (const p of populations) cpu.push(await postgresCpuPerSearch(p.db, p.unnamed, p.callers[label], ITERATIONS));
    for (const [i, population] of populations.entries()) {
      const plan = await explain(population.db, population.callers[label][0]!);
      rounds[i]!.cities.push({
        label,
        place: place.label,
        nearby: nearby[i]!,
        load,
        inProcess: local[i]!,
        exact: exact[i] ?? null,
        http: http?.[i] ?? null,
        cpu: cpu[i] ?? null,
        plan,
      });
      log(
        `  ${population.size.toLocaleString('en')}, ${label} (${place.label}, ${nearby[i]!.toLocaleString('en')} people within 25 km): ` +
          `in-process p95 ${ms(local[i]!.p95)}` +
          (exact[i] ? ` (exact search ${ms(exact[i]!.p95)})` : '') +
          (http ? `, HTTP p95 ${ms(http[i]!.p95)}` : '') +
          (cpu[i]
            ? `, PostgreSQL CPU ${ms(cpu[i]!.ms)} per search (ranked page ${ms(cpu[i]!.rankedMs)}; unnamed ${ms(cpu[i]!.rankedUnnamedMs)})`
            : ''),
      );
    }
  }
  for (const [i, population] of populations.entries()) {
    const writes = await postgresCpuPerWrite(population.db, 200);
    if (writes) {
      rounds[i]!.writes = writes;
      log(
        `  ${population.size.toLocaleString('en')}: PostgreSQL CPU per write ${ms(writes.move)} (a move), ${ms(writes.activities)} (new activities)`,
      );
    }
    if (QUALITY_CALLERS <= 0) continue;
    const callers = await qualityCallers(population.db, QUALITY_CALLERS, METRO ? undefined : dense.label);
    rounds[i]!.quality = await compareWithExact(population.db, callers);
    const q = rounds[i]!.quality!;
    log(
      `  ${population.size.toLocaleString('en')}: recall ${q.recallMean.toFixed(3)} (least ${q.recallMin.toFixed(2)}), ` +
        `score ratio ${q.scoreRatioMean.toFixed(3)} over ${q.judged} callers`,
    );
  }
  return rounds;
}

async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function report(rounds: Round[]): void {
  log('\n# Discover benchmark');
  log(
    `radius 25 km, two activities, overlap >= 2 h, limit 20; ${ITERATIONS} calls per row after ${WARMUP} warm-up calls,`,
  );
  log(
    `cycling over ${SEARCHES.length} callers per city with different activity pairs and schedules; ${os.cpus().length} CPUs;`,
  );
  log(
    `${GROW ? 'one database grown and measured at each size' : 'the populations measured turn about, call by call'}. Seeding: ${rounds.map((r) => `${r.population.toLocaleString('en')} in ${r.seedSeconds.toFixed(1)} s`).join(', ')}.\n`,
  );
  log(
    '| population | caller | people within 25 km | results | in-process p50 / p95 / p99 | exact search p50 / p95 | HTTP p50 / p95 / p99 | load | PostgreSQL CPU per search / ranked page alone / ranked page unnamed (load) |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  for (const round of rounds) {
    for (const city of round.cities) {
      const local = city.inProcess;
      const http = city.http ? `${ms(city.http.p50)} / ${ms(city.http.p95)} / ${ms(city.http.p99)}` : 'not measured';
      log(
        `| ${round.population.toLocaleString('en')} | ${city.label}: ${city.place} | ${city.nearby.toLocaleString('en')} | ` +
          `${local.results.toFixed(1)} | ${ms(local.p50)} / ${ms(local.p95)} / ${ms(local.p99)} | ` +
          `${city.exact ? `${ms(city.exact.p50)} / ${ms(city.exact.p95)}` : 'not measured'} | ${http} | ${city.load.toFixed(1)} | ` +
          `${city.cpu ? `${ms(city.cpu.ms)} / ${ms(city.cpu.rankedMs)} / ${ms(city.cpu.rankedUnnamedMs)} (${city.cpu.load.toFixed(1)})` : 'not measured'} |`,
      );
    }
  }
  const judged = rounds.filter((r) => r.quality);
  if (judged.length > 0) {
    log(
      `\nThe bounded first page (20) against the exact one, for ${QUALITY_CALLERS} of the population's own people ` +
        `(${METRO ? 'all in the metro' : 'in the densest city'}), each searching two of their activities in their own free time, 25 km, available 2. ` +
        `A search reads at most ${DISCOVER_POSTINGS_CEILING.toLocaleString('en')} postings.\n`,
    );
    log(
      '| population | recall mean / least | score ratio | radius used (km) min / median | two or more shared: radius min / median | postings read max / median | exact search postings median | whole circle (identical) |',
    );
    log('|---|---|---|---|---|---|---|---|');
    for (const round of judged) {
      const q = round.quality!;
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const radii = q.callers.map((c) => c.radiusKmUsed);
      const pairRadii = q.callers.map((c) => c.pairsRadiusKm);
      log(
        `| ${round.population.toLocaleString('en')} | ${q.recallMean.toFixed(3)} / ${q.recallMin.toFixed(2)} | ${q.scoreRatioMean.toFixed(3)} | ` +
          `${Math.min(...radii)} / ${median(radii)} | ${Math.min(...pairRadii)} / ${median(pairRadii)} | ${q.postingsReadMax.toLocaleString('en')} / ${median(q.callers.map((c) => c.postingsRead)).toLocaleString('en')} | ` +
          `${median(q.callers.map((c) => c.exactPostings)).toLocaleString('en')} | ${q.whole} (${q.wholeIdentical}) |`,
      );
    }
  }
  for (const round of rounds.filter((r) => r.writes)) {
    log(
      `\nWrites at ${round.population.toLocaleString('en')}: PostgreSQL CPU ${ms(round.writes!.move)} per move (~1 km), ` +
        `${ms(round.writes!.activities)} per change of activities (200 of each, one statement each).`,
    );
  }
  const small = rounds[0];
  if (small && rounds.length > 1) {
    log('\nGrowth (p95 at each population / p95 at the baseline):');
    for (const large of rounds.slice(1)) {
      for (const city of large.cities) {
        const base = small.cities.find((c) => c.label === city.label);
        if (!base) continue;
        const ratio = (a: Stats | null, b: Stats | null) => (a && b ? `${(a.p95 / b.p95).toFixed(2)}x` : 'n/a');
        log(
          `  ${large.population.toLocaleString('en')}, ${city.label}: in-process ${ratio(city.inProcess, base.inProcess)}, ` +
            `HTTP ${ratio(city.http, base.http)}`,
        );
      }
    }
  }
  for (const round of rounds) {
    for (const city of round.cities) {
      log(`\n## EXPLAIN (ANALYZE, BUFFERS): ${city.label} caller, ${round.population.toLocaleString('en')} profiles\n`);
      log(city.plan);
    }
  }
}

await main();
