// Polling at scale (issue 13) against real servers on one real PostgreSQL: the
// inbox version behind cheap 304s, long-poll wake-ups within and across
// instances, the bearer-token cache's instant revocation, and a SIGTERM that
// drops no request in flight.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { getMe, updateMe } from '@/lib/contract/profiles';
import { listTokens, revokeToken } from '@/lib/contract/signin';
import { cancelBuddyRequest, declineBuddyRequest } from '@/lib/contract/buddies';
import { listChats, listMessages, markChatRead } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { blockUser, unblockUser } from '@/lib/contract/safety';
import { api, testDb, updateTokens } from './client';
import { call, callWithHeaders, pathOf, refused, refusedRaw } from './contract-client';
import { acceptRequest, askBuddy, makeBuddies, say, type TestUser, users } from './social-helpers';
import { startServerProcess, type ServerProcess } from '../support/stack';

const inboxTag = async (user: TestUser, base?: string) =>
  (await callWithHeaders(getInbox, { token: user.token, base })).headers.get('etag') ?? '';
// Conditional polls (If-None-Match) may answer 304 with no body, which call() does not model: they stay raw, on the contract's paths.
const INBOX = pathOf(getInbox);
const inboxWith = (query: Record<string, string | number>) => pathOf(getInbox, {}, query);
const storedVersion = async (userId: string) =>
  (await testDb().selectFrom('inbox_versions').select('version').where('user_id', '=', userId).executeTakeFirst())
    ?.version ?? '0';
const ms = (start: number) => Date.now() - start;

describe("every change to a person's inbox gives it a new version; nothing else does", () => {
  // Each step acts on `me`'s inbox (seen through its ETag and the stored version).
  const steps: Array<{
    name: string;
    act: (ctx: { me: TestUser; other: TestUser; state: Record<string, string> }) => Promise<unknown>;
  }> = [
    {
      name: 'a request received',
      act: async ({ me, other, state }) => (state.req = (await askBuddy(other, me)).request.id),
    },
    {
      name: 'the request cancelled by its sender',
      act: ({ other, state }) =>
        call(cancelBuddyRequest, { params: { invitationId: state.req ?? '' }, token: other.token }),
    },
    {
      name: 'a second request received',
      act: async ({ me, other, state }) => (state.req = (await askBuddy(other, me)).request.id),
    },
    {
      name: 'the request declined',
      act: ({ me, state }) => call(declineBuddyRequest, { params: { invitationId: state.req ?? '' }, token: me.token }),
    },
    {
      name: 'my request accepted',
      act: async ({ me, other, state }) => {
        const req = await askBuddy(me, other);
        state.chat = (await acceptRequest(other, req.request.id)).chat.chatId;
      },
    },
    { name: 'a message received', act: ({ other, state }) => say(other, state.chat ?? '', 'hello there') },
    {
      name: 'the chat read',
      act: ({ me, state }) => call(markChatRead, { params: { chatId: state.chat ?? '' }, token: me.token }),
    },
    { name: 'a message I sent (my chat list moves)', act: ({ me, state }) => say(me, state.chat ?? '', 'hi back') },
    {
      name: 'the other person renamed (their card in my inbox)',
      act: ({ other }) => call(updateMe, { token: other.token, body: { displayName: 'Renamed Person' } }),
    },
    {
      name: 'a block',
      act: ({ me, other }) => call(blockUser, { params: { slug: other.slug }, token: me.token, body: {} }),
    },
    {
      name: 'an unblock',
      act: ({ me, other }) => call(unblockUser, { params: { slug: other.slug }, token: me.token }),
    },
  ];

  it.each([0])('runs the steps in order (setup %s)', async () => {
    const [me, other, stranger, strangerBuddy] = await users(4);
    const state: Record<string, string> = {};
    await makeBuddies(stranger, strangerBuddy);
    for (const step of steps) {
      const tag = await inboxTag(me);
      const version = await storedVersion(me.id);
      // Someone else's activity leaves my version alone: still 304.
      await say(
        stranger,
        (
          await testDb()
            .selectFrom('chat_members')
            .select('chat_id')
            .where('user_id', '=', stranger.id)
            .executeTakeFirstOrThrow()
        ).chat_id,
        'unrelated',
      );
      const unchanged = await api('GET', INBOX, { token: me.token, headers: { 'if-none-match': tag } });
      expect(unchanged.status, `before "${step.name}"`).toBe(304);

      // Each step goes through call(), which requires its success status.
      await step.act({ me, other, state });
      const after = await api('GET', INBOX, { token: me.token, headers: { 'if-none-match': tag } });
      expect(after.status, `after "${step.name}"`).toBe(200);
      expect(after.headers.get('etag'), step.name).not.toBe(tag);
      expect(BigInt(await storedVersion(me.id)), step.name).toBeGreaterThan(BigInt(version));
    }
  });

  it('chats.json answers 304 until the list changes, per query', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other);
    const first = await callWithHeaders(listChats, { token: me.token });
    const tag = first.headers.get('etag') ?? '';
    expect((await api('GET', pathOf(listChats), { token: me.token, headers: { 'if-none-match': tag } })).status).toBe(
      304,
    );
    // Another query's tag is another answer's.
    await call(listChats, { query: { unread_only: 1 }, token: me.token, headers: { 'if-none-match': tag } });
    await say(other, chat, 'new');
    const changed = await call(listChats, { token: me.token, headers: { 'if-none-match': tag } });
    expect(changed.chats[0]?.last_message?.text).toBe('new');
  });

  it("another person's tag never matches my inbox", async () => {
    const [me, other] = await users(2);
    const theirs = await inboxTag(other);
    await call(getInbox, { token: me.token, headers: { 'if-none-match': theirs } });
  });
});

