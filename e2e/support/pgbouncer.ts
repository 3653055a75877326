// A real PgBouncer (the Debian package) in transaction mode, in front of the test
// PostgreSQL: what operators put between many app instances and one primary.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '@/lib/net/free-port';
import { pipeToServerLog } from './server-log';

/** The pgbouncer binary: PGBOUNCER_PATH, or where Debian's package puts it. */
export function pgbouncerBinary(): string | undefined {
  return [process.env.PGBOUNCER_PATH, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find(
    (file): file is string => !!file && fs.existsSync(file),
  );
}

export interface PgBouncer {
  /** The same database as the one given, through PgBouncer. */
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in transaction mode with a deliberately small server pool, so the app's
 * client connections share server connections and any session state (a SET, a named
 * prepared statement, a LISTEN) would surface on the wrong one.
 */
export async function startPgBouncer(binary: string, databaseUrl: string, dir: string): Promise<PgBouncer> {
  const target = new URL(databaseUrl);
  const database = decodeURIComponent(target.pathname.slice(1));
  const port = await freePort();
  fs.mkdirSync(dir, { recursive: true });
  // PgBouncer refuses to run as root; it then runs as the `postgres` user, which must write here.
  fs.chmodSync(dir, 0o777);
  const logFile = path.join(dir, 'pgbouncer.log');
  const configFile = path.join(dir, 'pgbouncer.ini');
  const server = [
    `host=${target.hostname}`,
    `port=${target.port || 5432}`,
    `dbname=${database}`,
    `user=${decodeURIComponent(target.username)}`,
    `password=${decodeURIComponent(target.password)}`,
  ].join(' ');
  fs.writeFileSync(
    configFile,
    [
      '[databases]',
      `${database} = ${server}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      // The database entry names the server login; clients on loopback need none of their own.
      'auth_type = any',
      'pool_mode = transaction',
      'default_pool_size = 3',
      'max_client_conn = 500',
      `logfile = ${logFile}`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  pipeToServerLog(child.stdout!, 'pgbouncer');
  pipeToServerLog(child.stderr!, 'pgbouncer');
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): see ${logFile}`);
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url: url.toString(),
    logFile,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000).unref())]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
