// `npm run bench:poll`: what a poll costs, on one instance of the real server and
// a fresh embedded PostgreSQL, turn about with a bare node:http + pg floor running
// the same SQL (scripts/bench-poll-floor.ts). Reports:
//   - full inbox poll and conditional (304) poll: req/s, p50/p99 (autocannon);
//   - the floor's full poll;
//   - long-poll wake latency across two instances (held on one, message sent on the other);
//   - RSS of one instance holding 10,000 idle long-polls;
//   - poll cost with 10k messages of history and with 1M (a second database in the same
//     PostgreSQL, seeded before its server starts), each on a fresh web instance with its
//     own floor, all measured turn about.
//
// Options (env): BENCH_SECONDS per run (default 8), BENCH_CONNECTIONS (20),
// BENCH_HELD (10000), BENCH_WAKES (50), BENCH_HISTORY (1000000), BENCH_ROUNDS (3); BENCH_ONLY=held runs
// only the held long-polls (on a second instance, as in the full run), BENCH_ONLY=polls
// only the full and conditional polls against the floor, on the 10k history;
// BENCH_SERVER_NODE_OPTIONS sets NODE_OPTIONS for the measured servers (not the floor).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createDb, type Database } from '../db';
import { defaultSince, inboxQueries } from '../lib/inbox/inbox';
import { inboxVersionQuery } from '../lib/chats/poll';
import { freePort } from '../lib/net/free-port';
import { freshDatabaseOn, type Stack, startServerProcess, startStack } from '../e2e/support/stack';
import { postgresCpuMs, postmasterPidOf, processCpuMs } from './bench-cpu';
import { buildIfNeeded } from './build-stamp';
import { register, seed, seedBackground, type Profile } from './bench-seed';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const HELD = Number(process.env.BENCH_HELD ?? 10_000);
const WAKES = Number(process.env.BENCH_WAKES ?? 50);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY_HELD = process.env.BENCH_ONLY === 'held';
const ONLY_POLLS = process.env.BENCH_ONLY === 'polls';
// Node flags for the measured servers only (not the floor), e.g. --max-semi-space-size=8.
const SERVER_ENV: Record<string, string> = process.env.BENCH_SERVER_NODE_OPTIONS
  ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS }
  : {};
const root = path.resolve(import.meta.dirname, '..');
const PROFILE: Profile = {
  label: '50 chats, 2,000 messages',
  chats: 50,
  messagesPerChat: 40,
  unreadChats: 10,
  unreadPerChat: 5,
  pendingRequests: 5,
};

interface Run {
  case: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** CPU ms per request: the serving process's and PostgreSQL's (all its backends). */
  cpu_ms: number;
  statuses: string;
}

/** The processes whose CPU a run costs: the server answering it, and PostgreSQL's postmaster. */
interface Meter {
  serverPid: number;
  postmasterPid: number | null;
}

