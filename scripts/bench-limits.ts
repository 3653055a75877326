// `npm run bench:limits`: what a refusal costs us next to the work it saves. Starts a
// fresh embedded PostgreSQL and the real server (the test stack) and measures over HTTP
// (keep-alive, one request at a time) the latency and the CPU time per request of the
// server process and of PostgreSQL (all its processes) for:
//   - a registration that succeeds (argon2 hash + a 12-megapixel photo) and one refused
//     by the per-address limit (the pre-check: before the body is read);
//   - events.json served, and refused by the per-client limit;
//   - a photo upload refused by the per-user limit (the same path Discover's per-user
//     limit takes, measured too when the contract declares one);
//   - as a floor, a bare node:http server doing nothing, and one running `select 1`.
// Refusals after the first come from memory. CPU times come from /proc (Linux only),
// less what the idle server (job polling) burns in the same wall time.
//
// Options (env): BENCH_REQUESTS (default 1000, the cheap cases), BENCH_HEAVY (default 15,
// successful registrations).
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { endpoints } from '../lib/contract';
import { freePort } from '../lib/net/free-port';
import { startStack } from '../e2e/support/stack';
import { postgresCpuMs, postmasterPidOf, processCpuMs } from './bench-cpu';
import { buildIfNeeded } from './build-stamp';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const HEAVY = Number(process.env.BENCH_HEAVY ?? 15);
const root = path.resolve(import.meta.dirname, '..');
const LIMITS = { registrations: 3, events: 5, photoUploads: 3, discover: 3 };

