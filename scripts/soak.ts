// `npm run soak -- --minutes N` (issue 33 §3): a mixed load for N minutes against the shape
// operators run: two web instances (`--role=web`), a worker (`--role=worker`), a PostgreSQL 15
// primary and a streaming standby named in DATABASE_READ_URLS (e2e/support/pg-replica.ts).
// The load: registrations (with a photo), profile edits, Discover, public profiles, buddy
// requests and accepts, messages, short inbox reads, held long-polls and photo uploads, each
// request sent to one of the two instances at random, as a load balancer would.
//
// It keeps within the app's own limits honestly: every simulated person has their own client
// address (TRUST_PROXY=1, one proxy in front) and the generator never spends more than the
// configured budget of a person (Discover per hour, messages per chat per 10 minutes, photo
// uploads per hour). A 429 is an error here, like any other non-success.
//
// Each minute: p50/p99 by endpoint, errors, each app process's RSS (/proc/<pid>/status VmRSS)
// and its open connections (pg_stat_activity by application_name, set with PGAPPNAME) on the
// primary and the replica. At the end: growth from the warm-up to the end, and lost writes
// (the rows the primary, and then the caught-up replica, hold against what was acknowledged).
// e2e/api/soak.test.ts runs one minute of it in `npm test`.
//
//   npm run soak -- [--minutes 30] [--rate 8] [--pollers 12] [--json report.json]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { postgres15Bin, startReplicatedPostgres } from '../e2e/support/pg-replica';
import { freePort } from '../lib/net/free-port';
import { serverArgs } from '../server/command';

const root = path.resolve(import.meta.dirname, '..');

export interface SoakOptions {
  minutes: number;
  /** Seconds at the start whose figures are not judged (people registered, code paths loaded). */
  warmupSeconds: number;
  /** How often RSS and connections are read. */
  sampleSeconds: number;
  /** RSS growth compares the median of this many seconds after the warm-up with the last ones. */
  rssWindowSeconds: number;
  /** Target operations a second, all virtual users together (the machine is shared: keep it modest). */
  rate: number;
  /** Virtual users sending the mixed operations side by side. */
  concurrency: number;
  /** People holding long-polls (wait=25) the whole time. */
  pollers: number;
  /** Where the databases, photos and server logs live (removed at the end). */
  dir: string;
  log: (line: string) => void;
}

interface Process {
  name: string;
  child: ChildProcess;
  appName: string;
  baseUrl?: string;
  logFile: string;
}

interface Minute {
  minute: number;
  load: number;
  requests: number;
  errors: number;
  endpoints: Record<string, { count: number; p50: number; p99: number }>;
  rssMb: Record<string, number>;
  connections: { primary: Record<string, number>; replica: Record<string, number> };
}

export interface SoakReport {
  minutes: Minute[];
  errors: string[];
  errorCount: number;
  acknowledged: Record<string, number>;
  lostWrites: string[];
  /** Rows stored beyond what was acknowledged (a request that failed after its commit). */
  unacknowledged: string[];
  /** (median RSS of the last window) / (median RSS just after the warm-up) - 1, per process. */
  rssGrowth: Record<string, number>;
  /** p99 of the last 5 minutes / p99 of minutes 5-9 (or last half / first half after the warm-up) - 1. */
  p99Growth: Record<string, number>;
  heldPolls: number;
  loadAverages: number[];
}

// ---------------------------------------------------------------------------
// The app's processes

const LIMITS_ENV = {
  // The defaults, spelled out: the generator's budgets below read these same numbers.
  DISCOVER_LIMIT_PER_HOUR: '120',
  MESSAGE_LIMIT_PER_10_MIN: '20',
  PHOTO_UPLOAD_LIMIT_PER_HOUR: '10',
  REGISTRATION_LIMIT_PER_HOUR: '3',
};

