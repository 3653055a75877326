// The listener's barrier on a real PostgreSQL: a NOTIFY committed on another connection has
// reached the hooks once notificationsDelivered() resolves. That is what lets an instance trust
// its read-your-writes marks when the write was taken by another instance an instant before
// (db/replicas.ts; the soak's edit-then-read through two instances once read a stale replica).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScratchDatabase } from '@/e2e/support/stack';
import { ensureListener, notificationsDelivered, onNotification, POLL_CHANNEL, stopListener } from './listener';

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

  it('is needed: without it, a commit answered to one connection is often not yet heard on the other', async () => {
    // The control: the same rounds with only a turn of the event loop between commit and look.
    // Measured: 168 of 200 heard, so all 200 by chance is about 0.84^200.
    expect(await deliveredAfter('no-barrier', () => new Promise((r) => setImmediate(r)))).toBeLessThan(ROUNDS);
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