let ipCounter = 0;
const freshIp = () => `10.88.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;
let emailCounter = 0;
const email = () => `bench-limits-${process.pid}-${++emailCounter}@example.com`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface BenchRequest {
  url: string;
  init?: RequestInit;
  expect: number;
}

interface Meter {
  serverPid: number;
  postmasterPid: number | null;
  /** CPU ms per wall ms the server and PostgreSQL burn while idle (job polling). */
  idle: { server: number; postgres: number };
}

interface Row {
  case: string;
  n: number;
  status: number;
  p50_ms: number;
  p99_ms: number;
  server_cpu_ms: number;
  postgres_cpu_ms: number;
}

async function measure(label: string, meter: Meter, n: number, next: (i: number) => BenchRequest): Promise<Row> {
  const latencies: number[] = [];
  const started = performance.now();
  const cpuBefore = {
    server: processCpuMs(meter.serverPid),
    postgres: meter.postmasterPid ? postgresCpuMs(meter.postmasterPid) : 0,
  };
  let status = 0;
  for (let i = 0; i < n; i++) {
    const request = next(i);
    const t0 = performance.now();
    const res = await fetch(request.url, request.init);
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    status = res.status;
    if (res.status !== request.expect) throw new Error(`${label}: expected ${request.expect}, got ${res.status}`);
  }
  const wall = performance.now() - started;
  const server = processCpuMs(meter.serverPid) - cpuBefore.server - meter.idle.server * wall;
  const postgres = meter.postmasterPid
    ? postgresCpuMs(meter.postmasterPid) - cpuBefore.postgres - meter.idle.postgres * wall
    : 0;
  const sorted = latencies.sort((a, b) => a - b);
  const fmt = (value: number) => Number(value.toFixed(value < 1 ? 3 : 2));
  return {
    case: label,
    n,
    status,
    p50_ms: fmt(percentile(sorted, 50)),
    p99_ms: fmt(percentile(sorted, 99)),
    server_cpu_ms: fmt(Math.max(0, server) / n),
    postgres_cpu_ms: fmt(Math.max(0, postgres) / n),
  };
}

/** A photo-like 12-megapixel JPEG (blurred noise, about 3 MB), as a phone would send it. */
async function phonePhoto(): Promise<string> {
  const width = 4000;
  const height = 3000;
  const texture = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } },
  })
    .blur(0.6)
    .jpeg({ quality: 70 })
    .toBuffer();
  return texture.toString('base64');
}

/** The floor: a bare node:http server in its own process, optionally running `select 1` per request. */
async function startFloorServer(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const source = `
    const http = require('node:http');
    const pg = require('pg');
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    http.createServer((req, res) => {
      if (req.url === '/pg') {
        pool.query('select 1').then(() => { res.writeHead(204); res.end(); }, () => { res.writeHead(500); res.end(); });
      } else { res.writeHead(204); res.end(); }
    }).listen(${port}, '127.0.0.1', () => process.stdout.write('ready\\n'));`;
  const child = spawn(process.execPath, ['-e', source], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`floor server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function idleRates(serverPid: number, postmasterPid: number | null): Promise<Meter['idle']> {
  const wall = 5000;
  const before = { server: processCpuMs(serverPid), postgres: postmasterPid ? postgresCpuMs(postmasterPid) : 0 };
  await new Promise((r) => setTimeout(r, wall));
  return {
    server: (processCpuMs(serverPid) - before.server) / wall,
    postgres: postmasterPid ? (postgresCpuMs(postmasterPid) - before.postgres) / wall : 0,
  };
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('bench:limits reads CPU times from /proc (Linux only)');
  await buildIfNeeded(root);
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ');
  process.stdout.write(`Load average (1/5/15 min) on ${os.cpus().length} CPUs at start: ${load()}\n`);
  process.stdout.write('Making a 12-megapixel photo, starting a fresh embedded PostgreSQL and the server…\n');
  const photo = await phonePhoto();
  const stack = await startStack({
    REGISTRATION_LIMIT_PER_HOUR: String(LIMITS.registrations),
    EVENTS_LIMIT_PER_MINUTE: String(LIMITS.events),
    PHOTO_UPLOAD_LIMIT_PER_HOUR: String(LIMITS.photoUploads),
    DISCOVER_LIMIT_PER_HOUR: String(LIMITS.discover),
  });
  const postmasterPid = postmasterPidOf(stack.dataDir);
  const floor = await startFloorServer(stack.databaseUrl);
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const base = stack.baseUrl;
  const rows: Row[] = [];
  try {
    // The photo's JSON is made once; each request only varies its email.
    const photoJson = JSON.stringify(photo);
    const registration = (ip: string) => ({
      url: `${base}/api/v1/register.json`,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: `{"email":${JSON.stringify(email())},"displayName":"Bench Person","password":"correct horse battery staple","emailMagicLink":false,"photo":${photoJson}}`,
      },
    });
    const register = async () => {
      const res = await fetch(
        `${base}/api/v1/register.json`,
        json({ email: email(), displayName: 'Bench', emailMagicLink: false }, { 'x-forwarded-for': freshIp() }),
      );
      if (res.status !== 201) throw new Error(`register: ${res.status}`);
      return ((await res.json()) as { auth: { token: string } }).auth.token;
    };
    // Warm up every route (Next compiles nothing at run time, but the first call loads modules).
    for (let i = 0; i < 20; i++) {
      await (
        await fetch(`${base}/api/v1/events.json?limit=1`, { headers: { 'x-forwarded-for': freshIp() } })
      ).arrayBuffer();
      await (await fetch(`${floor.url}/pg`)).arrayBuffer();
    }
    const warm = await fetch(`${base}/api/v1/register.json`, registration(freshIp()).init);
    if (warm.status !== 201) throw new Error(`warm-up registration: ${warm.status} ${await warm.text()}`);

    const idle = await idleRates(stack.serverPid, postmasterPid);
    const meter: Meter = { serverPid: stack.serverPid, postmasterPid, idle };
    const floorMeter: Meter = {
      serverPid: floor.child.pid!,
      postmasterPid,
      idle: { server: 0, postgres: idle.postgres },
    };
    process.stdout.write(
      `Idle burn: server ${(idle.server * 1000).toFixed(1)} ms CPU/s, PostgreSQL ${(idle.postgres * 1000).toFixed(1)} ms CPU/s (subtracted below)\n`,
    );

    rows.push(
      await measure('floor: node:http, no work', floorMeter, REQUESTS, () => ({ url: `${floor.url}/`, expect: 204 })),
    );
    rows.push(
      await measure('floor: node:http + select 1', floorMeter, REQUESTS, () => ({
        url: `${floor.url}/pg`,
        expect: 204,
      })),
    );

    // Events: served (a fresh address each time, so each call is counted in PostgreSQL), then refused.
    rows.push(
      await measure('events.json 200 (built-in directory)', meter, Math.min(REQUESTS, 300), () => ({
        url: `${base}/api/v1/events.json?limit=10`,
        init: { headers: { 'x-forwarded-for': freshIp() } },
        expect: 200,
      })),
    );
    const floodIp = freshIp();
    for (let i = 0; i <= LIMITS.events; i++)
      await (
        await fetch(`${base}/api/v1/events.json?limit=10`, { headers: { 'x-forwarded-for': floodIp } })
      ).arrayBuffer();
    rows.push(
      await measure('events.json 429 (client over its limit)', meter, REQUESTS, () => ({
        url: `${base}/api/v1/events.json?limit=10`,
        init: { headers: { 'x-forwarded-for': floodIp } },
        expect: 429,
      })),
    );

    // Per-user limits: a photo upload (refused before its body is read), and Discover when declared.
    const uploader = await register();
    const uploadBody = `{"photo":${photoJson}}`;
    const upload = (): BenchRequest => ({
      url: `${base}/api/v1/me/photo.json`,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${uploader}` },
        body: uploadBody,
      },
      expect: 429,
    });
    for (let i = 0; i < LIMITS.photoUploads; i++) {
      const res = await fetch(upload().url, upload().init);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`spending the upload limit: ${res.status}`);
    }
    rows.push(
      await measure('photo upload 429 (user over its limit, 3 MB body sent)', meter, Math.min(REQUESTS, 300), upload),
    );

    const discoverLimited = endpoints.find((e) => e.id === 'discover')?.rateLimit;
    if (discoverLimited) {
      const searcher = await register();
      const discover = (): BenchRequest => ({
        url: `${base}/api/v1/discover.json`,
        init: { headers: { authorization: `Bearer ${searcher}` } },
        expect: 429,
      });
      for (let i = 0; i < LIMITS.discover; i++) await (await fetch(discover().url, discover().init)).arrayBuffer();
      rows.push(await measure('discover.json 429 (user over its limit)', meter, REQUESTS, discover));
    } else {
      process.stdout.write('(Discover declares no per-user limit in this build: its case is skipped.)\n');
    }

    // Registrations: full ones from fresh addresses, then refusals from a spent one.
    rows.push(
      await measure('register 201 (argon2 + 12 MP photo)', meter, HEAVY, () => ({
        ...registration(freshIp()),
        expect: 201,
      })),
    );
    const spentIp = freshIp();
    for (let i = 0; i < LIMITS.registrations; i++) {
      const res = await fetch(
        `${base}/api/v1/register.json`,
        json({ email: email(), displayName: 'Spent', emailMagicLink: false }, { 'x-forwarded-for': spentIp }),
      );
      if (res.status !== 201) throw new Error(`spending the limit: ${res.status}`);
    }
    rows.push(
      await measure('register 429 (address over its limit, same body)', meter, Math.min(REQUESTS, 300), () => ({
        ...registration(spentIp),
        expect: 429,
      })),
    );

    process.stdout.write(
      `\nCost of a request over HTTP (keep-alive, one at a time; CPU per request, idle burn subtracted; load average now ${load()})\n`,
    );
    console.table(rows);
    const find = (prefix: string) => rows.find((r) => r.case.startsWith(prefix))!;
    const full = find('register 201');
    const refused = find('register 429');
    const floorRow = find('floor: node:http + select 1');
    const cpu = (r: Row) => r.server_cpu_ms + r.postgres_cpu_ms;
    process.stdout.write(
      `\nA refused registration costs ${(cpu(full) / Math.max(cpu(refused), 0.001)).toFixed(0)}x less CPU than a full one ` +
        `(${cpu(refused).toFixed(2)} vs ${cpu(full).toFixed(1)} ms) and answers ${(full.p50_ms / refused.p50_ms).toFixed(0)}x sooner (p50). ` +
        `A refused events call costs ${(cpu(find('events.json 429')) / Math.max(cpu(floorRow), 0.001)).toFixed(1)}x the floor with one query.\n`,
    );
    process.stdout.write(`\nJSON: ${JSON.stringify({ load: os.loadavg(), rows })}\n`);
  } finally {
    floor.child.kill('SIGTERM');
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
