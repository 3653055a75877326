// Issue 33 §2: operators put PgBouncer in front of PostgreSQL. A server of its own connects
// through a real PgBouncer in transaction mode (DATABASE_URL), with DATABASE_DIRECT_URL
// straight to PostgreSQL for LISTEN, pg-boss and migrations, and the core flows must work:
// no session state outside transactions, no named prepared statements (PgBouncer 1.18 has
// no support for them). Skipped locally without the binary; with CI=true that fails.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { discover } from '@/lib/contract/discover';
import { updateMe } from '@/lib/contract/profiles';
import { acceptBuddyRequest, sendBuddyRequest } from '@/lib/contract/buddies';
import { listMessages, sendMessage } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { type PgBouncer, pgbouncerBinary, startPgBouncer } from '../support/pgbouncer';
import { type ServerProcess, startServerProcess } from '../support/stack';
import { testDb } from './client';
import { call, callWithHeaders } from './contract-client';
import { profileAtSea } from './social-helpers';

const binary = pgbouncerBinary();
const MISSING = 'pgbouncer is not installed (apt-get install pgbouncer; .ci/run installs it)';

if (!binary && process.env.CI === 'true') {
  it('PgBouncer is installed on CI', () => {
    throw new Error(MISSING);
  });
}

describe.skipIf(!binary)(binary ? 'behind PgBouncer in transaction mode' : `skipped: ${MISSING}`, () => {
  let bouncer: PgBouncer;
  let server: ServerProcess;
  let base: string;

  beforeAll(async () => {
    const dir = path.join(inject('dataDir'), `pgbouncer-${process.pid}`);
    bouncer = await startPgBouncer(binary!, inject('databaseUrl'), dir);
    server = await startServerProcess({
      databaseUrl: bouncer.url,
      dataDir: inject('dataDir'),
      env: { DATABASE_DIRECT_URL: inject('databaseUrl') },
      args: ['--role=web'],
      logName: 'server-pgbouncer.log',
    });
    base = server.baseUrl;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await bouncer?.stop();
  }, 60_000);

  // Somewhere at sea no other test's people live.
  const at = { latitude: -50 + Math.random() * 10, longitude: -140 + Math.random() * 10 };

  async function person(name: string, kmNorth: number) {
    const registered = await call(register, { base, body: profileAtSea('bouncer', name, at, kmNorth) });
    // The photo upload is another module's test: set the URL, then let the edit recompute completeness.
    await testDb()
      .updateTable('users')
      .set({ photo_url: `https://example.com/${registered.user.slug}.jpg` })
      .where('id', '=', registered.user.id)
      .execute();
    return { id: registered.user.id, slug: registered.user.slug, token: registered.auth.token };
  }

  it('registers, edits a profile, searches, asks, accepts and chats; a held poll wakes for a message', async () => {
    const [a, b] = [await person('Bouncer A', 0), await person('Bouncer B', 3)];
    for (const who of [a, b]) {
      const edited = await call(updateMe, { base, token: who.token, body: { aboutMe: 'Tennis on weekends, anyone?' } });
      expect(edited.onboarding.complete).toBe(true);
    }

    // Many searches at once: their rate-limit counter once used named prepared statements,
    // which land on a server connection that never prepared them once clients share three.
    const searches = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(discover, { base, token: i % 2 ? a.token : b.token, query: {} })),
    );
    expect(searches[0]!.results.map((r) => r.user.slug)).toContain(a.slug);
    expect(searches[1]!.results.map((r) => r.user.slug)).toContain(b.slug);

    const asked = await call(sendBuddyRequest, { base, params: { slug: b.slug }, token: a.token, body: {} });
    const accepted = await call(acceptBuddyRequest, {
      base,
      params: { invitationId: asked.request.id },
      token: b.token,
      body: {},
    });
    const chatId = accepted.chat.chatId;

    // A's inbox poll, held on the server until something changes (LISTEN on the direct connection).
    const tag = (await callWithHeaders(getInbox, { base, token: a.token })).headers.get('etag')!;
    const held = callWithHeaders(getInbox, {
      base,
      query: { wait: 20 },
      token: a.token,
      headers: { 'if-none-match': tag },
    });
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    await call(sendMessage, { base, params: { chatId }, token: b.token, body: { text: 'Saturday at ten?' } });
    const woken = await held;
    expect(woken.status).toBe(200);
    expect(Date.now() - sentAt).toBeLessThan(5_000);

    await call(sendMessage, { base, params: { chatId }, token: a.token, body: { text: 'Yes!' } });
    const messages = await call(listMessages, { base, params: { chatId }, token: b.token });
    expect(messages.messages.map((m) => m.text)).toEqual(expect.arrayContaining(['Saturday at ten?', 'Yes!']));

    // And it all went through PgBouncer.
    expect(fs.readFileSync(bouncer.logFile, 'utf8')).toMatch(/login attempt: db=\S+ user=\S+/);
  }, 60_000);

  it('this PgBouncer shares server connections, so a named prepared statement would fail here', async () => {
    const pool = new pg.Pool({ connectionString: bouncer.url, max: 10 });
    try {
      const rounds = Array.from({ length: 3 }, () =>
        Promise.allSettled(
          Array.from({ length: 20 }, (_, i) => pool.query({ name: 'probe', text: 'select $1::int', values: [i] })),
        ),
      );
      const failures = (await Promise.all(rounds)).flat().filter((r) => r.status === 'rejected');
      expect(failures.map((f) => String(f.reason))).toContainEqual(expect.stringMatching(/prepared statement "probe"/));
    } finally {
      await pool.end();
    }
  });
});
