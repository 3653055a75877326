// Migration 0017 on a scratch database: tokens stored in plain text by 0016's adapter are
// rehashed exactly as lib/accounts/oauth-stored-id.ts names them now, so they keep working, and
// their jti copy is gone; rows that are not credentials are left alone.
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startScratchDatabase } from '@/e2e/support/stack';
import { storedOauthId } from '@/lib/accounts/oauth-stored-id';
import { migrations } from './index';

let stopDatabase: (() => Promise<void>) | undefined;
let db: Kysely<any>;

beforeAll(async () => {
  const database = await startScratchDatabase('buddy-0017-');
  stopDatabase = database.stop;
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // An idle connection the server ends (57P01, as the scratch server stops) is no failure of
  // these tests, which assert through their queries; unheard, it crashed the test process.
  pool.on('error', () => {});
  db = new Kysely({ dialect: new PostgresDialect({ pool }) });
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await stopDatabase?.();
}, 60_000);

it('rehashes stored access and refresh tokens and drops their jti; other models keep their ids', async () => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo('0016_oauth')).error).toBeUndefined();
  const plain = [
    { model: 'AccessToken', id: 'Zq3_access-token-value-Ünï' },
    { model: 'RefreshToken', id: 'refresh-token-value-0123456789' },
    { model: 'Grant', id: 'grant-id-stays' },
    { model: 'DeviceCode', id: 'device-code-stays' },
  ];
  for (const row of plain)
    await sql`insert into oauth_payloads (model, id, payload) values (${row.model}, ${row.id}, ${JSON.stringify({ jti: row.id, kind: row.model })}::jsonb)`.execute(
      db,
    );
  expect((await migrator.migrateTo('0017_oauth_token_hashes')).error).toBeUndefined();
  const { rows } = await sql<{ model: string; id: string; payload: Record<string, unknown> }>`
    select model, id, payload from oauth_payloads order by model`.execute(db);
  for (const row of plain) {
    const stored = rows.find((r) => r.model === row.model)!;
    expect(stored.id).toBe(storedOauthId(row.model, row.id));
    const credential = row.model === 'AccessToken' || row.model === 'RefreshToken';
    expect(stored.id === row.id).toBe(!credential);
    expect('jti' in stored.payload).toBe(!credential);
  }
}, 120_000);
