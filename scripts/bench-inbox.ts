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
import { defaultSince, inboxQueries } from '../lib/chats/inbox';
import { startStack } from '../e2e/support/stack';
import { buildIfNeeded } from './build-stamp';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const root = path.resolve(import.meta.dirname, '..');

interface Profile {
  label: string;
  chats: number;
  messagesPerChat: number;
  /** Chats with unread messages, and how many each. */
  unreadChats: number;
  unreadPerChat: number;
  pendingRequests: number;
}

const PROFILES: Profile[] = [
  { label: '50 chats, 10,000 messages', chats: 50, messagesPerChat: 200, unreadChats: 10, unreadPerChat: 5, pendingRequests: 5 },
  { label: '50 chats, 100,000 messages', chats: 50, messagesPerChat: 2000, unreadChats: 10, unreadPerChat: 5, pendingRequests: 5 },
];

let ipCounter = 0;
const freshIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

async function register(baseUrl: string, name: string): Promise<{ id: string; token: string }> {
  const res = await fetch(`${baseUrl}/api/v1/register.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify({ email: `${name}-${Date.now()}@example.com`, displayName: name, emailMagicLink: false }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string }; auth: { token: string } };
  return { id: body.user.id, token: body.auth.token };
}

/**
 * Seeds `me`'s buddies, chats and messages as the app would have written them:
 * ids and created_at rising together within each chat, read markers and unread
 * counters consistent, chats.last_message_* in step, some accepted requests
 * inside the inbox's 7-day window and some pending ones.
 */
async function seed(db: Database, me: string, tag: string, p: Profile): Promise<void> {
  const buddies = p.chats + p.pendingRequests;
  await sql`
    insert into users (email, password_hash, slug, display_name, public_location, created_at)
    select ${tag} || '-' || g || '@example.com', 'x', ${tag} || '-' || g, 'Buddy ' || g, 'Berlin, DE', now() - interval '120 days'
    from generate_series(1, ${buddies}) g`.execute(db);
  await sql`
    create temporary table bench_buddies on commit drop as
    select id, row_number() over (order by created_at, slug) as n from users where slug like ${`${tag}-%`}`.execute(db);
  // Accepted requests from me, one per buddy, answered 1..50 days ago.
  await sql`
    insert into connections (user_a, user_b, created_at)
    select least(${me}::uuid, b.id), greatest(${me}::uuid, b.id), now() - interval '100 days' from bench_buddies b where b.n <= ${p.chats}`.execute(db);
  await sql`
    insert into chats (connection_id, created_at)
    select k.id, k.created_at from connections k where k.user_a = ${me}::uuid or k.user_b = ${me}::uuid`.execute(db);
  await sql`
    insert into chat_members (chat_id, user_id, other_user_id)
    select c.id, ${me}::uuid, case when k.user_a = ${me}::uuid then k.user_b else k.user_a end
    from chats c join connections k on k.id = c.connection_id where k.user_a = ${me}::uuid or k.user_b = ${me}::uuid
    union all
    select c.id, case when k.user_a = ${me}::uuid then k.user_b else k.user_a end, ${me}::uuid
    from chats c join connections k on k.id = c.connection_id where k.user_a = ${me}::uuid or k.user_b = ${me}::uuid`.execute(db);
  await sql`
    insert into buddy_requests (sender_id, recipient_id, message, state, chat_id, created_at, responded_at)
    select ${me}::uuid, b.id, 'Want to go hiking?', 'accepted', cm.chat_id, now() - (b.n + 1) * interval '1 day', now() - b.n * interval '1 day'
    from bench_buddies b join chat_members cm on cm.user_id = ${me}::uuid and cm.other_user_id = b.id where b.n <= ${p.chats}`.execute(db);
  await sql`
    insert into buddy_requests (sender_id, recipient_id, message, created_at)
    select b.id, ${me}::uuid, 'Climbing on Sunday?', now() - b.n * interval '1 minute' from bench_buddies b where b.n > ${p.chats}`.execute(db);
  // Messages: alternating senders, one a minute per chat up to now, in id order.
  await sql`
    insert into messages (chat_id, sender_id, text, created_at)
    select cm.chat_id, case when g % 2 = 0 then ${me}::uuid else cm.other_user_id end,
           'Bench message ' || g || ': see you at the trailhead at nine, bring water and snacks',
           date_trunc('milliseconds', now() - (${p.messagesPerChat} - g) * interval '1 minute' - b.n * interval '1 second')
    from chat_members cm join bench_buddies b on b.id = cm.other_user_id, generate_series(1, ${p.messagesPerChat}) g
    where cm.user_id = ${me}::uuid
    order by cm.chat_id, g`.execute(db);
  await sql`
    update chats c set last_message_id = m.max_id, last_message_at = m.max_at
    from (select chat_id, max(id) as max_id, max(created_at) as max_at from messages group by chat_id) m
    where m.chat_id = c.id and c.last_message_id is null`.execute(db);
  // The buddies have read everything; I have read everything except the last
  // `unreadPerChat` of their messages in `unreadChats` chats.
  await sql`
    update chat_members cm set last_read_message_id = c.last_message_id
    from chats c where c.id = cm.chat_id and cm.other_user_id = ${me}::uuid`.execute(db);
  await sql`
    update chat_members cm set last_read_message_id = coalesce((
      select m.id from messages m where m.chat_id = cm.chat_id and m.sender_id = cm.other_user_id
      order by m.id desc offset ${p.unreadPerChat} limit 1), 0)
    from bench_buddies b where cm.user_id = ${me}::uuid and b.id = cm.other_user_id and b.n <= ${p.unreadChats}`.execute(db);
  await sql`
    update chat_members cm set last_read_message_id = c.last_message_id
    from chats c, bench_buddies b where c.id = cm.chat_id and cm.user_id = ${me}::uuid and b.id = cm.other_user_id and b.n > ${p.unreadChats}`.execute(db);
  await sql`
    update chat_members cm set unread_count = (
      select count(*) from messages m where m.chat_id = cm.chat_id and m.sender_id <> cm.user_id and m.id > cm.last_read_message_id)
    where cm.user_id = ${me}::uuid`.execute(db);
  await sql`analyze`.execute(db);
}

/**
 * Everyone else: 20,000 users with 100,000 buddy requests among them and 10,000
 * chats, so the tables the inbox reads are big enough for the planner to show
 * which indexes it uses (on tiny tables a sequential scan is cheaper and chosen).
 */
async function seedBackground(db: Database): Promise<void> {
  const users = 20_000;
  await sql`
    insert into users (email, password_hash, slug, display_name, created_at)
    select 'crowd-' || g || '@example.com', 'x', 'crowd-' || g, 'Crowd ' || g, now() - interval '200 days'
    from generate_series(1, ${users}) g`.execute(db);
  await sql`create temporary table crowd on commit drop as
    select id, row_number() over (order by slug) as n from users where slug like 'crowd-%'`.execute(db);
  await sql`create index on crowd (n)`.execute(db);
  await sql`
    insert into buddy_requests (sender_id, recipient_id, state, created_at, responded_at)
    select s.id, r.id, (array['pending', 'declined', 'cancelled', 'declined', 'cancelled'])[k],
           now() - (s.n % 90) * interval '1 day', case when k = 1 then null else now() - (s.n % 90) * interval '1 day' + interval '1 hour' end
    from crowd s cross join generate_series(1, 5) k join crowd r on r.n = s.n + k
    where s.n <= ${users - 5}`.execute(db);
  await sql`
    insert into connections (user_a, user_b) select least(a.id, b.id), greatest(a.id, b.id)
    from crowd a join crowd b on b.n = a.n + 10 where a.n % 2 = 0 and a.n <= ${users - 10}`.execute(db);
  await sql`insert into chats (connection_id) select k.id from connections k join crowd a on a.id = k.user_a`.execute(db);
  await sql`
    insert into chat_members (chat_id, user_id, other_user_id, unread_count)
    select c.id, k.user_a, k.user_b, (random() * 3)::int from chats c join connections k on k.id = c.connection_id join crowd a on a.id = k.user_a
    union all
    select c.id, k.user_b, k.user_a, 0 from chats c join connections k on k.id = c.connection_id join crowd a on a.id = k.user_a`.execute(db);
}

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

async function poll(url: string, token: string, etag?: string): Promise<{ ms: number; status: number; etag: string | null }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
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
    { ...summarize(`${label}: ${CONCURRENCY} concurrent pollers`, concurrent), throughput_rps: Math.round(concurrent.length / seconds) },
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
  buildIfNeeded(root);
  process.stdout.write('Starting a fresh embedded PostgreSQL and the server…\n');
  const stack = await startStack({ REGISTRATION_LIMIT_PER_HOUR: '1000' });
  const db = createDb(stack.databaseUrl, 3);
  const load = () => os.loadavg().map((n) => n.toFixed(1)).join(' / ');
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
      process.stdout.write(`Seeded ${profile.label} (${count.n} messages in the user's chats) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      users.push({ id: user.id, profile });
      results.push(...(await measure(stack.baseUrl, user.token, profile.label)));
      results.push(await measureQueries(db, user.id, profile.label));
    }
    const total = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    process.stdout.write(`\nInbox latency over HTTP (keep-alive, ${REQUESTS} requests per case; messages table: ${total.n} rows; load average now ${load()})\n`);
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