describe('long-poll', () => {
  it('a held inbox poll answers the moment a message arrives, and 304 at the deadline when nothing does', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other);
    const tag = await inboxTag(me);

    const quiet = Date.now();
    const timedOut = await api('GET', inboxWith({ wait: 1 }), { token: me.token, headers: { 'if-none-match': tag } });
    expect(timedOut.status).toBe(304);
    expect(ms(quiet)).toBeGreaterThanOrEqual(900);

    const started = Date.now();
    const held = api('GET', inboxWith({ wait: 20 }), { token: me.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    await say(other, chat, 'are you there?');
    const woke = await held;
    expect(woke.status).toBe(200);
    expect(getInbox.response.parse(woke.body).chats[0]?.new_messages.map((m) => m.text)).toContain('are you there?');
    expect(ms(started)).toBeGreaterThanOrEqual(500);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
  });

  it('without an ETag, wait with since holds until something new (the MCP way)', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other);
    const since = new Date().toISOString();
    const held = call(getInbox, { query: { since, wait: 20 }, token: me.token });
    await new Promise((r) => setTimeout(r, 500));
    await say(other, chat, 'new since then');
    const woke = await held;
    expect(woke.chats[0]?.new_messages.map((m) => m.text)).toEqual(['new since then']);
  });

  it('messages.json: an empty page after the cursor is held until the next message', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other, 'first');
    const page = await call(listMessages, { params: { chatId: chat }, token: me.token });
    // The server's own link, followed as given (raw), each answer read through the contract.
    const next = page.poll_next_url.slice(inject('baseUrl').length);

    const empty = Date.now();
    const nothing = await api('GET', `${next}&wait=1`, { token: me.token });
    expect(nothing.status).toBe(200);
    expect(listMessages.response.parse(nothing.body).messages).toEqual([]);
    expect(ms(empty)).toBeGreaterThanOrEqual(900);

    const held = api('GET', `${next}&wait=20`, { token: me.token });
    await new Promise((r) => setTimeout(r, 500));
    await say(other, chat, 'second');
    const woke = await held;
    expect(listMessages.response.parse(woke.body).messages.map((m) => m.text)).toEqual(['second']);
  });

  // Issue 43 §6: following poll_next_url with the ETag of the page before it (which had a message)
  // answered an empty 200 in 6-12 ms, since that tag never matches the empty page that follows.
  it('messages.json: an empty page is held even when If-None-Match names the page before it', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other, 'first');
    const page = await callWithHeaders(listMessages, { params: { chatId: chat }, token: me.token });
    const tag = page.headers.get('etag')!;
    const next = page.data.poll_next_url.slice(inject('baseUrl').length);

    const empty = Date.now();
    const nothing = await api('GET', `${next}&wait=1`, { token: me.token, headers: { 'if-none-match': tag } });
    expect(nothing.status).toBe(200);
    expect(listMessages.response.parse(nothing.body).messages).toEqual([]);
    expect(ms(empty)).toBeGreaterThanOrEqual(900);

    const held = api('GET', `${next}&wait=20`, { token: me.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    await say(other, chat, 'second');
    const woke = await held;
    expect(listMessages.response.parse(woke.body).messages.map((m) => m.text)).toEqual(['second']);
    expect(ms(started)).toBeLessThan(10_000);
  });

  // Issue 28: a poll held inside the route answered 200 with a message sent after its token was revoked.
  it.each([
    ['messages.json after the cursor', 'messages'],
    ['inbox.json with since (held in the route)', 'inbox-since'],
    ['inbox.json with an ETag (held in the server, then handed to the route)', 'inbox-etag'],
  ])('a token revoked while its poll is held on %s gets 401, not the message that wakes it', async (_name, kind) => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other, 'first');
    let target: string;
    let headers: Record<string, string> = {};
    if (kind === 'messages') {
      const page = await call(listMessages, { params: { chatId: chat }, token: me.token });
      target = `${page.poll_next_url.slice(inject('baseUrl').length)}&wait=20`;
    } else if (kind === 'inbox-since') {
      target = inboxWith({ since: new Date().toISOString(), wait: 20 });
    } else {
      target = inboxWith({ wait: 20 });
      headers = { 'if-none-match': await inboxTag(me) };
    }
    const held = api('GET', target, { token: me.token, headers });
    await new Promise((r) => setTimeout(r, 500));
    // As a person would: the token revoked through the API (here by itself, which it may).
    const [token] = (await call(listTokens, { token: me.token })).tokens;
    await call(revokeToken, { params: { tokenId: token!.id }, token: me.token });
    const started = Date.now();
    await say(other, chat, 'door code 4711');
    const answer = await held;
    expect(JSON.stringify(answer.body)).not.toContain('4711');
    refusedRaw(answer, 'unauthorized');
    // Woken by the message, not left to its deadline.
    expect(ms(started)).toBeLessThan(10_000);
  });

  it.each([0, 26, 'soon'])('refuses wait=%s with a 400 envelope', async (wait) => {
    const [me] = await users(1);
    const res = await refused(getInbox, { query: { wait }, token: me.token }, 'validation_failed');
    expect(res.status).toBe(400);
    expect(res.fields?.wait).toBeTruthy();
  });
});

