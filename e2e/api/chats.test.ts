// Chats and messages against the real server and database: sending, paging with
// poll_next_url, read markers, the rate limit under parallel sends, moderation
// and who may see a chat.
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { listChats, listMessages, markChatRead, sendMessage } from '@/lib/contract/social';
import { api, testDb } from './client';
import { makeBuddies, memberRow, restrictScopes, send, settledPushJobs, storedMessages, users, type TestUser } from './social-helpers';

const messagesPath = (chatId: string, query = '') => `/api/v1/chats/${chatId}/messages.json${query}`;
const relative = (url: string) => url.slice(inject('baseUrl').length);

describe('POST /api/v1/chats/{chatId}/messages.json', () => {
  it('stores the message, counts it unread for the other person and queues a push', async () => {
    const [a, b] = await users(2, 'Sender');
    const chatId = await makeBuddies(a!, b!);
    const res = await send(a!, chatId, '  See you at 9 by the north trailhead!  ', { agentName: 'AgentA', agentSessionId: 's1' });
    expect(res.status).toBe(201);
    const { message } = sendMessage.response.parse(res.body);
    expect(message).toMatchObject({ chatId, sender_id: a!.id, from_me: true, text: 'See you at 9 by the north trailhead!' });
    expect(new Date(message.created_at).getTime()).toBe(message.created_at_ms);
    expect(Math.abs(message.created_at_ms - Date.now())).toBeLessThan(60_000);

    const [row] = await storedMessages(chatId);
    expect(row).toMatchObject({ id: Number(message.id), sender_id: a!.id, text: message.text, agent_name: 'AgentA', agent_session_id: 's1' });
    expect((await memberRow(chatId, b!.id)).unread_count).toBe(1);
    expect((await memberRow(chatId, a!.id)).unread_count).toBe(0);
    const chat = await testDb().selectFrom('chats').selectAll().where('id', '=', chatId).executeTakeFirstOrThrow();
    expect(chat.last_message_id).toBe(Number(message.id));

    const jobs = await settledPushJobs(b!.id, 1);
    expect(jobs.map((j) => [j.data, j.state])).toContainEqual([{ kind: 'message', recipientId: b!.id, chatId, messageId: Number(message.id) }, 'completed']);
  });

  it('accepts exactly 4000 characters', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const text = Array.from({ length: 400 }, (_, i) => `Part ${i} ok.`).join(' ').slice(0, 4000);
    expect(text).toHaveLength(4000);
    const res = await send(a!, chatId, text);
    expect(res.status).toBe(201);
    expect(res.body.message.text).toBe(text);
  });

  it.each([
    ['an empty text', { text: '' }],
    ['a whitespace-only text', { text: '   \n ' }],
    ['4001 characters', { text: 'ab '.repeat(1334).slice(0, 4001) }],
    ['no text', {}],
    ['a number', { text: 12 }],
    ['an unknown field', { text: 'hi', html: '<b>hi</b>' }],
  ])('refuses %s with 400', async (_name, body) => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const res = await api('POST', messagesPath(chatId), { token: a!.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(await storedMessages(chatId)).toHaveLength(0);
  });

  it.each([
    ['message_blocked_profanity', 'you are such a f4ggot'],
    ['message_blocked_threat', 'I know where you live.'],
    ['message_blocked_solicitation', 'want to have sex tonight?'],
    ['message_blocked_shouting', 'WHY ARE YOU NOT ANSWERING MY MESSAGES'],
    ['message_blocked_spam', 'lol lol lol lol lol lol lol lol'],
  ])('refuses with 422 %s and stores nothing', async (code, text) => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const res = await send(a!, chatId, text);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code, message: expect.any(String), hint: expect.any(String), fields: { text: expect.any(String) } });
    expect(await storedMessages(chatId)).toHaveLength(0);
    expect((await memberRow(chatId, b!.id)).unread_count).toBe(0);
  });

  it('lets everyday figures of speech through', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    for (const text of ["I'd kill for a coffee after that climb", 'Scunthorpe has a great parkrun', "I'll shoot you a text when I'm there"]) {
      expect((await send(a!, chatId, text)).status).toBe(201);
    }
    expect(await storedMessages(chatId)).toHaveLength(3);
  });
});

