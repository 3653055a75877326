// Polling at scale (issue 13) against real servers on one real PostgreSQL: the
// inbox version behind cheap 304s, long-poll wake-ups within and across
// instances, the bearer-token cache's instant revocation, and a SIGTERM that
// drops no request in flight.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, testDb, updateTokens } from './client';
import { accept, makeBuddies, requestBuddy, send, users, type TestUser } from './social-helpers';
import { startServerProcess, type ServerProcess } from '../support/stack';

const inboxTag = async (user: TestUser, base?: string) => {
  const res = await api('GET', '/api/v1/inbox.json', { token: user.token, base });
  expect(res.status).toBe(200);
  return res.headers.get('etag')!;
};
const storedVersion = async (userId: string) =>
  (await testDb().selectFrom('inbox_versions').select('version').where('user_id', '=', userId).executeTakeFirst())?.version ?? '0';
const ms = (start: number) => Date.now() - start;

describe('every change to a person\'s inbox gives it a new version; nothing else does', () => {
  // Each step acts on `me`'s inbox (seen through its ETag and the stored version).
  const steps: Array<{ name: string; act: (ctx: { me: TestUser; other: TestUser; state: Record<string, string> }) => Promise<unknown> }> = [
    { name: 'a request received', act: async ({ me, other, state }) => (state.req = (await requestBuddy(other, me)).body.request.id) },
    { name: 'the request cancelled by its sender', act: ({ other, state }) => api('POST', `/api/v1/buddy_requests/${state.req}/cancel.json`, { token: other.token }) },
    { name: 'a second request received', act: async ({ me, other, state }) => (state.req = (await requestBuddy(other, me)).body.request.id) },
    { name: 'the request declined', act: ({ me, state }) => api('POST', `/api/v1/buddy_requests/${state.req}/decline.json`, { token: me.token }) },
    { name: 'my request accepted', act: async ({ me, other, state }) => {
      const req = await requestBuddy(me, other);
      state.chat = (await accept(other, req.body.request.id)).body.chat.chatId;
    } },
    { name: 'a message received', act: ({ other, state }) => send(other, state.chat!, 'hello there') },
    { name: 'the chat read', act: ({ me, state }) => api('POST', `/api/v1/chats/${state.chat}/read.json`, { token: me.token }) },
    { name: 'a message I sent (my chat list moves)', act: ({ me, state }) => send(me, state.chat!, 'hi back') },
    { name: 'the other person renamed (their card in my inbox)', act: ({ other }) => api('PATCH', '/api/v1/me.json', { token: other.token, body: { displayName: 'Renamed Person' } }) },
    { name: 'a block', act: ({ me, other }) => api('POST', `/api/v1/users/${other.slug}/block.json`, { token: me.token, body: {} }) },
    { name: 'an unblock', act: ({ me, other }) => api('DELETE', `/api/v1/users/${other.slug}/block.json`, { token: me.token, body: {} }) },
  ];

  it.each([0])('runs the steps in order (setup %s)', async () => {
    const [me, other, stranger, strangerBuddy] = await users(4);
    const state: Record<string, string> = {};
    await makeBuddies(stranger!, strangerBuddy!);
    for (const step of steps) {
      const tag = await inboxTag(me!);
      const version = await storedVersion(me!.id);
      // Someone else's activity leaves my version alone: still 304.
      await send(stranger!, (await testDb().selectFrom('chat_members').select('chat_id').where('user_id', '=', stranger!.id).executeTakeFirstOrThrow()).chat_id, 'unrelated');
      const unchanged = await api('GET', '/api/v1/inbox.json', { token: me!.token, headers: { 'if-none-match': tag } });
      expect(unchanged.status, `before "${step.name}"`).toBe(304);

      const result = (await step.act({ me: me!, other: other!, state })) as { status?: number } | undefined;
      if (result && typeof result === 'object' && 'status' in result) expect(result.status, step.name).toBeLessThan(300);
      const after = await api('GET', '/api/v1/inbox.json', { token: me!.token, headers: { 'if-none-match': tag } });
      expect(after.status, `after "${step.name}"`).toBe(200);
      expect(after.headers.get('etag'), step.name).not.toBe(tag);
      expect(BigInt(await storedVersion(me!.id)), step.name).toBeGreaterThan(BigInt(version));
    }
  });

  it('chats.json answers 304 until the list changes, per query', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me!, other!);
    const first = await api('GET', '/api/v1/chats.json', { token: me!.token });
    const tag = first.headers.get('etag')!;
    expect((await api('GET', '/api/v1/chats.json', { token: me!.token, headers: { 'if-none-match': tag } })).status).toBe(304);
    // Another query's tag is another answer's.
    expect((await api('GET', '/api/v1/chats.json?unread_only=1', { token: me!.token, headers: { 'if-none-match': tag } })).status).toBe(200);
    await send(other!, chat, 'new');
    const changed = await api('GET', '/api/v1/chats.json', { token: me!.token, headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.body.chats[0].last_message.text).toBe('new');
  });

  it('another person\'s tag never matches my inbox', async () => {
    const [me, other] = await users(2);
    const theirs = await inboxTag(other!);
    expect((await api('GET', '/api/v1/inbox.json', { token: me!.token, headers: { 'if-none-match': theirs } })).status).toBe(200);
  });
});