describe('unchanged inbox long-polls wait in the server, outside Next.js (server/doors/poll.ts)', () => {
  const securityHeaders = [
    'x-content-type-options',
    'referrer-policy',
    'x-frame-options',
    'permissions-policy',
    'cross-origin-opener-policy',
    'content-security-policy',
    'cache-control',
    'etag',
  ];

  it("the 304 at the deadline carries the headers of the route's own 304", async () => {
    const [me] = await users(1);
    const tag = await inboxTag(me);
    const fromRoute = await api('GET', INBOX, { token: me.token, headers: { 'if-none-match': tag } });
    const started = Date.now();
    const fromWait = await api('GET', inboxWith({ wait: 1 }), { token: me.token, headers: { 'if-none-match': tag } });
    expect(ms(started)).toBeGreaterThanOrEqual(900);
    expect([fromRoute.status, fromWait.status]).toEqual([304, 304]);
    for (const name of securityHeaders)
      expect([name, fromWait.headers.get(name)]).toEqual([name, fromRoute.headers.get(name)]);
    expect(fromWait.headers.get('etag')).toBe(tag);
  });

  it('a token revoked while its poll waits gets 401 at the deadline, not a 304', async () => {
    const [me] = await users(1);
    const tag = await inboxTag(me);
    const held = api('GET', inboxWith({ wait: 2 }), { token: me.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 300));
    await updateTokens(me.id, { revoked_at: new Date() });
    refusedRaw(await held, 'unauthorized');
  });

  it.each([
    ['a stale tag', { wait: 20 }, '"stale"', 200],
    ['an unreadable since', { wait: 20, since: 'yesterday' }, null, 400],
  ])('%s is not held: the route answers at once', async (_case, query, staleTag, status) => {
    const [me] = await users(1);
    const tag = staleTag ?? (await inboxTag(me));
    const started = Date.now();
    const res = await api('GET', inboxWith(query), { token: me.token, headers: { 'if-none-match': tag } });
    expect(res.status).toBe(status);
    expect(ms(started)).toBeLessThan(5_000);
    if (status === 400) refusedRaw(res, 'validation_failed');
    else expect(getInbox.response.parse(res.body).pending_requests).toEqual([]);
  });

  it('a token without message:read is refused at once, not held', async () => {
    const [me] = await users(1);
    const tag = await inboxTag(me);
    await updateTokens(me.id, { scopes: ['profile:read'] });
    const started = Date.now();
    await refused(
      getInbox,
      { query: { wait: 20 }, token: me.token, headers: { 'if-none-match': tag } },
      'insufficient_scope',
    );
    expect(ms(started)).toBeLessThan(5_000);
  });

  it('a client that hangs up is let go: its poll is not answered and the next one is served', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other);
    const tag = await inboxTag(me);
    const controller = new AbortController();
    const abandoned = fetch(`${inject('baseUrl')}${inboxWith({ wait: 20 })}`, {
      headers: { authorization: `Bearer ${me.token}`, 'if-none-match': tag },
      signal: controller.signal,
    });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await expect(abandoned).rejects.toThrow();
    const held = call(getInbox, { query: { wait: 20 }, token: me.token, headers: { 'if-none-match': tag } });
    await new Promise((r) => setTimeout(r, 300));
    await say(other, chat, 'still here?');
    await held;
  });
});