describe('the message rate limit', () => {
  it('refuses the 21st message in 10 minutes with 429 and Retry-After, per sender', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    for (let i = 1; i <= 20; i++) expect((await send(a!, chatId, `Message number ${i}`)).status).toBe(201);
    const res = await send(a!, chatId, 'Message number 21');
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await storedMessages(chatId)).toHaveLength(20);
    // The limit is per sender: the buddy can still answer.
    expect((await send(b!, chatId, 'Slow down, friend')).status).toBe(201);
  });

  it('30 parallel sends store exactly the limit', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => send(a!, chatId, `Parallel message ${i}`)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await storedMessages(chatId)).toHaveLength(20);
    expect((await memberRow(chatId, b!.id)).unread_count).toBe(20);
  });

  it('counts only the last 10 minutes', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    for (let i = 1; i <= 20; i++) expect((await send(a!, chatId, `Early message ${i}`)).status).toBe(201);
    // Age the first ten beyond the window (keeping the order created_at must have).
    const ids = (await storedMessages(chatId)).map((m) => m.id);
    await testDb()
      .updateTable('messages')
      .set({ created_at: sql`created_at - interval '11 minutes'` })
      .where('id', 'in', ids.slice(0, 10))
      .execute();
    for (let i = 1; i <= 10; i++) expect((await send(a!, chatId, `Later message ${i}`)).status).toBe(201);
    expect((await send(a!, chatId, 'One too many')).status).toBe(429);
  });
});

