// A real streaming replica for e2e/api/read-replicas.test.ts: a PostgreSQL 15 primary
// (Debian's postgresql-15 package) and a standby made from it with pg_basebackup. The
// embedded PostgreSQL ships no pg_basebackup, and a standby must run the primary's major version.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '@/lib/net/free-port';

const run = promisify(execFile);

/** The PostgreSQL 15 binaries: PG15_BIN, or where Debian's postgresql-15 puts them. */
export function postgres15Bin(): string | undefined {
  const dir = process.env.PG15_BIN || '/usr/lib/postgresql/15/bin';
  const needed = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];
  return needed.every((name) => fs.existsSync(path.join(dir, name))) ? dir : undefined;
}

export interface ReplicatedPostgres {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the standby at once (like a crash): its clients' connections are cut. */
  killReplica(): Promise<void>;
  startReplica(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicatedPostgres(bin: string, dir: string): Promise<ReplicatedPostgres> {
  fs.mkdirSync(dir, { recursive: true });
  // PostgreSQL refuses to run as root: then it runs as `postgres`, which must write here.
  fs.chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const pgRun = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const settings = (port: number) =>
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = ''`,
      'fsync = off',
      'shared_buffers = 32MB',
      // How fast a standby reports its position: the lag the app measures is this fresh.
      'wal_receiver_status_interval = 1s',
      '',
    ].join('\n');

  // trust: initdb's pg_hba.conf then lets loopback clients in, replication connections too.
  await pgRun('initdb', ['-D', primaryDir, '-U', 'buddy', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  fs.appendFileSync(path.join(primaryDir, 'postgresql.conf'), settings(primaryPort));
  const ctl = (data: string, action: string[]) =>
    pgRun('pg_ctl', ['-D', data, '-l', path.join(dir, `${path.basename(data)}.log`), '-w', '-t', '60', ...action]);
  await ctl(primaryDir, ['start']);
  const admin = new pg.Client({ connectionString: `postgres://buddy@127.0.0.1:${primaryPort}/postgres` });
  await admin.connect();
  await admin.query('create database buddy');
  await admin.end();

  await pgRun('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'buddy',
    '-D',
    standbyDir,
    '-R',
    '-X',
    'stream',
    '--no-sync',
    // An immediate checkpoint: the default spread one took 90 s on a busy machine.
    '--checkpoint=fast',
  ]);
  // The copied postgresql.conf names the primary's port; the last setting wins.
  fs.appendFileSync(path.join(standbyDir, 'postgresql.conf'), settings(standbyPort));
  const startReplica = async () => {
    await ctl(standbyDir, ['start']);
  };
  await startReplica();

  return {
    primaryUrl: `postgres://buddy@127.0.0.1:${primaryPort}/buddy`,
    replicaUrl: `postgres://buddy@127.0.0.1:${standbyPort}/buddy`,
    killReplica: async () => {
      await ctl(standbyDir, ['-m', 'immediate', 'stop']);
    },
    startReplica,
    async stop() {
      for (const data of [standbyDir, primaryDir]) await ctl(data, ['-m', 'fast', 'stop']).catch(() => {});
      if (process.env.KEEP_TEST_DATA !== '1') fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