async function startAppProcess(options: {
  name: string;
  role: 'web' | 'worker';
  dir: string;
  env: Record<string, string>;
}): Promise<Process> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(options.dir, `${options.name}.log`);
  const out = fs.openSync(logFile, 'a');
  const appName = `soak-${options.name}`;
  const child = spawn(process.execPath, serverArgs(root, [`--role=${options.role}`]), {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: path.join(options.dir, 'data'),
      // One proxy in front: each simulated person's address is the right-most X-Forwarded-For entry.
      TRUST_PROXY: '1',
      // pg names every connection of this process so (the poll listener names its own).
      PGAPPNAME: appName,
      ...LIMITS_ENV,
      ...options.env,
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  // If this process ends first (a test's timeout), the server must not outlive it.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.off('exit', orphanGuard));
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${options.name} exited (${child.exitCode}):\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${options.name} did not start in time; see ${logFile}`);
    if (options.role === 'worker') {
      if (fs.readFileSync(logFile, 'utf8').includes('"event":"worker_started"')) break;
    } else {
      try {
        if ((await fetch(`${baseUrl}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
    }
    await sleep(250);
  }
  return { name: options.name, child, appName, baseUrl: options.role === 'web' ? baseUrl : undefined, logFile };
}

async function stopProcess(proc: Process): Promise<void> {
  if (proc.child.exitCode !== null) return;
  const exited = new Promise((r) => proc.child.once('exit', r));
  proc.child.kill('SIGTERM');
  await Promise.race([exited, sleep(30_000)]);
  if (proc.child.exitCode === null) proc.child.kill('SIGKILL');
}