describe('GET /api/v1/chats/{chatId}/messages.json', () => {
  it('shows the latest page oldest first and a poll_next_url that yields only what follows', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!, 'Hello from B');
    for (const text of ['one', 'two', 'three', 'four']) await send(a!, chatId, text);
    const res = await api('GET', messagesPath(chatId, '?limit=3'), { token: b!.token });
    expect(res.status).toBe(200);
    const page = listMessages.response.parse(res.body);
    expect(page.messages.map((m) => m.text)).toEqual(['two', 'three', 'four']);
    expect(page.messages.every((m) => !m.from_me && m.sender_id === a!.id)).toBe(true);
    expect(page).toMatchObject({ chatId, unread_count: 4, has_more: false });
    expect(page.poll_next_url.startsWith(`${inject('baseUrl')}/api/v1/chats/${chatId}/messages.json?cursor=`)).toBe(true);
    expect(page.poll_next_url).toContain('limit=3');

    const nothing = await api('GET', relative(page.poll_next_url), { token: b!.token });
    expect(nothing.body.messages).toEqual([]);
    expect(nothing.body.poll_next_url).toBe(page.poll_next_url);
    await send(a!, chatId, 'five');
    const next = await api('GET', relative(page.poll_next_url), { token: b!.token });
    expect(next.body.messages.map((m: { text: string }) => m.text)).toEqual(['five']);
  });

  it('since=<ms> returns only newer messages', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const first = await send(a!, chatId, 'before');
    await new Promise((r) => setTimeout(r, 5));
    await send(a!, chatId, 'after 1');
    await send(b!, chatId, 'after 2');
    const res = await api('GET', messagesPath(chatId, `?since=${first.body.message.created_at_ms}`), { token: a!.token });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { text: string; from_me: boolean }) => [m.text, m.from_me])).toEqual([
      ['after 1', true],
      ['after 2', false],
    ]);
    // The same since as an ISO date-time means the same.
    const iso = await api('GET', messagesPath(chatId, `?since=${encodeURIComponent(first.body.message.created_at)}`), { token: a!.token });
    expect(iso.body.messages).toEqual(res.body.messages);
    // A since after everything: empty, and the poll URL keeps waiting after it.
    const later = await api('GET', messagesPath(chatId, `?since=${Date.now() + 1000}`), { token: a!.token });
    expect(later.body.messages).toEqual([]);
    expect(later.body.poll_next_url).toContain('since=');
  });

  it('pages 500 messages, many sharing a millisecond, while new ones arrive: no gaps, no duplicates', async () => {
    const [a, b] = await users(2, 'Pager');
    const chatId = await makeBuddies(a!, b!);
    // 460 older messages, ten per millisecond, inserted as the app would (last_message_* kept in step).
    const base = Date.now() - 86_400_000;
    await sql`
      insert into messages (chat_id, sender_id, text, created_at)
      select ${chatId}::uuid, case when g % 2 = 0 then ${a!.id}::uuid else ${b!.id}::uuid end, 'seeded ' || g,
             timestamptz 'epoch' + (${base}::bigint + g / 10) * interval '1 millisecond'
      from generate_series(0, 459) g`.execute(testDb());
    await sql`update chats set last_message_id = (select max(id) from messages where chat_id = ${chatId}::uuid),
              last_message_at = (select max(created_at) from messages where chat_id = ${chatId}::uuid) where id = ${chatId}::uuid`.execute(testDb());

    // 40 more arrive over HTTP (20 from each side: the rate limit) while B pages with limit 37.
    const senders = Promise.all(
      [a!, b!].map(async (who) => {
        for (let i = 0; i < 20; i++) expect((await send(who, chatId, `live ${who.slug} ${i}`)).status).toBe(201);
      }),
    );
    let done = false;
    void senders.then(() => (done = true));
    const seen: string[] = [];
    let url = messagesPath(chatId, '?since=0&limit=37');
    for (let round = 0; round < 500; round++) {
      const finished = done;
      const res = await api('GET', url, { token: b!.token });
      expect(res.status).toBe(200);
      seen.push(...res.body.messages.map((m: { id: string }) => m.id));
      url = relative(res.body.poll_next_url);
      if (finished && res.body.messages.length === 0) break;
    }
    await senders;

    const stored = (await storedMessages(chatId)).map((m) => String(m.id));
    expect(stored).toHaveLength(500);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(stored);
  });

  it('since splits exactly at a millisecond shared by several messages', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const base = Date.now() - 3_600_000;
    await sql`
      insert into messages (chat_id, sender_id, text, created_at)
      select ${chatId}::uuid, ${a!.id}::uuid, 'tie ' || g, timestamptz 'epoch' + (${base}::bigint + g / 5) * interval '1 millisecond'
      from generate_series(0, 19) g`.execute(testDb());
    await sql`update chats set last_message_id = (select max(id) from messages where chat_id = ${chatId}::uuid),
              last_message_at = (select max(created_at) from messages where chat_id = ${chatId}::uuid) where id = ${chatId}::uuid`.execute(testDb());
    const res = await api('GET', messagesPath(chatId, `?since=${base + 1}`), { token: b!.token });
    expect(res.body.messages.map((m: { text: string }) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `tie ${i + 10}`));
    expect(res.body.messages.every((m: { created_at_ms: number }) => m.created_at_ms > base + 1)).toBe(true);
  });

  it('mark_read moves the read marker to the last message returned, and read.json marks everything', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    for (const text of ['m1', 'm2', 'm3', 'm4', 'm5']) await send(a!, chatId, text);
    const first = await api('GET', messagesPath(chatId, '?since=0&limit=2&mark_read=1'), { token: b!.token });
    expect(first.body.messages.map((m: { text: string }) => m.text)).toEqual(['m1', 'm2']);
    expect(first.body).toMatchObject({ unread_count: 3, has_more: true });
    expect(first.body.poll_next_url).toContain('mark_read=1');
    const marker = await memberRow(chatId, b!.id);
    expect(marker).toMatchObject({ last_read_message_id: Number(first.body.messages[1].id), unread_count: 3 });

    const second = await api('GET', relative(first.body.poll_next_url), { token: b!.token });
    expect(second.body.messages.map((m: { text: string }) => m.text)).toEqual(['m3', 'm4']);
    expect(second.body.unread_count).toBe(1);

    // Reading without mark_read leaves the marker alone.
    await api('GET', messagesPath(chatId), { token: b!.token });
    expect((await memberRow(chatId, b!.id)).unread_count).toBe(1);

    for (let i = 0; i < 2; i++) {
      const read = await api('POST', `/api/v1/chats/${chatId}/read.json`, { token: b!.token });
      expect(read.status).toBe(200);
      const body = markChatRead.response.parse(read.body);
      expect(body).toMatchObject({ chatId, unread_count: 0 });
      const stored = await storedMessages(chatId);
      expect(body.last_read_message_id).toBe(String(stored.at(-1)!.id));
    }
    expect(await memberRow(chatId, b!.id)).toMatchObject({ unread_count: 0 });
    // The sender's own counter never counted their messages.
    expect((await memberRow(chatId, a!.id)).unread_count).toBe(0);
  });

  it('answers 304 to If-None-Match until something changes', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!, 'hi');
    const first = await api('GET', messagesPath(chatId), { token: a!.token });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    const same = await api('GET', messagesPath(chatId), { token: a!.token, headers: { 'if-none-match': etag! } });
    expect(same.status).toBe(304);
    expect(same.body).toBeNull();
    await send(b!, chatId, 'news');
    const changed = await api('GET', messagesPath(chatId), { token: a!.token, headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=ten', 'limit'],
    ['since=yesterday', 'since'],
    ['cursor=not-a-cursor', 'cursor'],
    ['mark_read=maybe', 'mark_read'],
  ])('refuses %s with 400 naming the parameter', async (query, field) => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    const res = await api('GET', messagesPath(chatId, `?${query}`), { token: a!.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toContain(field);
  });

  it('accepts limit=200', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!, 'hi');
    expect((await api('GET', messagesPath(chatId, '?limit=200'), { token: a!.token })).status).toBe(200);
  });
});

