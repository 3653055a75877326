// PostgreSQL may close any connection at any time (a restart, a failover, an administrator's
// pg_terminate_backend): the processes keep running and reconnect when next needed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { serverArgs } from '@/server/command';
import { testDb } from './client';

const root = path.resolve(import.meta.dirname, '../..');

describe('PostgreSQL closing connections', () => {
  it('a worker process survives its idle connections being terminated, and stops cleanly after', async () => {
    // Its own application_name (pg reads PGAPPNAME), so only its sessions are terminated.
    const appName = `restart-test-${process.pid}`;
    const worker = spawn(process.execPath, serverArgs(root, ['--role=worker']), {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: inject('databaseUrl'),
        DATA_DIR: inject('dataDir'),
        PGAPPNAME: appName,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    worker.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!output.includes('"event":"worker_started"') && Date.now() < deadline && worker.exitCode === null) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(output).toContain('"event":"worker_started"');
      // Let its pool settle into idle connections, then close every one of them.
      await new Promise((r) => setTimeout(r, 1_000));
      const { rows } = await sql<{ terminated: boolean }>`
        select pg_terminate_backend(pid) as terminated from pg_stat_activity
        where application_name = ${appName} and state = 'idle'`.execute(testDb());
      expect(rows.length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 2_000));
      expect(worker.exitCode).toBeNull();
      expect(output).toContain('idle database connection closed');
      expect(output).not.toMatch(/uncaught/i);
    } finally {
      worker.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 90_000);
});