async function cannon(label: string, url: string, headers: Record<string, string>, meter: Meter): Promise<Run> {
  const cpu = () => processCpuMs(meter.serverPid) + (meter.postmasterPid ? postgresCpuMs(meter.postmasterPid) : 0);
  const before = cpu();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const spent = cpu() - before;
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}×${(s as { count: number }).count}`)
    .join(' ');
  return {
    case: label,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    cpu_ms: Number((spent / Math.max(1, result.requests.total)).toFixed(3)),
    statuses,
  };
}

/** The req/s of the run whose case names `match`. */
const rps = (list: Run[], match: string) => list.find((r) => r.case.includes(match))!.rps;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function startFloor(databaseUrl: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/bench-poll-floor.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

/** One database's poller: its server, its floor (bare node:http + pg on the same database) and token. */
interface PollTarget {
  label: string;
  baseUrl: string;
  serverPid: number;
  floorUrl: string;
  floorPid: number;
  token: string;
}

/**
 * Turn about, ROUNDS times: each target's floor, full and conditional poll in turn, the
 * targets in the other order every other round, so drift on a shared machine and the
 * position in a round hit every case and both histories alike. Returns every run with its round.
 */
async function pollRounds(
  targets: readonly PollTarget[],
  postmasterPid: number | null,
): Promise<(Run & { round: number })[]> {
  const etags = new Map<PollTarget, string>();
  for (const target of targets) {
    const res = await fetch(`${target.baseUrl}/api/v1/inbox.json`, {
      headers: { authorization: `Bearer ${target.token}` },
    });
    etags.set(target, res.headers.get('etag')!);
  }
  const runs: (Run & { round: number })[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of round % 2 ? targets : [...targets].reverse()) {
      const auth = { authorization: `Bearer ${target.token}` };
      const inboxUrl = `${target.baseUrl}/api/v1/inbox.json`;
      const server = { serverPid: target.serverPid, postmasterPid };
      const floor = { serverPid: target.floorPid, postmasterPid };
      const cases: [string, string, Record<string, string>, Meter][] = [
        ['floor (node:http + pg, same 4 statements)', target.floorUrl, auth, floor],
        ['full GET /api/v1/inbox.json', inboxUrl, auth, server],
        ['conditional (If-None-Match → 304)', inboxUrl, { ...auth, 'if-none-match': etags.get(target)! }, server],
      ];
      for (const [name, url, headers, meter] of cases) {
        runs.push({ ...(await cannon(`${target.label}: ${name}`, url, headers, meter)), round });
      }
    }
  }
  return runs;
}

/** The better of the rounds of each case. */
function bestOf(runs: readonly (Run & { round: number })[]): Run[] {
  const best = new Map<string, Run & { round: number }>();
  for (const run of runs) if ((best.get(run.case)?.rps ?? -1) < run.rps) best.set(run.case, run);
  return [...best.values()].map(({ round: _round, ...run }) => run);
}

/**
 * What each statement of a poll reads, from EXPLAIN (ANALYZE, BUFFERS): shared buffers
 * touched (hit or read) and execution time. Pages touched do not depend on the machine's
 * load, so they show whether a poll's work grows with the history.
 */
async function pagesPerPoll(db: Database, userId: string): Promise<Record<string, { pages: number; ms: number }>> {
  const statements = {
    ...inboxQueries(db, userId, defaultSince(new Date())),
    version: inboxVersionQuery(db, userId),
  };
  const out: Record<string, { pages: number; ms: number }> = {};
  for (const [name, query] of Object.entries(statements)) {
    await query.execute(); // warm, as a polled statement is
    const [row] = await query.explain('json', sql`analyze, buffers`);
    const [plan] = row!['QUERY PLAN'] as { Plan: Record<string, number>; 'Execution Time': number }[];
    out[name] = {
      pages: plan!.Plan['Shared Hit Blocks']! + plan!.Plan['Shared Read Blocks']!,
      ms: Number(plan!['Execution Time'].toFixed(3)),
    };
  }
  return out;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function wakeLatency(
  db: Database,
  held: string,
  sender: { token: string },
  me: { token: string },
  chatId: string,
  via: string,
) {
  const samples: number[] = [];
  for (let i = 0; i < WAKES; i++) {
    const etag = (
      await fetch(`${held}/api/v1/inbox.json`, { headers: { authorization: `Bearer ${me.token}` } })
    ).headers.get('etag')!;
    let answeredAt = 0;
    const poll = fetch(`${held}/api/v1/inbox.json?wait=25`, {
      headers: { authorization: `Bearer ${me.token}`, 'if-none-match': etag },
    }).then(async (res) => {
      answeredAt = performance.now();
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`wake: expected 200, got ${res.status}`);
    });
    await new Promise((r) => setTimeout(r, 100));
    const sent = await fetch(`${via}/api/v1/chats/${chatId}/messages.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `wake ${i}` }),
    });
    const committedAt = performance.now();
    if (sent.status !== 201 && sent.status !== 200) throw new Error(`send failed: ${sent.status} ${await sent.text()}`);
    await poll;
    samples.push(Math.max(0, answeredAt - committedAt));
    // Read it, so the next round starts from a quiet inbox.
    await fetch(`${held}/api/v1/chats/${chatId}/read.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${me.token}` },
    });
  }
  void db;
  const sorted = samples.sort((a, b) => a - b);
  return {
    p50_ms: Number(percentile(sorted, 50).toFixed(1)),
    p99_ms: Number(percentile(sorted, 99).toFixed(1)),
    max_ms: Number(sorted.at(-1)!.toFixed(1)),
  };
}