describe('GET /api/v1/chats.json', () => {
  it('lists one chat per buddy, most recent first, with last_message and unread_count', async () => {
    const [a, b, c] = await users(3, 'Lister');
    const chatAB = await makeBuddies(a!, b!);
    const chatAC = await makeBuddies(a!, c!, 'Hi A, this is C');
    await send(b!, chatAB, 'Hi A, this is B');
    await send(b!, chatAB, 'Are you free Saturday?');

    const res = await api('GET', '/api/v1/chats.json', { token: a!.token });
    expect(res.status).toBe(200);
    const body = listChats.response.parse(res.body);
    expect(body.chats.map((chat) => chat.chatId)).toEqual([chatAB, chatAC]);
    expect(body.chats[0]).toMatchObject({
      buddy: { id: b!.id, displayName: 'Lister B' },
      unread_count: 2,
      last_message: { text: 'Are you free Saturday?', from_me: false },
    });
    expect(body.chats[1]).toMatchObject({ buddy: { id: c!.id }, unread_count: 1, last_message: { text: 'Hi A, this is C', from_me: false } });
    expect(body.total_unread).toBe(3);
    expect(body.chats[0]!.messages_url).toBe(`${inject('baseUrl')}/api/v1/chats/${chatAB}/messages.json`);

    await api('POST', `/api/v1/chats/${chatAC}/read.json`, { token: a!.token });
    const unread = listChats.response.parse((await api('GET', '/api/v1/chats.json?unread_only=1', { token: a!.token })).body);
    expect(unread.chats.map((chat) => chat.chatId)).toEqual([chatAB]);
    expect(unread.total_unread).toBe(2);

    const fromB = listChats.response.parse((await api('GET', '/api/v1/chats.json', { token: b!.token })).body);
    expect(fromB.chats).toHaveLength(1);
    expect(fromB.chats[0]).toMatchObject({ chatId: chatAB, unread_count: 0, last_message: { from_me: true } });
  });

  it('is empty for someone without buddies', async () => {
    const [a] = await users(1);
    const res = await api('GET', '/api/v1/chats.json', { token: a!.token });
    expect(res.body).toEqual({ chats: [], total_unread: 0 });
  });
});