function rssMb(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

async function connectionsByApp(pool: pg.Pool): Promise<Record<string, number>> {
  try {
    const { rows } = await pool.query<{ app: string; n: number }>(
      `select coalesce(nullif(application_name, ''), backend_type) as app, count(*)::int as n
         from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()
        group by 1 order by 1`,
    );
    return Object.fromEntries(rows.map((r) => [r.app, r.n]));
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------
// The simulated people

interface Person {
  id: string;
  slug: string;
  token: string;
  ip: string;
  editing: boolean;
  /** The last About me the service acknowledged. */
  aboutMe: string;
  uses: Map<string, number[]>;
}

interface Chat {
  id: string;
  members: [Person, Person];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref?.());

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Budgets the generator keeps within (a little under each limit, over a window a little longer). */
const BUDGETS = {
  discover: { limit: Number(LIMITS_ENV.DISCOVER_LIMIT_PER_HOUR) - 2, windowMs: 3_660_000 },
  message: { limit: Number(LIMITS_ENV.MESSAGE_LIMIT_PER_10_MIN) - 2, windowMs: 630_000 },
  photo: { limit: Number(LIMITS_ENV.PHOTO_UPLOAD_LIMIT_PER_HOUR) - 2, windowMs: 3_660_000 },
};

function withinBudget(person: Person, kind: keyof typeof BUDGETS, key: string = kind): boolean {
  const { limit, windowMs } = BUDGETS[kind];
  const now = Date.now();
  const uses = (person.uses.get(key) ?? []).filter((t) => now - t < windowMs);
  person.uses.set(key, uses);
  return uses.length < limit;
}

function spend(person: Person, key: string): void {
  const uses = person.uses.get(key) ?? [];
  uses.push(Date.now());
  person.uses.set(key, uses);
}

// ---------------------------------------------------------------------------

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const bin = postgres15Bin();
  if (!bin) throw new Error('PostgreSQL 15 binaries are missing (apt-get install postgresql-15, or set PG15_BIN)');
  const { log } = options;
  fs.mkdirSync(options.dir, { recursive: true });
  fs.chmodSync(options.dir, 0o777);
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const loadAverages = [os.loadavg()[0]!];
  log(`load average at the start: ${loadAverages[0]!.toFixed(2)}`);

  const began = Date.now();
  const cluster = await startReplicatedPostgres(bin, path.join(options.dir, 'pg'));
  const processes: Process[] = [];
  const monitors: pg.Pool[] = [];
  try {
    const env = { DATABASE_URL: cluster.primaryUrl, DATABASE_READ_URLS: cluster.replicaUrl };
    log(`primary and replica up in ${((Date.now() - began) / 1000).toFixed(0)} s`);
    // The worker first: it migrates and creates pg-boss's schema (two processes doing that at
    // once collided), so the web instances start on a ready database.
    processes.push(await startAppProcess({ name: 'worker', role: 'worker', dir: options.dir, env }));
    processes.push(
      ...(await Promise.all(
        ['web-1', 'web-2'].map((name) => startAppProcess({ name, role: 'web', dir: options.dir, env })),
      )),
    );
    const webs = processes.filter((p) => p.baseUrl).map((p) => p.baseUrl!);
    const primary = new pg.Pool({ connectionString: cluster.primaryUrl, max: 1, application_name: 'soak-monitor' });
    const replica = new pg.Pool({ connectionString: cluster.replicaUrl, max: 1, application_name: 'soak-monitor' });
    for (const pool of [primary, replica]) pool.on('error', () => {});
    monitors.push(primary, replica);
    log(
      `started in ${((Date.now() - began) / 1000).toFixed(0)} s: worker, ${webs.join(', ')}; ` +
        'a PostgreSQL 15 primary and its streaming replica',
    );
    return await drive(options, { webs, processes, primary, replica, runId, loadAverages });
  } finally {
    await Promise.all(processes.map(stopProcess));
    for (const pool of monitors) await pool.end().catch(() => {});
    await cluster.stop();
    // The servers' logs outlive the run (an error's stack is there); the data does not.
    const logs = path.join(root, 'test-results', 'soak');
    fs.mkdirSync(logs, { recursive: true });
    for (const proc of processes) fs.copyFileSync(proc.logFile, path.join(logs, path.basename(proc.logFile)));
    fs.rmSync(options.dir, { recursive: true, force: true });
  }
}

async function drive(
  options: SoakOptions,
  stack: {
    webs: string[];
    processes: Process[];
    primary: pg.Pool;
    replica: pg.Pool;
    runId: string;
    loadAverages: number[];
  },
): Promise<SoakReport> {
  const { log, minutes } = options;
  const { webs, processes, primary, replica, runId } = stack;
  // Set once the first people are registered: the N minutes are N minutes of the mixed load.
  let started = Date.now();
  let endAt = started + minutes * 60_000;
  const minuteOf = (t: number) => Math.max(0, Math.floor((t - started) / 60_000));

  // Photos: a few small JPEGs, made once.
  const photos = await Promise.all(
    ['#3a6ea5', '#c0504d', '#9bbb59', '#8064a2'].map(async (background) =>
      (
        await sharp({ create: { width: 480, height: 360, channels: 3, background } })
          .jpeg()
          .toBuffer()
      ).toString('base64'),
    ),
  );

  let ipCounter = 0;
  const freshIp = () => {
    ipCounter += 1;
    return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
  };

  // Per minute, per endpoint: latencies; and the errors.
  const samples: Map<string, number[]>[] = [];
  const errorsByMinute: number[] = [];
  const errors: string[] = [];
  let errorCount = 0;
  const acknowledged = {
    registrations: 0,
    edits: 0,
    requests: 0,
    accepts: 0,
    messages: 0,
    photo_uploads: 0,
  };
  let heldPolls = 0;

  const record = (endpoint: string, ms: number, at: number) => {
    const m = minuteOf(at);
    samples[m] ??= new Map();
    const list = samples[m]!.get(endpoint) ?? [];
    list.push(ms);
    samples[m]!.set(endpoint, list);
  };
  const fail = (what: string) => {
    errorCount += 1;
    const m = minuteOf(Date.now());
    errorsByMinute[m] = (errorsByMinute[m] ?? 0) + 1;
    if (errors.length < 20) errors.push(`${new Date().toISOString()} ${what}`);
  };

  /** One request to one of the instances; the body parsed; a non-expected status is an error (returns null). */
  async function request<T = unknown>(
    endpoint: string,
    method: string,
    urlPath: string,
    opts: { token?: string; ip: string; body?: unknown; expect?: number[]; signal?: AbortSignal },
  ): Promise<T | null> {
    const base = pick(webs);
    const headers: Record<string, string> = { 'x-forwarded-for': opts.ip };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const t0 = Date.now();
    const began = performance.now();
    try {
      const res = await fetch(`${base}${urlPath}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: opts.signal,
      });
      const text = await res.text();
      const ms = performance.now() - began;
      if (!(opts.expect ?? [200]).includes(res.status)) {
        fail(`${endpoint} ${method} ${urlPath.split('?')[0]} → ${res.status} ${text.slice(0, 200)}`);
        return null;
      }
      record(endpoint, ms, t0);
      return (text ? JSON.parse(text) : {}) as T;
    } catch (error) {
      if (opts.signal?.aborted) return null;
      fail(`${endpoint} ${method} → ${(error as Error).message}`);
      return null;
    }
  }

  // People at sea, within ~15 km of one point, so their searches find each other.
  const centre = { latitude: -30 + Math.random() * 5, longitude: -100 + Math.random() * 5 };
  const people: Person[] = [];
  const chats: Chat[] = [];
  const related = new Set<string>();
  let registrationsSent = 0;

  async function registerPerson(): Promise<Person | null> {
    registrationsSent += 1;
    const n = registrationsSent;
    const ip = freshIp();
    const aboutMe = `Soak person ${n}, tennis and hiking on weekends`;
    const body = await request<{ user: { id: string; slug: string }; auth: { token: string } }>(
      'POST register',
      'POST',
      '/api/v1/register.json',
      {
        ip,
        expect: [201],
        body: {
          email: `soak-${runId}-${n}@example.com`,
          displayName: `Soak ${n}`,
          aboutMe,
          location: 'Open sea',
          coords: {
            latitude: centre.latitude + (Math.random() - 0.5) * 0.25,
            longitude: centre.longitude + (Math.random() - 0.5) * 0.25,
          },
          gender: pick(['female', 'male']),
          birthday: '1990-06-15',
          activities: ['tennis', 'hiking', pick(['running', 'yoga', 'coffee', 'swimming'])],
          availability_text: pick(['weekends', 'weekday evenings', 'Saturday mornings and Sunday']),
          emailMagicLink: false,
        },
      },
    );
    if (!body) return null;
    acknowledged.registrations += 1;
    const person: Person = {
      id: body.user.id,
      slug: body.user.slug,
      token: body.auth.token,
      ip,
      editing: false,
      aboutMe,
      uses: new Map(),
    };
    // The photo step of onboarding, a request of its own (as the app's sign-up does it).
    spend(person, 'photo');
    const photo = await request('POST photo', 'POST', '/api/v1/me/photo.json', {
      token: person.token,
      ip,
      body: { photo: pick(photos), mimeType: 'image/jpeg' },
    });
    if (!photo) return null;
    acknowledged.photo_uploads += 1;
    people.push(person);
    return person;
  }

  /** A person for whom `ok` holds, or a new one if a few tries find none. */
  async function someone(ok: (p: Person) => boolean): Promise<Person | null> {
    for (let i = 0; i < 8 && people.length > 0; i++) {
      const p = pick(people);
      if (ok(p)) return p;
    }
    const fresh = await registerPerson();
    return fresh && ok(fresh) ? fresh : null;
  }

  let edits = 0;
  const operations: [number, () => Promise<void>][] = [
    [
      30,
      async () => {
        const p = await someone((x) => withinBudget(x, 'discover'));
        if (!p) return;
        spend(p, 'discover');
        await request('GET discover', 'GET', '/api/v1/discover.json', { token: p.token, ip: p.ip });
      },
    ],
    [
      10,
      async () => {
        if (people.length < 2) return;
        const [viewer, seen] = [pick(people), pick(people)];
        await request('GET profile', 'GET', `/api/v1/users/${seen.slug}/profile.json`, {
          token: viewer.token,
          ip: viewer.ip,
        });
      },
    ],
    [
      14,
      async () => {
        const p = await someone((x) => !x.editing);
        if (!p) return;
        p.editing = true;
        edits += 1;
        const text = `Edited ${edits}: tennis at dawn, hiking on Sundays`;
        try {
          const body = await request('PATCH me', 'PATCH', '/api/v1/me.json', {
            token: p.token,
            ip: p.ip,
            body: { aboutMe: text },
          });
          if (body) {
            p.aboutMe = text;
            acknowledged.edits += 1;
            // Read-your-writes: the editor's own read, from either instance, shows the edit at once.
            const me = await request<{ profile: { aboutMe: string | null } }>('GET me', 'GET', '/api/v1/me.json', {
              token: p.token,
              ip: p.ip,
            });
            const seen = me?.profile.aboutMe;
            if (me && seen !== text) fail(`GET me after an edit showed ${JSON.stringify(seen)} instead of the edit`);
          }
        } finally {
          p.editing = false;
        }
      },
    ],
    [
      10,
      async () => {
        const a = await someone(() => true);
        const b = await someone((x) => a !== null && x !== a && !related.has([a.id, x.id].sort().join()));
        if (!a || !b) return;
        related.add([a.id, b.id].sort().join());
        const asked = await request<{ request: { id: string } }>(
          'POST buddy_request',
          'POST',
          `/api/v1/users/${b.slug}/buddy_request.json`,
          {
            token: a.token,
            ip: a.ip,
            body: { message: 'Tennis this weekend?' },
            expect: [201],
          },
        );
        if (!asked) return;
        acknowledged.requests += 1;
        const accepted = await request<{ chat: { chatId: string } }>(
          'POST accept',
          'POST',
          `/api/v1/buddy_requests/${asked.request.id}/accept.json`,
          { token: b.token, ip: b.ip, body: {} },
        );
        if (!accepted) return;
        acknowledged.accepts += 1;
        chats.push({ id: accepted.chat.chatId, members: [a, b] });
      },
    ],
    [
      26,
      async () => {
        if (chats.length === 0) return;
        const chat = pick(chats);
        const sender = pick(chat.members);
        const key = `message:${chat.id}`;
        if (!withinBudget(sender, 'message', key)) return;
        spend(sender, key);
        const sent = await request('POST message', 'POST', `/api/v1/chats/${chat.id}/messages.json`, {
          token: sender.token,
          ip: sender.ip,
          body: { text: `See you at the courts at ${Math.floor(Math.random() * 12) + 7}` },
          expect: [201],
        });
        if (sent) acknowledged.messages += 1;
      },
    ],
    [
      5,
      async () => {
        const p = await someone(() => true);
        if (p) await request('GET inbox', 'GET', '/api/v1/inbox.json', { token: p.token, ip: p.ip });
      },
    ],
    [
      3,
      async () => {
        const p = await someone((x) => withinBudget(x, 'photo'));
        if (!p) return;
        spend(p, 'photo');
        const body = await request('POST photo', 'POST', '/api/v1/me/photo.json', {
          token: p.token,
          ip: p.ip,
          body: { photo: pick(photos), mimeType: 'image/jpeg' },
        });
        if (body) acknowledged.photo_uploads += 1;
      },
    ],
    [2, async () => void (await registerPerson())],
  ];
  const totalWeight = operations.reduce((s, [w]) => s + w, 0);
  const randomOperation = () => {
    let r = Math.random() * totalWeight;
    for (const [w, op] of operations) {
      r -= w;
      if (r < 0) return op;
    }
    return operations[0]![1];
  };

  // The first people, a few at a time, before the clock starts.
  const firstPeople = Math.max(4, options.concurrency * 2);
  for (let tries = 0; people.length < firstPeople && tries < 3; tries++)
    await Promise.all(Array.from({ length: firstPeople - people.length }, registerPerson));
  samples.length = 0;
  log(`${people.length} people registered; the load starts`);
  started = Date.now();
  endAt = started + minutes * 60_000;

  const stopping = new AbortController();
  const pollers = Array.from({ length: options.pollers }, async () => {
    const p = await registerPerson();
    if (!p) return;
    let next = '/api/v1/inbox.json?wait=25';
    while (!stopping.signal.aborted && Date.now() < endAt) {
      const body = await request<{ poll_next_url: string }>('GET inbox wait=25 (held)', 'GET', next, {
        token: p.token,
        ip: p.ip,
        signal: stopping.signal,
      });
      if (!body) {
        if (!stopping.signal.aborted) await sleep(1_000);
        continue;
      }
      heldPolls += 1;
      const url = new URL(body.poll_next_url, 'http://x');
      url.searchParams.set('wait', '25');
      next = `${url.pathname}${url.search}`;
    }
  });

  const periodMs = (options.concurrency / options.rate) * 1000;
  const users = Array.from({ length: options.concurrency }, async () => {
    while (Date.now() < endAt) {
      const began = Date.now();
      await randomOperation()();
      // Poisson-ish pacing: the rate, not the machine's speed, sets the load.
      await sleep(Math.max(0, periodMs * (0.5 + Math.random()) - (Date.now() - began)));
    }
  });

  // Sampling: RSS and connections every sampleSeconds; a line each minute.
  const rssSamples: { t: number; rss: Record<string, number> }[] = [];
  const connectionSamples: Minute['connections'][] = [];
  const minutesOut: Minute[] = [];
  let lastMinuteLogged = -1;
  const sampler = (async () => {
    for (let i = 1; Date.now() < endAt; i++) {
      // On a fixed grid from the start, so a slow sample does not shift the ones after it.
      await sleep(Math.max(0, started + i * options.sampleSeconds * 1000 - Date.now()));
      const t = Date.now();
      rssSamples.push({ t, rss: Object.fromEntries(processes.map((p) => [p.name, rssMb(p.child.pid)])) });
      connectionSamples[minuteOf(t)] = {
        primary: await connectionsByApp(primary),
        replica: await connectionsByApp(replica),
      };
      const m = minuteOf(t) - 1;
      if (m > lastMinuteLogged && m < minutes) {
        lastMinuteLogged = m;
        if (m + 1 === Math.ceil(minutes / 2) && minutes > 1) stack.loadAverages.push(os.loadavg()[0]!);
        minutesOut.push(summariseMinute(m));
        log(minuteLine(minutesOut[minutesOut.length - 1]!));
      }
    }
  })();

  function summariseMinute(m: number): Minute {
    const endpoints: Minute['endpoints'] = {};
    for (const [name, list] of [...(samples[m]?.entries() ?? [])].sort()) {
      const sorted = [...list].sort((a, b) => a - b);
      endpoints[name] = { count: list.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    }
    const inMinute = rssSamples.filter((s) => minuteOf(s.t) === m);
    const last = inMinute[inMinute.length - 1] ?? rssSamples[rssSamples.length - 1];
    return {
      minute: m + 1,
      load: os.loadavg()[0]!,
      requests: Object.values(endpoints).reduce((s, e) => s + e.count, 0),
      errors: errorsByMinute[m] ?? 0,
      endpoints,
      rssMb: last?.rss ?? {},
      connections: connectionSamples[m] ?? connectionSamples[m + 1] ?? { primary: {}, replica: {} },
    };
  }

  await Promise.all(users);
  stopping.abort();
  await Promise.all(pollers);
  await sampler;
  for (let m = lastMinuteLogged + 1; m < minutes; m++) {
    minutesOut.push(summariseMinute(m));
    log(minuteLine(minutesOut[minutesOut.length - 1]!));
  }
  stack.loadAverages.push(os.loadavg()[0]!);

  // Lost writes: what the primary holds against what was acknowledged; then the replica, caught up.
  const lostWrites: string[] = [];
  const counts = async (pool: pg.Pool) =>
    (
      await pool.query<Record<string, number>>(
        `select (select count(*)::int from users where email like $1) as registrations,
                (select count(*)::int from buddy_requests) as requests,
                (select count(*)::int from buddy_requests where state = 'accepted') as accepts,
                (select count(*)::int from messages) as messages,
                (select count(*)::int from photos where source = 'upload') as photo_uploads`,
        [`soak-${runId}-%`],
      )
    ).rows[0]!;
  const expected: Record<string, number> = { ...acknowledged };
  delete expected.edits;
  // More stored than acknowledged is no loss: a request that failed after its commit (noted in errors).
  const unacknowledged: string[] = [];
  const compare = (side: string, stored: Record<string, number>) => {
    for (const [what, n] of Object.entries(expected)) {
      if (stored[what]! < n) lostWrites.push(`${side}: ${what} ${stored[what]} stored, ${n} acknowledged`);
      if (stored[what]! > n) unacknowledged.push(`${side}: ${what} ${stored[what]} stored, ${n} acknowledged`);
    }
  };
  compare('primary', await counts(primary));
  const { rows: abouts } = await primary.query<{ id: string; about_me: string }>(
    'select id, about_me from users where id = any($1::uuid[])',
    [people.map((p) => p.id)],
  );
  const stored = new Map(abouts.map((r) => [r.id, r.about_me]));
  const lostEdits = people.filter((p) => stored.get(p.id) !== p.aboutMe).length;
  if (lostEdits > 0) lostWrites.push(`primary: ${lostEdits} people's last acknowledged About me is not what is stored`);
  const { rows: lsn } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
  const caughtUpBy = Date.now() + 30_000;
  while (
    !(await replica.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [lsn[0]!.lsn]))
      .rows[0]!.ok &&
    Date.now() < caughtUpBy
  )
    await sleep(200);
  compare('replica', await counts(replica));

  // Growth: RSS from just after the warm-up to the end; p99 from early to late minutes.
  const warmEnd = started + options.warmupSeconds * 1000;
  const windowMs = options.rssWindowSeconds * 1000;
  const rssGrowth: Record<string, number> = {};
  for (const p of processes) {
    const early = rssSamples.filter((s) => s.t >= warmEnd && s.t < warmEnd + windowMs).map((s) => s.rss[p.name]!);
    const late = rssSamples.filter((s) => s.t >= endAt - windowMs).map((s) => s.rss[p.name]!);
    rssGrowth[p.name] = early.length && late.length ? median(late) / median(early) - 1 : Number.NaN;
  }
  const p99Growth: Record<string, number> = {};
  const firstJudged = Math.ceil(options.warmupSeconds / 60);
  const [earlyMinutes, lateMinutes] =
    minutes >= 15
      ? [
          [4, 5, 6, 7, 8],
          [minutes - 5, minutes - 4, minutes - 3, minutes - 2, minutes - 1],
        ]
      : [
          [firstJudged, Math.floor((minutes + firstJudged) / 2)],
          [Math.floor((minutes + firstJudged) / 2), minutes],
        ].map(([a, b]) => Array.from({ length: Math.max(1, b! - a!) }, (_, i) => a! + i));
  const endpointsSeen = new Set(samples.flatMap((m) => [...(m?.keys() ?? [])]));
  for (const endpoint of endpointsSeen) {
    if (endpoint.includes('(held)')) continue;
    const gather = (ms: number[]) => ms.flatMap((m) => samples[m]?.get(endpoint) ?? []).sort((a, b) => a - b);
    const [a, b] = [gather(earlyMinutes!), gather(lateMinutes!)];
    if (a.length >= 20 && b.length >= 20) p99Growth[endpoint] = percentile(b, 99) / percentile(a, 99) - 1;
  }

  return {
    minutes: minutesOut,
    errors,
    errorCount,
    acknowledged: { ...acknowledged, edits_checked_people: people.length },
    lostWrites,
    unacknowledged,
    rssGrowth,
    p99Growth,
    heldPolls,
    loadAverages: stack.loadAverages,
  };
}

const short: Record<string, string> = {
  'GET discover': 'discover',
  'GET profile': 'profile',
  'PATCH me': 'edit',
  'GET me': 'me',
  'POST buddy_request': 'request',
  'POST accept': 'accept',
  'POST message': 'message',
  'GET inbox': 'inbox',
  'POST photo': 'photo',
  'POST register': 'register',
  'GET inbox wait=25 (held)': 'held poll',
};

function minuteLine(m: Minute): string {
  const eps = Object.entries(m.endpoints)
    .filter(([name]) => !name.includes('(held)'))
    .map(([name, e]) => `${short[name] ?? name} ${e.p50.toFixed(0)}/${e.p99.toFixed(0)}`)
    .join(' ');
  const rss = Object.entries(m.rssMb)
    .map(([n, v]) => `${n} ${v.toFixed(0)}`)
    .join(' ');
  const conns = (side: Record<string, number>) =>
    Object.entries(side)
      .filter(([n]) => n !== 'soak-monitor')
      .map(([n, v]) => `${n.replace(/^soak-/, '')}=${v}`)
      .join(',');
  return (
    `min ${m.minute} load ${m.load.toFixed(1)}: ${m.requests} req, ${m.errors} err | p50/p99 ms: ${eps} | ` +
    `RSS MB: ${rss} | conns primary ${conns(m.connections.primary)} replica ${conns(m.connections.replica)}`
  );
}

export function verdictLines(report: SoakReport, rssLimit: number, p99Limit: number): string[] {
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  const lines = [
    `errors: ${report.errorCount}${report.errors.length ? `\n  ${report.errors.join('\n  ')}` : ''}`,
    `acknowledged: ${Object.entries(report.acknowledged)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; held polls answered: ${report.heldPolls}`,
    `lost writes: ${report.lostWrites.length === 0 ? 0 : report.lostWrites.join('; ')}` +
      (report.unacknowledged.length ? `; stored but not acknowledged: ${report.unacknowledged.join('; ')}` : ''),
    `RSS growth after the warm-up: ${Object.entries(report.rssGrowth)
      .map(([k, v]) => `${k} ${pct(v)}`)
      .join(', ')} (limit ${pct(rssLimit)})`,
    `p99 growth, early to late minutes: ${Object.entries(report.p99Growth)
      .map(([k, v]) => `${short[k] ?? k} ${pct(v)}`)
      .join(', ')} (goal ${pct(p99Limit)})`,
    `load average start/middle/end: ${report.loadAverages.map((l) => l.toFixed(2)).join(' / ')}`,
  ];
  const rssOk = Object.values(report.rssGrowth).every((g) => g <= rssLimit);
  const p99Ok = Object.values(report.p99Growth).every((g) => g <= p99Limit);
  lines.push(
    `verdict: ${report.errorCount === 0 && report.lostWrites.length === 0 && rssOk ? 'PASS' : 'FAIL'} ` +
      `(errors ${report.errorCount}, lost writes ${report.lostWrites.length}, RSS ${rssOk ? 'flat' : 'grew'}, ` +
      `p99 ${p99Ok ? 'flat' : 'moved'} within ${pct(p99Limit)})`,
  );
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '30' },
      rate: { type: 'string', default: '8' },
      concurrency: { type: 'string', default: '4' },
      pollers: { type: 'string', default: '12' },
      json: { type: 'string' },
    },
  });
  const minutes = Number(values.minutes);
  const report = await runSoak({
    minutes,
    warmupSeconds: minutes >= 10 ? 4 * 60 : 20,
    sampleSeconds: 10,
    rssWindowSeconds: minutes >= 10 ? 60 : 10,
    rate: Number(values.rate),
    concurrency: Number(values.concurrency),
    pollers: Number(values.pollers),
    dir: fs.mkdtempSync(path.join(os.tmpdir(), 'buddy-soak-')),
    log: (line) => console.log(line),
  });
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
  for (const line of verdictLines(report, 0.1, 0.1)) console.log(line);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
