// A database that is busy or briefly away answers 503 with Retry-After, never a 500: the
// errors are provoked on a real PostgreSQL (a deadlock, a statement timeout, a terminated
// session, a refused connection) and put through the route wrapper's own mapping.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchDatabase } from '../e2e/support/stack';
import { freePort } from '../lib/net/free-port';
import { errorHeaders, errorStatus } from '../lib/http/error-response';
import { toApiError } from '../lib/http/route';

let url = '';
let stopDatabase: () => Promise<void> = async () => {};
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a terminated session also emits; the failed query is what we test
  await client.connect();
  clients.push(client);
  return client;
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the database to refuse');
}

function expectBusy(error: unknown): void {
  const answer = toApiError(error);
  expect(answer.code).toBe('service_unavailable');
  expect(errorStatus(answer)).toBe(503);
  expect(errorHeaders(answer)['retry-after']).toBe('1');
}

beforeAll(async () => {
  const database = await startScratchDatabase('buddy-transient-');
  url = database.url;
  stopDatabase = database.stop;
  const setup = await connect();
  await setup.query('CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)');
  await setup.query('INSERT INTO pair (id) VALUES (1), (2)');
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
  await stopDatabase();
});

describe('a busy or absent database', () => {
  it('a deadlock (40P01) is a 503 with Retry-After', async () => {
    const [a, b] = [await connect(), await connect()];
    await a.query('BEGIN');
    await b.query('BEGIN');
    await a.query('UPDATE pair SET n = n + 1 WHERE id = 1');
    await b.query('UPDATE pair SET n = n + 1 WHERE id = 2');
    const results = await Promise.allSettled([
      a.query('UPDATE pair SET n = n + 1 WHERE id = 2'),
      b.query('UPDATE pair SET n = n + 1 WHERE id = 1'),
    ]);
    await Promise.all([a.query('ROLLBACK'), b.query('ROLLBACK')]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0]!.reason as { code: string }).code).toBe('40P01');
    expectBusy(refused[0]!.reason);
  });

  it('a statement timeout (57014) is a 503', async () => {
    const client = await connect();
    await client.query("SET statement_timeout = '50ms'");
    const error = await failureOf(client.query('SELECT pg_sleep(2)'));
    expect((error as { code: string }).code).toBe('57014');
    expectBusy(error);
  });

  it('a session the server ends (57P01) is a 503', async () => {
    const [victim, admin] = [await connect(), await connect()];
    const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pending = failureOf(victim.query('SELECT pg_sleep(5)'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    expectBusy(await pending);
  });

  it('a refused connection is a 503', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/none`, max: 1 });
    const error = await failureOf(pool.query('SELECT 1'));
    await pool.end();
    expectBusy(error);
  });

  it('a pool that cannot hand out a connection in time is a 503', async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 100 });
    const held = await pool.connect();
    const error = await failureOf(pool.query('SELECT 1'));
    held.release();
    await pool.end();
    expectBusy(error);
  });

  it('a mistake of ours (a syntax error) stays a 500', async () => {
    const client = await connect();
    const error = await failureOf(client.query('SELEC 1'));
    const answer = toApiError(error);
    expect(answer.code).toBe('internal_error');
    expect(errorStatus(answer)).toBe(500);
  });
});