/** HELD idle long-polls on one instance; RSS before, while all are held, and after. */
async function heldPolls(baseUrl: string, pid: number, token: string) {
  const etag = (
    await fetch(`${baseUrl}/api/v1/inbox.json`, { headers: { authorization: `Bearer ${token}` } })
  ).headers.get('etag')!;
  const before = rssMb(pid);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const url = new URL(`${baseUrl}/api/v1/inbox.json?wait=25`);
  let open = 0;
  let answered = 0;
  const statuses = new Map<number, number>();
  const errors = new Map<string, number>();
  const started = performance.now();
  // Opened in waves of 500, as agents arrive, not 10,000 SYNs in one millisecond.
  const requests: Promise<void>[] = [];
  let failed = 0;
  for (let wave = 0; wave < HELD; wave += 500) {
    requests.push(...Array.from({ length: Math.min(500, HELD - wave) }, () => openHeld()));
    await new Promise((r) => setTimeout(r, 100));
  }
  function openHeld(): Promise<void> {
    return new Promise<void>((resolve) => {
      const req = http.get(
        url,
        { agent, headers: { authorization: `Bearer ${token}`, 'if-none-match': etag } },
        (res) => {
          statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
          res.resume();
          res.on('end', () => {
            answered += 1;
            resolve();
          });
        },
      );
      req.on('socket', () => {
        open += 1;
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        failed += 1;
        // When, in whole seconds from the first wave: at the start means the accept queue, at the deadline the answers.
        const key = `${error.code ?? error.message}@${Math.floor((performance.now() - started) / 1000)}s`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
        resolve();
      });
    });
  }
  // Wait until every request reached the server and is held (none answered yet).
  while (open < HELD && performance.now() - started < 20_000) await new Promise((r) => setTimeout(r, 200));
  await new Promise((r) => setTimeout(r, 3_000));
  const held = HELD - answered - failed;
  const during = rssMb(pid);
  await Promise.all(requests);
  agent.destroy();
  return {
    held,
    rss_before_mb: before,
    rss_holding_mb: during,
    per_poll_kb: Number((((during - before) * 1024) / Math.max(1, held)).toFixed(1)),
    statuses: Object.fromEntries(statuses),
    client_errors: Object.fromEntries(errors),
  };
}

/** What the server logged besides answered requests (errors, warnings), to explain failed connections. */
function reportServerTrouble(logFile: string): void {
  const lines = fs
    .readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line && !/"status":(200|304)\b/.test(line));
  process.stdout.write(
    `Server log, other than answered polls (last 20 of ${lines.length}):\n${lines.slice(-20).join('\n')}\n`,
  );
}

async function addHistory(db: Database, messages: number): Promise<void> {
  if (messages <= 0) return;
  const chats = Math.min(10_000, messages);
  // Spread over the crowd's chats, as old history: nobody's inbox shows it.
  await sql`
    insert into messages (chat_id, sender_id, text, created_at)
    select c.chat_id, c.user_id, 'old history ' || g, now() - interval '300 days' + g * interval '1 second'
    from (select chat_id, user_id from chat_members where unread_count = 0 limit ${chats}) c,
         generate_series(1, ${Math.ceil(messages / chats)}) g`.execute(db);
  // Settle before measuring: fresh statistics, no autovacuum or checkpoint of the insert running under the polls.
  await sql`vacuum (analyze) messages`.execute(db);
  await sql`checkpoint`.execute(db);
}

