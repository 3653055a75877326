// `npm run bench:poll`: what a poll costs, on one instance of the real server and
// a fresh embedded PostgreSQL, turn about with a bare node:http + pg floor running
// the same SQL (scripts/bench-poll-floor.ts). Reports:
//   - full inbox poll and conditional (304) poll: req/s, p50/p99 (autocannon);
//   - the floor's full poll;
//   - long-poll wake latency across two instances (held on one, message sent on the other);
//   - RSS of one instance holding 10,000 idle long-polls;
//   - poll cost with ~10k messages of history and again with 1M more in other chats.
//
// Options (env): BENCH_SECONDS per run (default 8), BENCH_CONNECTIONS (20),
// BENCH_HELD (10000), BENCH_WAKES (50), BENCH_HISTORY (1000000); BENCH_ONLY=held runs
// only the held long-polls (on a second instance, as in the full run), BENCH_ONLY=polls
// only the full and conditional polls against the floor, on the small history.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { createDb, type Database } from '../db';
import { freePort } from '../lib/net/free-port';
import { startServerProcess, startStack } from '../e2e/support/stack';
import { buildIfNeeded } from './build-stamp';
import { register, seed, seedBackground, type Profile } from './bench-seed';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const HELD = Number(process.env.BENCH_HELD ?? 10_000);
const WAKES = Number(process.env.BENCH_WAKES ?? 50);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000_000);
const ONLY_HELD = process.env.BENCH_ONLY === 'held';
const ONLY_POLLS = process.env.BENCH_ONLY === 'polls';
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
  statuses: string;
}

async function cannon(label: string, url: string, headers: Record<string, string>): Promise<Run> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}×${(s as { count: number }).count}`)
    .join(' ');
  return {
    case: label,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
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

async function startFloor(databaseUrl: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/bench-poll-floor.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

/** Turn about: floor, full, conditional, twice, so drift on a shared machine hits all three alike. */
async function pollRuns(label: string, baseUrl: string, floorUrl: string, token: string): Promise<Run[]> {
  const auth = { authorization: `Bearer ${token}` };
  const inboxUrl = `${baseUrl}/api/v1/inbox.json`;
  const etag = (await fetch(inboxUrl, { headers: auth })).headers.get('etag')!;
  const runs: Run[] = [];
  for (let round = 1; round <= 2; round++) {
    runs.push(await cannon(`${label}: floor (node:http + pg, same 4 statements)`, floorUrl, auth));
    runs.push(await cannon(`${label}: full GET /api/v1/inbox.json`, inboxUrl, auth));
    runs.push(
      await cannon(`${label}: conditional (If-None-Match → 304)`, inboxUrl, { ...auth, 'if-none-match': etag }),
    );
  }
  // The better of the two rounds of each case.
  const best = new Map<string, Run>();
  for (const run of runs) if ((best.get(run.case)?.rps ?? -1) < run.rps) best.set(run.case, run);
  return [...best.values()];
}

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

async function main(): Promise<void> {
  buildIfNeeded(root);
  process.stdout.write(
    `Starting a fresh embedded PostgreSQL and the server (${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)})…\n`,
  );
  const stack = await startStack({ REGISTRATION_LIMIT_PER_HOUR: '1000', MESSAGE_LIMIT_PER_10_MIN: '100000' });
  const db = createDb(stack.databaseUrl, 3);
  const floor = await startFloor(stack.databaseUrl);
  let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  try {
    await db.transaction().execute((trx) => seedBackground(trx));
    const me = await register(stack.baseUrl, 'bench-poller');
    await db.transaction().execute((trx) => seed(trx, me.id, 'benchpoll', PROFILE));
    const history = async () =>
      Number(
        (
          await db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The baseline history: 10,000 messages in all (the poller's 2,000 and 8,000 elsewhere).
    await addHistory(db, 10_000 - (await history()));
    process.stdout.write(`Seeded ${PROFILE.label} for the poller; messages table: ${await history()} rows\n`);

    if (ONLY_HELD) {
      second = await startServerProcess({
        databaseUrl: stack.databaseUrl,
        dataDir: stack.dataDir,
        args: ['--role=web'],
      });
      const held = await heldPolls(second.baseUrl, second.child.pid!, me.token);
      process.stdout.write(`Held long-polls on one instance: ${JSON.stringify(held)}\n`);
      reportServerTrouble(second.logFile);
      return;
    }
    const small = await pollRuns(
      `history ${(await history()).toLocaleString('en')}`,
      stack.baseUrl,
      floor.url,
      me.token,
    );
    console.table(small);
    if (ONLY_POLLS) {
      console.table([
        {
          full_vs_floor: Number((rps(small, 'full') / rps(small, 'floor')).toFixed(2)),
          conditional_vs_full: Number((rps(small, 'conditional') / rps(small, 'full')).toFixed(2)),
        },
      ]);
      return;
    }

    // Wake-ups across instances: a second server (web role) on the same database.
    second = await startServerProcess({ databaseUrl: stack.databaseUrl, dataDir: stack.dataDir, args: ['--role=web'] });
    const buddy = await register(stack.baseUrl, 'bench-buddy');
    const chatId = await befriend(stack.baseUrl, me, buddy);
    const wake = await wakeLatency(db, second.baseUrl, buddy, me, chatId, stack.baseUrl);

    const held = await heldPolls(second.baseUrl, second.child.pid!, me.token);

    process.stdout.write(`Adding ${HISTORY.toLocaleString('en')} messages of history in other chats…\n`);
    await addHistory(db, HISTORY - (await history()));
    const large = await pollRuns(
      `history ${(await history()).toLocaleString('en')}`,
      stack.baseUrl,
      floor.url,
      me.token,
    );

    const runs = [...small, ...large];
    console.table(runs);
    const ratios = {
      conditional_vs_full: Number((rps(small, 'conditional') / rps(small, 'full')).toFixed(2)),
      conditional_vs_floor: Number((rps(small, 'conditional') / rps(small, 'floor')).toFixed(2)),
      full_vs_floor: Number((rps(small, 'full') / rps(small, 'floor')).toFixed(2)),
      full_cost_1m_vs_10k: Number((rps(small, 'full') / rps(large, 'full')).toFixed(2)),
      conditional_cost_1m_vs_10k: Number((rps(small, 'conditional') / rps(large, 'conditional')).toFixed(2)),
    };
    console.table([ratios]);
    process.stdout.write(`Wake latency across instances (${WAKES} wakes): ${JSON.stringify(wake)}\n`);
    process.stdout.write(`Held long-polls on one instance: ${JSON.stringify(held)}\n`);
    process.stdout.write(`\nJSON: ${JSON.stringify({ runs, ratios, wake, held, load: os.loadavg() })}\n`);
  } finally {
    floor.stop();
    await second?.stop();
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