describe('across instances', () => {
  let second: ServerProcess;
  beforeAll(async () => {
    second = await startServerProcess({
      databaseUrl: inject('databaseUrl'),
      dataDir: inject('dataDir'),
      args: ['--role=web'],
    });
  }, 120_000);
  afterAll(async () => second?.stop());

  it('an instance runs as npm start runs it: bundled, on plain node, configured from the build', async () => {
    const pid = second.child.pid!;
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine.slice(1, 3)).toEqual([path.resolve('server/serve.mjs'), '--role=web']);
    // No TypeScript loader (tsx) in the serving process, and no SWC compiler: Next.js read
    // the build's resolved config instead of compiling next.config.ts (25 MB resident).
    expect(commandLine.join(' ')).not.toContain('tsx');
    const mapped = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
    expect(mapped).toMatch(/\.node$/m);
    expect(mapped).not.toContain('next-swc');
  });

  it('a poll held on one instance wakes for a message sent through another', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other);
    const tag = await inboxTag(me, second.baseUrl);
    const held = call(getInbox, {
      query: { wait: 20 },
      token: me.token,
      headers: { 'if-none-match': tag },
      base: second.baseUrl,
    });
    await new Promise((r) => setTimeout(r, 500));
    const sentAt = Date.now();
    await say(other, chat, 'from the other instance');
    await held;
    expect(Date.now() - sentAt).toBeLessThan(5_000);
  });

  it('a token revoked through one instance is refused at once by another that had it cached', async () => {
    const [me] = await users(1);
    // A second token to revoke the first with.
    const tokens = await call(listTokens, { token: me.token });
    const tokenId = tokens.tokens[0]?.id ?? '';
    for (let i = 0; i < 3; i++) await call(getMe, { token: me.token, base: second.baseUrl });
    await call(revokeToken, { params: { tokenId }, token: me.token });
    // The NOTIFY is delivered on commit; give the listener the network round trip.
    await new Promise((r) => setTimeout(r, 100));
    await refused(getMe, { token: me.token, base: second.baseUrl }, 'unauthorized');
  });

  it('scopes narrowed in the database apply at once on a caching instance', async () => {
    const [me] = await users(1);
    await call(getInbox, { token: me.token, base: second.baseUrl });
    await testDb()
      .updateTable('access_tokens')
      .set({ scopes: ['profile:read'] })
      .where('user_id', '=', me.id)
      .execute();
    await new Promise((r) => setTimeout(r, 100));
    await refused(getInbox, { token: me.token, base: second.baseUrl }, 'insufficient_scope');
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM under load: every request in flight is answered, held polls at once, and the process exits 0', async () => {
    const server = await startServerProcess({
      databaseUrl: inject('databaseUrl'),
      dataDir: inject('dataDir'),
      args: ['--role=web'],
    });
    const [me, other] = await users(2);
    await makeBuddies(me, other, 'hi');
    const tag = await inboxTag(me, server.baseUrl);

    // 8 held long-polls and 16 clients polling in a loop until the server goes away (raw: they may fail mid-shutdown).
    const held = Array.from({ length: 8 }, () =>
      api('GET', inboxWith({ wait: 25 }), { token: me.token, headers: { 'if-none-match': tag }, base: server.baseUrl }),
    );
    let stopping = false;
    const results: Array<{ status: number } | { error: string }> = [];
    const loops = Array.from({ length: 16 }, async (_, i) => {
      while (!stopping) {
        try {
          const res = await api('GET', i % 2 ? INBOX : pathOf(listChats), { token: me.token, base: server.baseUrl });
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

describe("contract routes skip Next.js's pipeline (server/doors/route.ts)", () => {
  const API_HEADERS = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
  };
  const expectApiHeaders = (res: { headers: Headers }, what: string) => {
    for (const [name, value] of Object.entries(API_HEADERS))
      expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
    // Next.js marks every response of its router with this Vary; the direct path has no router to mark it.
    expect(res.headers.get('vary') ?? '', what).not.toMatch(/\brsc\b/);
  };

  it("inbox, chats and messages answer 200, 304 and every error with the API's own headers", async () => {
    const [me, buddy] = await users(2);
    const chatId = await makeBuddies(me, buddy, 'first words');
    for (const path of ['/api/v1/inbox.json', '/api/v1/chats.json', `/api/v1/chats/${chatId}/messages.json`]) {
      const full = await api('GET', path, { token: me.token });
      expect(full.status, path).toBe(200);
      expect(full.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expectApiHeaders(full, `${path} 200`);
      const unchanged = await api('GET', path, {
        token: me.token,
        headers: { 'if-none-match': full.headers.get('etag')! },
      });
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
    // The control: a read Next.js still serves (a plan by id) carries its router's Vary, so the check above can fail.
    const plan = await api('GET', `/api/v1/plans/${crypto.randomUUID()}.json`, { token: me.token });
    expect(plan.headers.get('vary')).toMatch(/\brsc\b/);
  });

  it("gzips a large answer as Next.js's server does, and says Vary: Accept-Encoding on a small one", async () => {
    const [me] = await users(1);
    // fetch asks for gzip and hands back the decoded body.
    const index = await api('GET', '/api/v1/index.json', { token: me.token });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-encoding')).toBe('gzip');
    expect(index.headers.get('vary')).toMatch(/\bAccept-Encoding\b/);
    expect(index.body).toHaveProperty('endpoints');
    const plain = await api('GET', '/api/v1/index.json', {
      token: me.token,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body).toEqual(index.body);
    const small = await api('GET', '/api/v1/me/blocks.json', { token: me.token });
    expect([small.headers.get('content-encoding'), small.headers.get('vary')]).toEqual([null, 'Accept-Encoding']);
    expectApiHeaders(index, 'index 200');
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