describe('long-poll', () => {
  it('a held inbox poll answers the moment a message arrives, and 304 at the deadline when nothing does', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me!, other!);
    const tag = await inboxTag(me!);

    const quiet = Date.now();
    const timedOut = await api('GET', '/api/v1/inbox.json?wait=1', { token: me!.token, headers: { 'if-none-match': tag } });
    expect(timedOut.status).toBe(304);
    expect(ms(quiet)).toBeGreaterThanOrEqual(900);

    const started = Date.now();
    const held = api('GET', '/api/v1/inbox.json?wait=20', { token: me!.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    await send(other!, chat, 'are you there?');
    const woke = await held;
    expect(woke.status).toBe(200);
    expect(woke.body.chats[0].new_messages.map((m: { text: string }) => m.text)).toContain('are you there?');
    expect(ms(started)).toBeGreaterThanOrEqual(500);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
  });

  it('without an ETag, wait with since holds until something new (the MCP way)', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me!, other!);
    const since = new Date().toISOString();
    const held = api('GET', `/api/v1/inbox.json?since=${encodeURIComponent(since)}&wait=20`, { token: me!.token });
    await new Promise((r) => setTimeout(r, 500));
    await send(other!, chat, 'new since then');
    const woke = await held;
    expect(woke.status).toBe(200);
    expect(woke.body.chats[0].new_messages.map((m: { text: string }) => m.text)).toEqual(['new since then']);
  });

  it('messages.json: an empty page after the cursor is held until the next message', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me!, other!, 'first');
    const page = await api('GET', `/api/v1/chats/${chat}/messages.json`, { token: me!.token });
    const next = page.body.poll_next_url.slice(inject('baseUrl').length);

    const empty = Date.now();
    const nothing = await api('GET', `${next}&wait=1`, { token: me!.token });
    expect(nothing.status).toBe(200);
    expect(nothing.body.messages).toEqual([]);
    expect(ms(empty)).toBeGreaterThanOrEqual(900);

    const held = api('GET', `${next}&wait=20`, { token: me!.token });
    await new Promise((r) => setTimeout(r, 500));
    await send(other!, chat, 'second');
    const woke = await held;
    expect(woke.body.messages.map((m: { text: string }) => m.text)).toEqual(['second']);
  });

  it.each([
    ['wait=0', 400],
    ['wait=26', 400],
    ['wait=soon', 400],
  ])('refuses %s with a 400 envelope', async (query, status) => {
    const [me] = await users(1);
    const res = await api('GET', `/api/v1/inbox.json?${query}`, { token: me!.token });
    expect(res.status).toBe(status);
    expect(res.body.error.fields.wait).toBeTruthy();
  });
});