const countMessages = async (db: Database) =>
  Number(
    (
      await db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The poller with its seeded inbox, and `messages` rows in all (the rest as other people's old chats). */
async function seedPoller(db: Database, baseUrl: string, messages: number): Promise<{ id: string; token: string }> {
  await db.transaction().execute((trx) => seedBackground(trx));
  const me = await register(baseUrl, 'bench-poller');
  await db.transaction().execute((trx) => seed(trx, me.id, 'benchpoll', PROFILE));
  await addHistory(db, messages - (await countMessages(db)));
  return me;
}

/** A fresh web instance on this database, and its own floor. */
async function pollTarget(stack: Stack, databaseUrl: string, token: string, label: string) {
  const server = await startServerProcess({
    databaseUrl,
    dataDir: stack.dataDir,
    args: ['--role=web'],
    env: SERVER_ENV,
  });
  const floor = await startFloor(databaseUrl);
  return {
    target: {
      label,
      baseUrl: server.baseUrl,
      serverPid: server.child.pid!,
      floorUrl: floor.url,
      floorPid: floor.pid,
      token,
    },
    stop: async () => {
      floor.stop();
      await server.stop();
    },
  };
}

/**
 * The same poller on a second database in the same PostgreSQL, with HISTORY messages: seeded
 * through a server that is then stopped, so the instance measured starts on the big history.
 */
async function bigHistory(
  stack: Stack,
): Promise<{ databaseUrl: string; db: Database; id: string; token: string; drop: () => Promise<void> }> {
  const database = await freshDatabaseOn(stack.databaseUrl);
  const seeder = await startServerProcess({
    databaseUrl: database.url,
    dataDir: stack.dataDir,
    args: ['--role=web'],
    env: { REGISTRATION_LIMIT_PER_HOUR: '1000' },
  });
  const db = createDb(database.url, 3);
  try {
    const me = await seedPoller(db, seeder.baseUrl, HISTORY);
    process.stdout.write(`Second database: messages table ${(await countMessages(db)).toLocaleString('en')} rows\n`);
    const drop = async () => {
      await db.destroy();
      await database.drop();
    };
    return { databaseUrl: database.url, db, id: me.id, token: me.token, drop };
  } finally {
    await seeder.stop();
  }
}

async function main(): Promise<void> {
  await buildIfNeeded(root);
  process.stdout.write(
    `Starting a fresh embedded PostgreSQL and the server (${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})…\n`,
  );
  const stack = await startStack({
    REGISTRATION_LIMIT_PER_HOUR: '1000',
    MESSAGE_LIMIT_PER_10_MIN: '100000',
    ...SERVER_ENV,
  });
  const db = createDb(stack.databaseUrl, 3);
  const cleanups: (() => Promise<void>)[] = [];
  const results: {
    wake?: Awaited<ReturnType<typeof wakeLatency>>;
    held?: Awaited<ReturnType<typeof heldPolls>>;
    pages?: Record<string, string | number>[];
  } = {};
  try {
    // The baseline history: 10,000 messages in all (the poller's 2,000 and 8,000 elsewhere).
    const me = await seedPoller(db, stack.baseUrl, 10_000);
    const smallHistory = await countMessages(db);
    const smallLabel = `history ${smallHistory.toLocaleString('en')}`;
    process.stdout.write(`Seeded ${PROFILE.label} for the poller; messages table: ${smallHistory} rows\n`);

    if (ONLY_HELD || !ONLY_POLLS) {
      // A second server (web role) on the same database: wake-ups across instances, then the held polls.
      const second = await startServerProcess({
        databaseUrl: stack.databaseUrl,
        dataDir: stack.dataDir,
        args: ['--role=web'],
        env: SERVER_ENV,
      });
      cleanups.push(() => second.stop());
      if (!ONLY_HELD) {
        const buddy = await register(stack.baseUrl, 'bench-buddy');
        const chatId = await befriend(stack.baseUrl, me, buddy);
        results.wake = await wakeLatency(db, second.baseUrl, buddy, me, chatId, stack.baseUrl);
      }
      const held = await heldPolls(second.baseUrl, second.child.pid!, me.token);
      if (ONLY_HELD) {
        process.stdout.write(`Held long-polls on one instance: ${JSON.stringify(held)}\n`);
        reportServerTrouble(second.logFile);
        return;
      }
      await cleanups.pop()!();
      results.held = held;
    }

    const targets: PollTarget[] = [];
    let big: Awaited<ReturnType<typeof bigHistory>> | undefined;
    const small = await pollTarget(stack, stack.databaseUrl, me.token, smallLabel);
    cleanups.push(small.stop);
    targets.push(small.target);
    if (!ONLY_POLLS) {
      process.stdout.write(`Seeding a second database with ${HISTORY.toLocaleString('en')} messages…\n`);
      big = await bigHistory(stack);
      cleanups.push(big.drop);
      const measured = await pollTarget(stack, big.databaseUrl, big.token, `history ${HISTORY.toLocaleString('en')}`);
      cleanups.push(measured.stop);
      targets.push(measured.target);
    }
    const all = await pollRounds(targets, postmasterPidOf(stack.dataDir));
    const runs = bestOf(all);
    console.table(runs);
    const [smallRuns, bigRuns] = targets.map((t) => runs.filter((r) => r.case.startsWith(`${t.label}:`)));
    const ratios: Record<string, number> = {
      conditional_vs_full: Number((rps(smallRuns!, 'conditional') / rps(smallRuns!, 'full')).toFixed(2)),
      conditional_vs_floor: Number((rps(smallRuns!, 'conditional') / rps(smallRuns!, 'floor')).toFixed(2)),
      full_vs_floor: Number((rps(smallRuns!, 'full') / rps(smallRuns!, 'floor')).toFixed(2)),
    };
    if (bigRuns) {
      // Over 1 means the big history costs more. Two measures of cost, each compared within
      // a round (the two histories ran a minute apart at most), then the median of the rounds:
      // wall time per request (1/rps), which a shared machine's neighbours move, and CPU time
      // per request (server and PostgreSQL), which they move far less.
      const [small, big] = targets;
      const runOf = (round: number, target: PollTarget, kind: string) =>
        all.find((r) => r.round === round && r.case.startsWith(`${target.label}:`) && r.case.includes(kind))!;
      for (const kind of ['full', 'conditional', 'floor']) {
        const rounds = Array.from({ length: ROUNDS }, (_, index) => index + 1);
        const time = rounds.map((round) => runOf(round, small!, kind).rps / runOf(round, big!, kind).rps);
        const cpu = rounds.map((round) => runOf(round, big!, kind).cpu_ms / runOf(round, small!, kind).cpu_ms);
        ratios[`${kind}_time_1m_vs_10k`] = Number(median(time).toFixed(2));
        ratios[`${kind}_cpu_1m_vs_10k`] = Number(median(cpu).toFixed(2));
        process.stdout.write(
          `${kind}, 1M vs 10k history, per round: time ${time.map((r) => r.toFixed(2)).join(', ')}; ` +
            `CPU ${cpu.map((r) => r.toFixed(2)).join(', ')}\n`,
        );
      }
    }
    console.table([ratios]);
    if (big) {
      const [small, large] = [await pagesPerPoll(db, me.id), await pagesPerPoll(big.db, big.id)];
      const pages = Object.keys(small).map((statement) => ({
        statement,
        pages_10k: small[statement]!.pages,
        pages_1m: large[statement]!.pages,
        ms_10k: small[statement]!.ms,
        ms_1m: large[statement]!.ms,
      }));
      process.stdout.write('What each statement of a poll reads (EXPLAIN ANALYZE, BUFFERS):\n');
      console.table(pages);
      results.pages = pages;
    }
    if (results.wake)
      process.stdout.write(`Wake latency across instances (${WAKES} wakes): ${JSON.stringify(results.wake)}\n`);
    if (results.held) process.stdout.write(`Held long-polls on one instance: ${JSON.stringify(results.held)}\n`);
    process.stdout.write(`\nJSON: ${JSON.stringify({ runs, ratios, ...results, load: os.loadavg() })}\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await db.destroy();
    await stack.stop();
  }
}

async function befriend(baseUrl: string, a: { token: string }, b: { token: string; id: string }): Promise<string> {
  const call = async (method: string, p: string, token: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as { request?: { id: string }; chat?: { chatId: string } };
  };
  const request = await call('POST', `/api/v1/users/${b.id}/buddy_request.json`, a.token, {});
  if (!request.request) throw new Error(`buddy request failed: ${JSON.stringify(request)}`);
  const accepted = await call('POST', `/api/v1/buddy_requests/${request.request.id}/accept.json`, b.token, {});
  if (!accepted.chat) throw new Error(`accept failed: ${JSON.stringify(accepted)}`);
  return accepted.chat.chatId as string;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