describe('authorization', () => {
  it('matrix: a stranger against every bearer endpoint that names another person\'s request, chat or device', async () => {
    const [a, b, c, d] = await users(4, 'Matrix');
    const chatId = await makeBuddies(a!, b!, 'between us');
    const pending = await api('POST', `/api/v1/users/${a!.slug}/buddy_request.json`, { token: d!.token, body: {} });
    const accepted = (await api('GET', '/api/v1/buddy_requests.json', { token: a!.token })).body.sent[0].id as string;
    const device = `ExponentPushToken[${a!.id.slice(0, 22)}]`;
    expect((await api('POST', '/api/v1/me/push_tokens.json', { token: a!.token, body: { token: device } })).status).toBe(201);
    const before = { messages: (await storedMessages(chatId)).length, unread: (await memberRow(chatId, a!.id)).unread_count };

    const matrix: [string, string, unknown, number][] = [
      ['POST', `/api/v1/buddy_requests/${pending.body.request.id}/accept.json`, { firstMessage: 'hi' }, 404],
      ['POST', `/api/v1/buddy_requests/${pending.body.request.id}/decline.json`, undefined, 404],
      ['POST', `/api/v1/buddy_requests/${pending.body.request.id}/cancel.json`, undefined, 404],
      ['POST', `/api/v1/buddy_requests/${accepted}/accept.json`, undefined, 404],
      ['POST', `/api/v1/buddy_requests/${accepted}/decline.json`, undefined, 404],
      ['GET', messagesPath(chatId), undefined, 404],
      ['GET', messagesPath(chatId, '?since=0&mark_read=1'), undefined, 404],
      ['POST', messagesPath(chatId), { text: 'let me in' }, 404],
      ['POST', `/api/v1/chats/${chatId}/read.json`, undefined, 404],
      ['POST', `/api/v1/users/${a!.slug}/report.json`, { reason: 'spam', chatId }, 400],
    ];
    for (const [method, path, body, status] of matrix) {
      const res = await api(method, path, { token: c!.token, body });
      expect([method, path, res.status]).toEqual([method, path, status]);
    }
    // Lists and the inbox show the stranger only their own (empty) world.
    expect((await api('GET', '/api/v1/buddy_requests.json', { token: c!.token })).body).toEqual({ sent: [], received: [] });
    expect((await api('GET', '/api/v1/chats.json', { token: c!.token })).body.chats).toEqual([]);
    const inbox = (await api('GET', '/api/v1/inbox.json', { token: c!.token })).body;
    expect([inbox.pending_requests, inbox.accepted_requests, inbox.chats]).toEqual([[], [], []]);
    expect((await api('GET', '/api/v1/me.json', { token: c!.token })).body.profile.id).toBe(c!.id);
    // Someone else's device token cannot be removed.
    expect((await api('DELETE', '/api/v1/me/push_tokens.json', { token: c!.token, body: { token: device } })).body.removed).toBe(false);

    // Nothing changed.
    expect((await storedMessages(chatId)).length).toBe(before.messages);
    expect((await memberRow(chatId, a!.id)).unread_count).toBe(before.unread);
    const request = await testDb().selectFrom('buddy_requests').select('state').where('id', '=', pending.body.request.id).executeTakeFirstOrThrow();
    expect(request.state).toBe('pending');
    expect(await testDb().selectFrom('push_tokens').select('token').where('user_id', '=', a!.id).execute()).toEqual([{ token: device }]);
    expect(await testDb().selectFrom('reports').select('id').where('reporter_id', '=', c!.id).execute()).toEqual([]);
  });

  it('hides a chat from everyone but its two members (404), whatever the endpoint', async () => {
    const [a, b, c] = await users(3, 'Outsider');
    const chatId = await makeBuddies(a!, b!, 'private');
    const cases: [string, string, Record<string, unknown> | undefined][] = [
      ['GET', messagesPath(chatId), undefined],
      ['GET', messagesPath(chatId, '?since=0&mark_read=1'), undefined],
      ['POST', messagesPath(chatId), { text: 'let me in' }],
      ['POST', `/api/v1/chats/${chatId}/read.json`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await api(method, path, { token: c!.token, body });
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, 'not_found']);
    }
    const list = await api('GET', '/api/v1/chats.json', { token: c!.token });
    expect(list.body.chats).toEqual([]);
    expect(await storedMessages(chatId)).toHaveLength(1);
    expect((await memberRow(chatId, a!.id)).unread_count).toBe(1);
  });

  it.each(['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1'; drop table messages; --"])('answers 404 for the chat id %j', async (chatId) => {
    const [a] = await users(1);
    const id = encodeURIComponent(chatId);
    for (const [method, path, body] of [
      ['GET', `/api/v1/chats/${id}/messages.json`, undefined],
      ['POST', `/api/v1/chats/${id}/messages.json`, { text: 'hello' }],
      ['POST', `/api/v1/chats/${id}/read.json`, undefined],
    ] as const) {
      const res = await api(method, path, { token: a!.token, body });
      expect(res.status).toBe(404);
    }
  });

  it('needs message:read to read and message:write to write', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!, 'hi');
    const readOnly = async (user: TestUser) => restrictScopes(user, ['profile:read', 'buddy:read', 'message:read']);
    await readOnly(a!);
    for (const [method, path, body] of [
      ['POST', messagesPath(chatId), { text: 'hello' }],
      ['POST', `/api/v1/chats/${chatId}/read.json`, undefined],
    ] as const) {
      const res = await api(method, path, { token: a!.token, body });
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 'insufficient_scope']);
    }
    expect((await api('GET', messagesPath(chatId), { token: a!.token })).status).toBe(200);
    await restrictScopes(a!, ['profile:read', 'buddy:read', 'message:write']);
    for (const path of [messagesPath(chatId), '/api/v1/chats.json', '/api/v1/inbox.json']) {
      const res = await api('GET', path, { token: a!.token });
      expect([path, res.status]).toEqual([path, 403]);
    }
    for (const path of [messagesPath(chatId), '/api/v1/chats.json', '/api/v1/inbox.json']) {
      expect((await api('GET', path)).status).toBe(401);
    }
    expect(await storedMessages(chatId)).toHaveLength(1);
  });
});
