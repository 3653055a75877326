// Starts the real service for API and browser tests: a real PostgreSQL (embedded,
// or a fresh database on DATABASE_URL's server) and the server as a child process,
// exactly as `npm start` runs it (server/serve.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '@/lib/net/free-port';
import { serverArgs } from '@/server/command';
import { noteInServerLog, pipeToServerLog } from './server-log';

export interface Stack {
  baseUrl: string;
  databaseUrl: string;
  dataDir: string;
  /** The server process (for benchmarks that read its CPU time). */
  serverPid: number;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '../..');

/** Refuses to run tests against anything but a database on this machine. */
export function assertLocalDatabase(url: string): void {
  const host = new URL(url).hostname;
  if (!['localhost', '127.0.0.1', '::1', '[::1]', ''].includes(host)) {
    throw new Error(`Refusing to run tests against a non-local database (${host})`);
  }
}

/** A new, empty database on that (local) server, and how to drop it. */
export async function freshDatabaseOn(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  assertLocalDatabase(serverUrl);
  const name = `buddy_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/** A throwaway embedded PostgreSQL in a child process (see postgres-process.ts for why). */
async function startPostgresProcess(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'e2e/support/postgres-process.ts'), dir], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  pipeToServerLog(child.stderr!, 'postgres');
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited early (${code})`)));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
    },
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not become healthy in time:\n${output()}`);
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  logFile: string;
  /** SIGTERM, then SIGKILL after 30 s (the server drains for up to 25 s). */
  stop(): Promise<void>;
}

/**
 * One more `server/start.ts` on an existing database: a second instance (wake-ups
 * across instances) or a server a test may SIGTERM (graceful shutdown).
 */
export async function startServerProcess(options: {
  databaseUrl: string;
  dataDir: string;
  env?: Record<string, string>;
  args?: string[];
  /** Flags for `node` itself (--cpu-prof, which Node refuses in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** Another checkout's server (a benchmark's baseline); this one by default. */
  root?: string;
  logName?: string;
}): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(options.dataDir, options.logName ?? `server-${port}.log`);
  const log = fs.createWriteStream(logFile);
  const server = `app:${port}`;
  noteInServerLog(server, {
    event: 'test_server_start',
    args: options.args ?? [],
    env: Object.keys(options.env ?? {}),
  });
  const serverRoot = options.root ?? root;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...serverArgs(serverRoot, options.args)], {
    cwd: serverRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: options.dataDir,
      // One proxy in front: the right-most X-Forwarded-For entry is the client, so each simulated
      // client sends its own address as that entry (and an attacker's extra entries go to its left).
      TRUST_PROXY: '1',
      NEXT_TELEMETRY_DISABLED: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Into its own file (tests read it) and the suite's server log, never the console.
  pipeToServerLog(child.stdout!, server, log);
  pipeToServerLog(child.stderr!, server, log);
  child.once('close', () => log.end());
  const output = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '');
  await waitForHealth(baseUrl, child, output);
  return {
    baseUrl,
    child,
    logFile,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

/**
 * An empty database for one test run: a fresh one on DATABASE_URL's server when that is
 * set, else a throwaway embedded PostgreSQL with its data under `dataDir`.
 */
export async function startTestDatabase(dataDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const fresh = await freshDatabaseOn(process.env.DATABASE_URL);
    return { url: fresh.url, stop: fresh.drop };
  }
  return startPostgresProcess(path.join(dataDir, 'postgres'));
}

/**
 * startTestDatabase in a temporary directory of its own (`prefix` names it), readable by the
 * `postgres` user; stopping it removes the directory too.
 */
export async function startScratchDatabase(prefix: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // As root the embedded server runs as the `postgres` user, which must reach its data dir.
  fs.chmodSync(dataDir, 0o755);
  const database = await startTestDatabase(dataDir);
  return {
    url: database.url,
    stop: async () => {
      await database.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'buddy-test-'));
  // As root the embedded server runs as the `postgres` user, which must reach its data dir.
  fs.chmodSync(dataDir, 0o755);
  const { url: databaseUrl, stop: stopDatabase } = await startTestDatabase(dataDir);

  const server = await startServerProcess({ databaseUrl, dataDir, env, logName: 'server.log' });

  return {
    baseUrl: server.baseUrl,
    databaseUrl,
    dataDir,
    serverPid: server.child.pid!,
    async stop() {
      await server.stop();
      await stopDatabase();
      if (process.env.KEEP_TEST_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
