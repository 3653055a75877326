// The listener's barrier on a real PostgreSQL: a NOTIFY committed on another connection has
// reached the hooks once notificationsDelivered() resolves. That is what lets an instance trust
// its read-your-writes marks when the write was taken by another instance an instant before
// (db/replicas.ts; the soak's edit-then-read through two instances once read a stale replica).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchDatabase } from '@/e2e/support/stack';
import {
  ensureListener,
  listenerConnectionForTests,
  notificationsDelivered,
  onNotification,
  POLL_CHANNEL,
  stopListener,
} from './listener';

let stopDatabase: () => Promise<void> = async () => {};
let writer: pg.Client;
const seen = new Set<string>();
const saved = { url: process.env.DATABASE_URL, direct: process.env.DATABASE_DIRECT_URL };

beforeAll(async () => {
  const database = await startScratchDatabase('buddy-listener-');
  stopDatabase = database.stop;
  process.env.DATABASE_URL = database.url;
  delete process.env.DATABASE_DIRECT_URL;
  await ensureListener();
  onNotification((kind, id) => seen.add(`${kind}:${id}`));
  writer = new pg.Client({ connectionString: database.url });
  await writer.connect();
}, 120_000);

afterAll(async () => {
  await writer?.end();
  await stopListener();
  process.env.DATABASE_URL = saved.url;
  if (saved.direct !== undefined) process.env.DATABASE_DIRECT_URL = saved.direct;
  await stopDatabase();
});

const ROUNDS = 200;

/** Notifies ROUNDS times from the writer; after each commit, `settle`, then whether the hooks had it. */
async function deliveredAfter(tag: string, settle: () => Promise<unknown>): Promise<number> {
  let delivered = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const payload = `w:${tag}-${i}@0/1`;
    await writer.query('select pg_notify($1, $2)', [POLL_CHANNEL, payload]);
    await settle();
    if (seen.has(payload)) delivered++;
  }
  return delivered;
}

describe('notificationsDelivered', () => {
  it('resolves only after every notification committed before it has reached the hooks', async () => {
    expect(await deliveredAfter('barrier', () => notificationsDelivered())).toBe(ROUNDS);
  });

  // The race it closes, made certain: while the LISTEN connection runs a query, its backend holds
  // every notification until the query ends, so a commit answered to the writer is not yet heard.
  it('waits out a listener that was busy when the commit came', async () => {
    const listener = listenerConnectionForTests()!;
    const busy = listener.query('select pg_sleep(0.5)');
    const running = async () =>
      (
        await writer.query(
          "select count(*)::int as n from pg_stat_activity where application_name = 'buddy-poll-listener' and state = 'active'",
        )
      ).rows[0].n as number;
    while ((await running()) === 0) await new Promise((r) => setTimeout(r, 5));
    const payload = 'w:while-busy@0/1';
    await writer.query('select pg_notify($1, $2)', [POLL_CHANNEL, payload]);
    expect(seen.has(payload)).toBe(false);
    expect(await notificationsDelivered()).toBe(true);
    expect(seen.has(payload)).toBe(true);
    await busy;
  });

  it('shares one round trip among the callers of one turn', async () => {
    const together = [notificationsDelivered(), notificationsDelivered(), notificationsDelivered()];
    expect(together[0]).toBe(together[1]);
    expect(await Promise.all(together)).toEqual([true, true, true]);
  });

  it('answers false while the listener is down', async () => {
    await stopListener();
    expect(await notificationsDelivered()).toBe(false);
  });
});