describe('unchanged inbox long-polls wait in the server, outside Next.js (lib/http/poll-front-door.ts)', () => {
  const securityHeaders = ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'permissions-policy', 'cross-origin-opener-policy', 'content-security-policy', 'cache-control', 'etag'];

  it('the 304 at the deadline carries the headers of the route\'s own 304', async () => {
    const [me] = await users(1);
    const tag = await inboxTag(me!);
    const fromRoute = await api('GET', '/api/v1/inbox.json', { token: me!.token, headers: { 'if-none-match': tag } });
    const started = Date.now();
    const fromWait = await api('GET', '/api/v1/inbox.json?wait=1', { token: me!.token, headers: { 'if-none-match': tag } });
    expect(ms(started)).toBeGreaterThanOrEqual(900);
    expect([fromRoute.status, fromWait.status]).toEqual([304, 304]);
    for (const name of securityHeaders) expect([name, fromWait.headers.get(name)]).toEqual([name, fromRoute.headers.get(name)]);
    expect(fromWait.headers.get('etag')).toBe(tag);
  });

  it('a token revoked while its poll waits gets 401 at the deadline, not a 304', async () => {
    const [me] = await users(1);
    const tag = await inboxTag(me!);
    const held = api('GET', '/api/v1/inbox.json?wait=2', { token: me!.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 300));
    await updateTokens(me!.id, { revoked_at: new Date() });
    const res = await held;
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it.each([
    ['a stale tag', 'wait=20', '"stale"', 200],
    ['an unreadable since', 'wait=20&since=yesterday', null, 400],
  ])('%s is not held: the route answers at once', async (_case, query, staleTag, status) => {
    const [me] = await users(1);
    const tag = staleTag ?? (await inboxTag(me!));
    const started = Date.now();
    const res = await api('GET', `/api/v1/inbox.json?${query}`, { token: me!.token, headers: { 'if-none-match': tag } });
    expect(res.status).toBe(status);
    expect(ms(started)).toBeLessThan(5_000);
    if (status === 400) expect(res.body.error.code).toBe('validation_failed');
    else expect(res.body.pending_requests).toEqual([]);
  });

  it('a token without message:read is refused at once, not held', async () => {
    const [me] = await users(1);
    const tag = await inboxTag(me!);
    await updateTokens(me!.id, { scopes: ['profile:read'] });
    const started = Date.now();
    const res = await api('GET', '/api/v1/inbox.json?wait=20', { token: me!.token, headers: { 'if-none-match': tag } });
    expect(res.status).toBe(403);
    expect(ms(started)).toBeLessThan(5_000);
  });

  it('a client that hangs up is let go: its poll is not answered and the next one is served', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me!, other!);
    const tag = await inboxTag(me!);
    const controller = new AbortController();
    const abandoned = fetch(`${inject('baseUrl')}/api/v1/inbox.json?wait=20`, { headers: { authorization: `Bearer ${me!.token}`, 'if-none-match': tag }, signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await expect(abandoned).rejects.toThrow();
    const held = api('GET', '/api/v1/inbox.json?wait=20', { token: me!.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 300));
    await send(other!, chat, 'still here?');
    expect((await held).status).toBe(200);
  });
});

describe('across instances', () => {
  let second: ServerProcess;
  beforeAll(async () => {
    second = await startServerProcess({ databaseUrl: inject('databaseUrl'), dataDir: inject('dataDir'), args: ['--role=web'] });
  }, 120_000);
  afterAll(async () => second?.stop());

  it('a poll held on one instance wakes for a message sent through another', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me!, other!);
    const tag = await inboxTag(me!, second.baseUrl);
    const held = api('GET', '/api/v1/inbox.json?wait=20', { token: me!.token, headers: { 'if-none-match': tag }, base: second.baseUrl });
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    await send(other!, chat, 'from the other instance');
    const woke = await held;
    expect(woke.status).toBe(200);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
  });

  it('a token revoked through one instance is refused at once by another that had it cached', async () => {
    const [me] = await users(1);
    // A second token to revoke the first with.
    const tokens = await api('GET', '/api/v1/me/tokens.json', { token: me!.token });
    const tokenId = tokens.body.tokens[0].id as string;
    for (let i = 0; i < 3; i++) expect((await api('GET', '/api/v1/me.json', { token: me!.token, base: second.baseUrl })).status).toBe(200);
    const revoked = await api('POST', `/api/v1/me/tokens/${tokenId}/revoke.json`, { token: me!.token });
    expect(revoked.status).toBe(200);
    // The NOTIFY is delivered on commit; give the listener the network round trip.
    await new Promise((r) => setTimeout(r, 100));
    const after = await api('GET', '/api/v1/me.json', { token: me!.token, base: second.baseUrl });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('unauthorized');
  });

  it('scopes narrowed in the database apply at once on a caching instance', async () => {
    const [me] = await users(1);
    expect((await api('GET', '/api/v1/inbox.json', { token: me!.token, base: second.baseUrl })).status).toBe(200);
    await testDb().updateTable('access_tokens').set({ scopes: ['profile:read'] }).where('user_id', '=', me!.id).execute();
    await new Promise((r) => setTimeout(r, 100));
    expect((await api('GET', '/api/v1/inbox.json', { token: me!.token, base: second.baseUrl })).status).toBe(403);
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM under load: every request in flight is answered, held polls at once, and the process exits 0', async () => {
    const server = await startServerProcess({ databaseUrl: inject('databaseUrl'), dataDir: inject('dataDir'), args: ['--role=web'] });
    const [me, other] = await users(2);
    await makeBuddies(me!, other!, 'hi');
    const tag = await inboxTag(me!, server.baseUrl);

    // 8 held long-polls and 16 clients polling in a loop until the server goes away.
    const held = Array.from({ length: 8 }, () =>
      api('GET', '/api/v1/inbox.json?wait=25', { token: me!.token, headers: { 'if-none-match': tag }, base: server.baseUrl }),
    );
    let stopping = false;
    const results: Array<{ status: number } | { error: string }> = [];
    const loops = Array.from({ length: 16 }, async (_, i) => {
      while (!stopping) {
        try {
          const res = await api('GET', i % 2 ? '/api/v1/inbox.json' : '/api/v1/chats.json', { token: me!.token, base: server.baseUrl });
          results.push({ status: res.status });
        } catch (error) {
          results.push({ error: String(error) });
        }
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    const termAt = Date.now();
    server.child.kill('SIGTERM');
    stopping = true;

    const heldAnswers = await Promise.all(held);
    expect(Date.now() - termAt).toBeLessThan(5_000);
    expect(heldAnswers.map((r) => r.status)).toEqual(Array(8).fill(304));
    await Promise.all(loops);
    expect(await exited).toBe(0);

    expect(results.length).toBeGreaterThan(16);
    // Every loop stops sending at SIGTERM, so each of these was in flight or before it.
    expect(results.filter((r) => 'error' in r || r.status >= 500)).toEqual([]);
  }, 120_000);
});

describe('the polled reads skip Next.js\'s pipeline (lib/http/route-front-door.ts)', () => {
  const API_HEADERS = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
  };
  const expectApiHeaders = (res: { headers: Headers }, what: string) => {
    for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
    // Next.js marks every response of its router with this Vary; the direct path has no router to mark it.
    expect(res.headers.get('vary') ?? '', what).not.toMatch(/\brsc\b/);
  };

  it('inbox, chats and messages answer 200, 304 and every error with the API\'s own headers', async () => {
    const [me, buddy] = await users(2);
    const chatId = await makeBuddies(me, buddy, 'first words');
    for (const path of ['/api/v1/inbox.json', '/api/v1/chats.json', `/api/v1/chats/${chatId}/messages.json`]) {
      const full = await api('GET', path, { token: me.token });
      expect(full.status, path).toBe(200);
      expect(full.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expectApiHeaders(full, `${path} 200`);
      const unchanged = await api('GET', path, { token: me.token, headers: { 'if-none-match': full.headers.get('etag')! } });
      expect(unchanged.status, path).toBe(304);
      expectApiHeaders(unchanged, `${path} 304`);
      const badToken = await api('GET', path, { token: 'not-a-token' });
      expect([badToken.status, badToken.body.error.code], path).toEqual([401, 'unauthorized']);
      expect(badToken.headers.get('www-authenticate'), path).toMatch(/^Bearer /);
      expectApiHeaders(badToken, `${path} 401`);
      const badQuery = await api('GET', `${path}?limit=0&since=yesterday`, { token: me.token });
      expect([badQuery.status, badQuery.body.error.code], path).toEqual([400, 'validation_failed']);
      expectApiHeaders(badQuery, `${path} 400`);
    }
    const unknownChat = await api('GET', `/api/v1/chats/${crypto.randomUUID()}/messages.json`, { token: me.token });
    expect([unknownChat.status, unknownChat.body.error.code]).toEqual([404, 'not_found']);
    expectApiHeaders(unknownChat, 'unknown chat 404');
    // The control: a read Next.js still serves carries its router's Vary, so the check above can fail.
    expect((await api('GET', '/api/v1/me/blocks.json', { token: me.token })).headers.get('vary')).toMatch(/\brsc\b/);
  });

  it('decodes a percent-encoded chat id as Next.js decodes a segment, and refuses a broken one with 400', async () => {
    const [me, buddy] = await users(2);
    const chatId = await makeBuddies(me, buddy, 'encoded');
    const encoded = await api('GET', `/api/v1/chats/${chatId.replace(/-/g, '%2D')}/messages.json`, { token: me.token });
    expect(encoded.status).toBe(200);
    expect(encoded.body.messages.map((m: { text: string }) => m.text)).toEqual(['encoded']);
    const broken = await api('GET', '/api/v1/chats/%E0%A4%A/messages.json', { token: me.token });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBeTypeOf('string');
  });
});
