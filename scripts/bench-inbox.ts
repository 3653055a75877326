// `npm run bench:inbox`: inbox poll latency over real HTTP for a user with 50
// chats and 10,000 messages, and for one with 100,000 (to show the cost follows
// what is unread, not the history). Starts a fresh embedded PostgreSQL and the
// real server (the test stack), seeds the data in SQL, then measures
// GET /api/v1/inbox.json sequentially, with If-None-Match (304), and with
// concurrent pollers, and prints the plans of the inbox's three queries.
//
// Options (env): BENCH_REQUESTS (default 500), BENCH_CONCURRENCY (default 10).
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createDb, type Database } from '../db';
import { defaultSince, inboxQueries } from '../lib/inbox/inbox';
import { startStack } from '../e2e/support/stack';
import { register, seed, seedBackground, type Profile } from './bench-seed';
import { buildIfNeeded } from './build-stamp';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const root = path.resolve(import.meta.dirname, '..');

const PROFILES: Profile[] = [
  {
    label: '50 chats, 10,000 messages',
    chats: 50,
    messagesPerChat: 200,
    unreadChats: 10,
    unreadPerChat: 5,
    pendingRequests: 5,
  },
  {
    label: '50 chats, 100,000 messages',
    chats: 50,
    messagesPerChat: 2000,
    unreadChats: 10,
    unreadPerChat: 5,
    pendingRequests: 5,
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarize(label: string, samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const fmt = (n: number) => Number(n.toFixed(2));
  return {
    case: label,
    n: samples.length,
    p50_ms: fmt(percentile(sorted, 50)),
    p90_ms: fmt(percentile(sorted, 90)),
    p99_ms: fmt(percentile(sorted, 99)),
    max_ms: fmt(sorted.at(-1)!),
  };
}

async function poll(
  url: string,
  token: string,
  etag?: string,
): Promise<{ ms: number; status: number; etag: string | null }> {
  const started = performance.now();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) },
  });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, etag: res.headers.get('etag') };
}

/** The inbox's three queries alone, straight on a pool, as the endpoint runs them (in parallel). */
async function measureQueries(db: Database, me: string, label: string) {
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const queries = inboxQueries(db, me, defaultSince(new Date()));
    const started = performance.now();
    await Promise.all([queries.pending.execute(), queries.accepted.execute(), queries.chats.execute()]);
    samples.push(performance.now() - started);
  }
  return summarize(`${label}: the 3 inbox queries alone (no HTTP)`, samples);
}

async function measure(baseUrl: string, token: string, label: string) {
  const url = `${baseUrl}/api/v1/inbox.json`;
  for (let i = 0; i < 30; i++) await poll(url, token); // warm up the app and the pool
  // Baseline: the cheapest bearer endpoint (token lookup + one row), for the cost of HTTP, Next and auth.
  const baseline: number[] = [];
  for (let i = 0; i < REQUESTS; i++) baseline.push((await poll(`${baseUrl}/api/v1/me/complete.json`, token)).ms);
  const first = await poll(url, token);
  if (first.status !== 200) throw new Error(`inbox answered ${first.status}`);
  const sequential: number[] = [];
  for (let i = 0; i < REQUESTS; i++) sequential.push((await poll(url, token)).ms);
  const notModified: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await poll(url, token, first.etag ?? undefined);
    if (r.status !== 304) throw new Error(`expected 304, got ${r.status}`);
    notModified.push(r.ms);
  }
  const concurrent: number[] = [];
  const perClient = Math.ceil(REQUESTS / CONCURRENCY);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < perClient; i++) concurrent.push((await poll(url, token)).ms);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return [
    summarize(`${label}: baseline GET /me/complete.json`, baseline),
    summarize(`${label}: sequential 200`, sequential),
    summarize(`${label}: If-None-Match 304`, notModified),
    {
      ...summarize(`${label}: ${CONCURRENCY} concurrent pollers`, concurrent),
      throughput_rps: Math.round(concurrent.length / seconds),
    },
  ];
}

async function explainPlans(db: Database, me: string): Promise<void> {
  const queries = inboxQueries(db, me, defaultSince(new Date()));
  for (const [name, query] of Object.entries(queries)) {
    const rows = await query.explain('text', sql`analyze, buffers, costs off`);
    process.stdout.write(`\n── plan: ${name} ──\n${rows.map((r) => String(r['QUERY PLAN'])).join('\n')}\n`);
  }
}

async function main(): Promise<void> {
  await buildIfNeeded(root);
  process.stdout.write('Starting a fresh embedded PostgreSQL and the server…\n');
  const stack = await startStack({ REGISTRATION_LIMIT_PER_HOUR: '1000' });
  const db = createDb(stack.databaseUrl, 3);
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ');
  process.stdout.write(`Load average (1/5/15 min) on ${os.cpus().length} CPUs at start: ${load()}\n`);
  try {
    await db.transaction().execute((trx) => seedBackground(trx));
    const results: Record<string, unknown>[] = [];
    const users: { id: string; profile: Profile }[] = [];
    for (const [i, profile] of PROFILES.entries()) {
      const user = await register(stack.baseUrl, `bench-user-${i}`);
      const started = performance.now();
      await db.transaction().execute((trx) => seed(trx, user.id, `bench${i}`, profile));
      const count = await db
        .selectFrom('messages as m')
        .innerJoin('chat_members as cm', (j) => j.onRef('cm.chat_id', '=', 'm.chat_id').on('cm.user_id', '=', user.id))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      process.stdout.write(
        `Seeded ${profile.label} (${count.n} messages in the user's chats) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
      users.push({ id: user.id, profile });
      results.push(...(await measure(stack.baseUrl, user.token, profile.label)));
      results.push(await measureQueries(db, user.id, profile.label));
    }
    const total = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    process.stdout.write(
      `\nInbox latency over HTTP (keep-alive, ${REQUESTS} requests per case; messages table: ${total.n} rows; load average now ${load()})\n`,
    );
    console.table(results);
    await explainPlans(db, users[users.length - 1]!.id);
    process.stdout.write(`\nJSON: ${JSON.stringify(results)}\n`);
  } finally {
    await db.destroy();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
