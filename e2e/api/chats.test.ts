// Chats and messages against the real server and database: sending, paging with
// poll_next_url, read markers, the rate limit under parallel sends, moderation
// and who may see a chat.
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { getMe, updateMe } from '@/lib/contract/profiles';
import {
  acceptBuddyRequest,
  cancelBuddyRequest,
  declineBuddyRequest,
  listBuddyRequests,
  sendBuddyRequest,
} from '@/lib/contract/buddies';
import { listChats, listMessages, markChatRead, sendMessage } from '@/lib/contract/chats';
import { deletePushToken, registerPushToken } from '@/lib/contract/devices';
import { getInbox } from '@/lib/contract/inbox';
import { reportUser } from '@/lib/contract/safety';
import { api, baseUrl, registerUser, testDb } from './client';
import { call, pathOf, refused, send } from './contract-client';
import {
  makeBuddies,
  memberRow,
  messageInput,
  restrictScopes,
  say,
  sendMessageAs,
  settledPushJobs,
  storedMessages,
  users,
  type TestUser,
} from './social-helpers';
import { WebClient } from './web-client';

/** The next page as a poll_next_url names it: the same chat's messages.json, with its query. */
async function follow(url: string, token: string) {
  const next = new URL(url);
  expect(`${next.origin}`).toBe(inject('baseUrl'));
  const chatId = /^\/api\/v1\/chats\/([^/]+)\/messages\.json$/.exec(next.pathname)?.[1];
  if (chatId === undefined) throw new Error(`poll_next_url is not a chat's messages.json: ${url}`);
  return call(listMessages, {
    params: { chatId: decodeURIComponent(chatId) },
    query: Object.fromEntries(next.searchParams),
    token,
  });
}

describe('POST /api/v1/chats/{chatId}/messages.json', () => {
  it('stores the message, counts it unread for the other person and queues a push', async () => {
    const [a, b] = await users(2, 'Sender', true);
    const chatId = await makeBuddies(a, b);
    const message = await say(a, chatId, '  See you at 9 by the north trailhead!  ', {
      agentName: 'AgentA',
      agentSessionId: 's1',
    });
    expect(message).toMatchObject({
      chatId,
      sender_id: a.id,
      from_me: true,
      text: 'See you at 9 by the north trailhead!',
    });
    expect(new Date(message.created_at).getTime()).toBe(message.created_at_ms);
    expect(Math.abs(message.created_at_ms - Date.now())).toBeLessThan(60_000);

    const [row] = await storedMessages(chatId);
    expect(row).toMatchObject({
      id: Number(message.id),
      sender_id: a.id,
      text: message.text,
      agent_name: 'AgentA',
      agent_session_id: 's1',
    });
    expect((await memberRow(chatId, b.id)).unread_count).toBe(1);
    expect((await memberRow(chatId, a.id)).unread_count).toBe(0);
    const chat = await testDb().selectFrom('chats').selectAll().where('id', '=', chatId).executeTakeFirstOrThrow();
    expect(chat.last_message_id).toBe(Number(message.id));

    const jobs = await settledPushJobs(b.id, 1);
    expect(jobs.map((j) => [j.data, j.state])).toContainEqual([
      { kind: 'message', recipientId: b.id, chatId, messageId: Number(message.id) },
      'completed',
    ]);
  });

  it('accepts exactly 4000 characters', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    const text = Array.from({ length: 400 }, (_, i) => `Part ${i} ok.`)
      .join(' ')
      .slice(0, 4000);
    expect(text).toHaveLength(4000);
    expect((await say(a, chatId, text)).text).toBe(text);
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
    const chatId = await makeBuddies(a, b);
    // Raw: some bodies break the type on purpose (no text, a number, an unknown field).
    const res = await api('POST', pathOf(sendMessage, { chatId }), { token: a.token, body });
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
  ] as const)('refuses with 422 %s and stores nothing', async (code, text) => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    const error = await refused(sendMessage, messageInput(a, chatId, text), code);
    expect(error).toMatchObject({
      code,
      message: expect.any(String),
      hint: expect.any(String),
      fields: { text: expect.any(String) },
    });
    expect(await storedMessages(chatId)).toHaveLength(0);
    expect((await memberRow(chatId, b.id)).unread_count).toBe(0);
  });

  it('lets everyday figures of speech through', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    for (const text of [
      "I'd kill for a coffee after that climb",
      'Scunthorpe has a great parkrun',
      "I'll shoot you a text when I'm there",
    ]) {
      await say(a, chatId, text);
    }
    expect(await storedMessages(chatId)).toHaveLength(3);
  });
});

describe('the message rate limit', () => {
  it('refuses the 21st message in 10 minutes with 429 and Retry-After, per sender', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    for (let i = 1; i <= 20; i++) await say(a, chatId, `Message number ${i}`);
    const res = await refused(sendMessage, messageInput(a, chatId, 'Message number 21'), 'rate_limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await storedMessages(chatId)).toHaveLength(20);
    // The limit is per sender: the buddy can still answer.
    await say(b, chatId, 'Slow down, friend');
  });

  it('30 parallel sends store exactly the limit', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sendMessageAs(a, chatId, `Parallel message ${i}`)),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20);
    expect(results.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await storedMessages(chatId)).toHaveLength(20);
    expect((await memberRow(chatId, b.id)).unread_count).toBe(20);
  });

  it('counts only the last 10 minutes', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    for (let i = 1; i <= 20; i++) await say(a, chatId, `Early message ${i}`);
    // Age the first ten beyond the window (keeping the order created_at must have).
    const ids = (await storedMessages(chatId)).map((m) => m.id);
    await testDb()
      .updateTable('messages')
      .set({ created_at: sql`created_at - interval '11 minutes'` })
      .where('id', 'in', ids.slice(0, 10))
      .execute();
    for (let i = 1; i <= 10; i++) await say(a, chatId, `Later message ${i}`);
    await refused(sendMessage, messageInput(a, chatId, 'One too many'), 'rate_limited');
  });
});

describe('GET /api/v1/chats/{chatId}/messages.json', () => {
  it('shows the latest page oldest first and a poll_next_url that yields only what follows', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'Hello from B');
    for (const text of ['one', 'two', 'three', 'four']) await say(a, chatId, text);
    const page = await call(listMessages, { params: { chatId }, query: { limit: 3 }, token: b.token });
    expect(page.messages.map((m) => m.text)).toEqual(['two', 'three', 'four']);
    expect(page.messages.every((m) => !m.from_me && m.sender_id === a.id)).toBe(true);
    expect(page).toMatchObject({ chatId, unread_count: 4, has_more: false });
    expect(page.poll_next_url.startsWith(`${inject('baseUrl')}/api/v1/chats/${chatId}/messages.json?cursor=`)).toBe(
      true,
    );
    expect(page.poll_next_url).toContain('limit=3');

    const nothing = await follow(page.poll_next_url, b.token);
    expect(nothing.messages).toEqual([]);
    expect(nothing.poll_next_url).toBe(page.poll_next_url);
    await say(a, chatId, 'five');
    const next = await follow(page.poll_next_url, b.token);
    expect(next.messages.map((m) => m.text)).toEqual(['five']);
  });

  it('since=<ms> returns only newer messages', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    const first = await say(a, chatId, 'before');
    await new Promise((r) => setTimeout(r, 5));
    await say(a, chatId, 'after 1');
    await say(b, chatId, 'after 2');
    const res = await call(listMessages, { params: { chatId }, query: { since: first.created_at_ms }, token: a.token });
    expect(res.messages.map((m) => [m.text, m.from_me])).toEqual([
      ['after 1', true],
      ['after 2', false],
    ]);
    // The same since as an ISO date-time means the same.
    const iso = await call(listMessages, { params: { chatId }, query: { since: first.created_at }, token: a.token });
    expect(iso.messages).toEqual(res.messages);
    // A since after everything: empty, and the poll URL keeps waiting after it.
    const later = await call(listMessages, { params: { chatId }, query: { since: Date.now() + 1000 }, token: a.token });
    expect(later.messages).toEqual([]);
    expect(later.poll_next_url).toContain('since=');
  });

  it('pages 500 messages, many sharing a millisecond, while new ones arrive: no gaps, no duplicates', async () => {
    const [a, b] = await users(2, 'Pager');
    const chatId = await makeBuddies(a, b);
    // 460 older messages, ten per millisecond, inserted as the app would (last_message_* kept in step).
    const base = Date.now() - 86_400_000;
    await sql`
      insert into messages (chat_id, sender_id, text, created_at)
      select ${chatId}::uuid, case when g % 2 = 0 then ${a.id}::uuid else ${b.id}::uuid end, 'seeded ' || g,
             timestamptz 'epoch' + (${base}::bigint + g / 10) * interval '1 millisecond'
      from generate_series(0, 459) g`.execute(testDb());
    await sql`update chats set last_message_id = (select max(id) from messages where chat_id = ${chatId}::uuid),
              last_message_at = (select max(created_at) from messages where chat_id = ${chatId}::uuid) where id = ${chatId}::uuid`.execute(
      testDb(),
    );

    // 40 more arrive over HTTP (20 from each side: the rate limit) while B pages with limit 37.
    const senders = Promise.all(
      [a, b].map(async (who) => {
        for (let i = 0; i < 20; i++) await say(who, chatId, `live ${who.slug} ${i}`);
      }),
    );
    let done = false;
    void senders.then(() => (done = true));
    const seen: string[] = [];
    let res = await call(listMessages, { params: { chatId }, query: { since: 0, limit: 37 }, token: b.token });
    for (let round = 0; round < 500; round++) {
      seen.push(...res.messages.map((m) => m.id));
      const finished = done;
      res = await follow(res.poll_next_url, b.token);
      if (finished && res.messages.length === 0) break;
    }
    await senders;

    const stored = (await storedMessages(chatId)).map((m) => String(m.id));
    expect(stored).toHaveLength(500);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(stored);
  });

  it('older_cursor pages back to the first message, each once, and never waits', async () => {
    const [a, b] = await users(2, 'Back');
    const chatId = await makeBuddies(a, b);
    await sql`
      insert into messages (chat_id, sender_id, text, created_at)
      select ${chatId}::uuid, ${a.id}::uuid, 'old ' || g, now() - (200 - g) * interval '1 second'
      from generate_series(1, 120) g`.execute(testDb());
    await sql`update chats set last_message_id = (select max(id) from messages where chat_id = ${chatId}::uuid),
              last_message_at = (select max(created_at) from messages where chat_id = ${chatId}::uuid) where id = ${chatId}::uuid`.execute(
      testDb(),
    );
    let page = await call(listMessages, { params: { chatId }, query: { limit: 50 }, token: b.token });
    const seen = page.messages.map((m) => m.text);
    while (page.older_cursor !== null) {
      const cursor = page.older_cursor;
      page = await call(listMessages, { params: { chatId }, query: { cursor, limit: 50 }, token: b.token });
      // Newer messages follow every older page; its poll_next_url continues right after it.
      expect(page.has_more).toBe(true);
      seen.unshift(...page.messages.map((m) => m.text));
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `old ${i + 1}`));
    expect(page.messages).toHaveLength(20);
    const after = await follow(page.poll_next_url, b.token);
    expect(after.messages[0]?.text).toBe('old 21');

    // A page before the first message is empty at once, even with wait.
    const firstId = Number(page.messages[0]?.id);
    const cursor = Buffer.from(`o1:${firstId}`).toString('base64url');
    const started = Date.now();
    const none = await call(listMessages, { params: { chatId }, query: { cursor, wait: 25 }, token: b.token });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(none).toMatchObject({ messages: [], older_cursor: null });
    expect(new URL(none.poll_next_url).searchParams.get('cursor')).toBe(
      Buffer.from(`m1:${firstId - 1}`).toString('base64url'),
    );
    // One past the last message was never issued.
    const past = Buffer.from(`o1:${Number(after.messages.at(-1)?.id) + 1000}`).toString('base64url');
    await refused(listMessages, { params: { chatId }, query: { cursor: past }, token: b.token }, 'validation_failed');
  });

  it('since splits exactly at a millisecond shared by several messages', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    const base = Date.now() - 3_600_000;
    await sql`
      insert into messages (chat_id, sender_id, text, created_at)
      select ${chatId}::uuid, ${a.id}::uuid, 'tie ' || g, timestamptz 'epoch' + (${base}::bigint + g / 5) * interval '1 millisecond'
      from generate_series(0, 19) g`.execute(testDb());
    await sql`update chats set last_message_id = (select max(id) from messages where chat_id = ${chatId}::uuid),
              last_message_at = (select max(created_at) from messages where chat_id = ${chatId}::uuid) where id = ${chatId}::uuid`.execute(
      testDb(),
    );
    const res = await call(listMessages, { params: { chatId }, query: { since: base + 1 }, token: b.token });
    expect(res.messages.map((m) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `tie ${i + 10}`));
    expect(res.messages.every((m) => m.created_at_ms > base + 1)).toBe(true);
  });

  it('mark_read moves the read marker to the last message returned, and read.json marks everything', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    for (const text of ['m1', 'm2', 'm3', 'm4', 'm5']) await say(a, chatId, text);
    const first = await call(listMessages, {
      params: { chatId },
      query: { since: 0, limit: 2, mark_read: 1 },
      token: b.token,
    });
    expect(first.messages.map((m) => m.text)).toEqual(['m1', 'm2']);
    expect(first).toMatchObject({ unread_count: 3, has_more: true });
    expect(first.poll_next_url).toContain('mark_read=1');
    const marker = await memberRow(chatId, b.id);
    expect(marker).toMatchObject({ last_read_message_id: Number(first.messages[1]?.id), unread_count: 3 });

    const second = await follow(first.poll_next_url, b.token);
    expect(second.messages.map((m) => m.text)).toEqual(['m3', 'm4']);
    expect(second.unread_count).toBe(1);

    // Reading without mark_read leaves the marker alone.
    await call(listMessages, { params: { chatId }, token: b.token });
    expect((await memberRow(chatId, b.id)).unread_count).toBe(1);

    for (let i = 0; i < 2; i++) {
      const body = await call(markChatRead, { params: { chatId }, token: b.token });
      expect(body).toMatchObject({ chatId, unread_count: 0 });
      const stored = await storedMessages(chatId);
      expect(body.last_read_message_id).toBe(String(stored.at(-1)?.id));
    }
    expect(await memberRow(chatId, b.id)).toMatchObject({ unread_count: 0 });
    // The sender's own counter never counted their messages.
    expect((await memberRow(chatId, a.id)).unread_count).toBe(0);
  });

  it('answers 304 to If-None-Match until something changes', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'hi');
    const first = await send(listMessages, { params: { chatId }, token: a.token });
    expect(first.ok).toBe(true);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    // Raw: a 304 has no body for the contract to parse.
    const same = await api('GET', pathOf(listMessages, { chatId }), {
      token: a.token,
      headers: { 'if-none-match': etag },
    });
    expect(same.status).toBe(304);
    expect(same.body).toBeNull();
    await say(b, chatId, 'news');
    const changed = await send(listMessages, {
      params: { chatId },
      token: a.token,
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.ok).toBe(true);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('never answers 304 over a message that arrived while a mark_read page was being answered', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'hi');
    // Bea's message lands inside Ana's request, after her page was read (when it marks it read),
    // as one sent at that moment from another connection would.
    const slip = `slip_${chatId.replaceAll('-', '')}`;
    await sql
      .raw(
        `create function ${slip}() returns trigger language plpgsql as $$ begin
           if not exists (select 1 from messages where chat_id = '${chatId}' and text = 'slipped in') then
             insert into messages (chat_id, sender_id, text, created_at) values ('${chatId}', '${b.id}', 'slipped in', now());
             update chats set last_message_id = (select max(id) from messages where chat_id = '${chatId}'),
               last_message_at = now() where id = '${chatId}';
           end if;
           return null;
         end $$`,
      )
      .execute(testDb());
    await sql
      .raw(
        `create trigger ${slip} after update of last_read_message_id on chat_members
         for each row when (new.chat_id = '${chatId}') execute function ${slip}()`,
      )
      .execute(testDb());
    try {
      const query = { since: 0, mark_read: 1 } as const;
      const first = await send(listMessages, { params: { chatId }, query, token: a.token });
      if (!first.ok) throw new Error(first.error.message);
      expect(first.data.messages.map((m) => m.text)).not.toContain('slipped in');
      const next = await api('GET', pathOf(listMessages, { chatId }, query), {
        token: a.token,
        headers: { 'if-none-match': first.headers.get('etag') ?? '' },
      });
      expect(next.status).toBe(200);
      expect(next.body.messages.map((m: { text: string }) => m.text)).toContain('slipped in');
    } finally {
      await sql.raw(`drop trigger if exists ${slip} on chat_members`).execute(testDb());
      await sql.raw(`drop function if exists ${slip}()`).execute(testDb());
    }
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
    const chatId = await makeBuddies(a, b);
    const error = await refused(
      listMessages,
      { params: { chatId }, query: Object.fromEntries(new URLSearchParams(query)), token: a.token },
      'validation_failed',
    );
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });

  it('accepts limit=200', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'hi');
    await call(listMessages, { params: { chatId }, query: { limit: 200 }, token: a.token });
  });
});

describe('GET /api/v1/chats.json', () => {
  it('lists one chat per buddy, most recent first, with last_message and unread_count', async () => {
    const [a, b, c] = await users(3, 'Lister');
    const chatAB = await makeBuddies(a, b);
    const chatAC = await makeBuddies(a, c, 'Hi A, this is C');
    await say(b, chatAB, 'Hi A, this is B');
    await say(b, chatAB, 'Are you free Saturday?');

    const body = await call(listChats, { token: a.token });
    expect(body.chats.map((chat) => chat.chatId)).toEqual([chatAB, chatAC]);
    expect(body.chats[0]).toMatchObject({
      buddy: { id: b.id, displayName: 'Lister B' },
      unread_count: 2,
      last_message: { text: 'Are you free Saturday?', from_me: false },
    });
    expect(body.chats[1]).toMatchObject({
      buddy: { id: c.id },
      unread_count: 1,
      last_message: { text: 'Hi A, this is C', from_me: false },
    });
    expect(body.total_unread).toBe(3);
    expect(body.chats[0]?.messages_url).toBe(`${inject('baseUrl')}/api/v1/chats/${chatAB}/messages.json`);

    await call(markChatRead, { params: { chatId: chatAC }, token: a.token });
    const unread = await call(listChats, { query: { unread_only: 1 }, token: a.token });
    expect(unread.chats.map((chat) => chat.chatId)).toEqual([chatAB]);
    expect(unread.total_unread).toBe(2);

    const fromB = await call(listChats, { token: b.token });
    expect(fromB.chats).toHaveLength(1);
    expect(fromB.chats[0]).toMatchObject({ chatId: chatAB, unread_count: 0, last_message: { from_me: true } });
  });

  it('is empty for someone without buddies', async () => {
    const [a] = await users(1);
    expect(await call(listChats, { token: a.token })).toMatchObject({ chats: [], total_unread: 0 });
  });
});

describe('authorization', () => {
  it("matrix: a stranger against every bearer endpoint that names another person's request, chat or device", async () => {
    const [a, b, c, d] = await users(4, 'Matrix');
    const chatId = await makeBuddies(a, b, 'between us');
    const pending = await call(sendBuddyRequest, { params: { slug: a.slug }, token: d.token, body: {} });
    const accepted = (await call(listBuddyRequests, { token: a.token })).sent[0]?.id ?? 'none';
    const device = `ExponentPushToken[${a.id.slice(0, 22)}]`;
    await call(registerPushToken, { token: a.token, body: { token: device } });
    const before = {
      messages: (await storedMessages(chatId)).length,
      unread: (await memberRow(chatId, a.id)).unread_count,
    };

    const token = c.token;
    const matrix: [string, () => Promise<unknown>][] = [
      [
        'accept pending',
        () =>
          refused(
            acceptBuddyRequest,
            { params: { invitationId: pending.request.id }, token, body: { firstMessage: 'hi' } },
            'not_found',
          ),
      ],
      [
        'decline pending',
        () => refused(declineBuddyRequest, { params: { invitationId: pending.request.id }, token }, 'not_found'),
      ],
      [
        'cancel pending',
        () => refused(cancelBuddyRequest, { params: { invitationId: pending.request.id }, token }, 'not_found'),
      ],
      [
        'accept accepted',
        () => refused(acceptBuddyRequest, { params: { invitationId: accepted }, token }, 'not_found'),
      ],
      [
        'decline accepted',
        () => refused(declineBuddyRequest, { params: { invitationId: accepted }, token }, 'not_found'),
      ],
      ['read messages', () => refused(listMessages, { params: { chatId }, token }, 'not_found')],
      [
        'read and mark',
        () => refused(listMessages, { params: { chatId }, query: { since: 0, mark_read: 1 }, token }, 'not_found'),
      ],
      [
        'send a message',
        () => refused(sendMessage, { params: { chatId }, token, body: { text: 'let me in' } }, 'not_found'),
      ],
      ['mark read', () => refused(markChatRead, { params: { chatId }, token }, 'not_found')],
      [
        'report in their chat',
        () =>
          refused(
            reportUser,
            { params: { slug: a.slug }, token, body: { reason: 'spam', chatId } },
            'validation_failed',
          ),
      ],
    ];
    for (const [name, attempt] of matrix) {
      await expect(attempt(), name).resolves.toBeDefined();
    }
    // Lists and the inbox show the stranger only their own (empty) world.
    expect(await call(listBuddyRequests, { token: c.token })).toEqual({ sent: [], received: [] });
    expect((await call(listChats, { token: c.token })).chats).toEqual([]);
    const inbox = await call(getInbox, { token: c.token });
    expect([inbox.pending_requests, inbox.accepted_requests, inbox.chats]).toEqual([[], [], []]);
    expect((await call(getMe, { token: c.token })).profile.id).toBe(c.id);
    // Someone else's device token cannot be removed.
    expect((await call(deletePushToken, { token: c.token, body: { token: device } })).removed).toBe(false);

    // Nothing changed.
    expect((await storedMessages(chatId)).length).toBe(before.messages);
    expect((await memberRow(chatId, a.id)).unread_count).toBe(before.unread);
    const request = await testDb()
      .selectFrom('buddy_requests')
      .select('state')
      .where('id', '=', pending.request.id)
      .executeTakeFirstOrThrow();
    expect(request.state).toBe('pending');
    expect(await testDb().selectFrom('push_tokens').select('token').where('user_id', '=', a.id).execute()).toEqual([
      { token: device },
    ]);
    expect(await testDb().selectFrom('reports').select('id').where('reporter_id', '=', c.id).execute()).toEqual([]);
  });

  it('hides a chat from everyone but its two members (404), whatever the endpoint', async () => {
    const [a, b, c] = await users(3, 'Outsider');
    const chatId = await makeBuddies(a, b, 'private');
    const token = c.token;
    await refused(listMessages, { params: { chatId }, token }, 'not_found');
    await refused(listMessages, { params: { chatId }, query: { since: 0, mark_read: 1 }, token }, 'not_found');
    await refused(sendMessage, { params: { chatId }, token, body: { text: 'let me in' } }, 'not_found');
    await refused(markChatRead, { params: { chatId }, token }, 'not_found');
    expect((await call(listChats, { token: c.token })).chats).toEqual([]);
    expect(await storedMessages(chatId)).toHaveLength(1);
    expect((await memberRow(chatId, a.id)).unread_count).toBe(1);
  });

  it.each(['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1'; drop table messages; --"])(
    'answers 404 for the chat id %j',
    async (chatId) => {
      const [a] = await users(1);
      // call() escapes the chat id into the path as the raw test did.
      await refused(listMessages, { params: { chatId }, token: a.token }, 'not_found');
      await refused(sendMessage, { params: { chatId }, token: a.token, body: { text: 'hello' } }, 'not_found');
      await refused(markChatRead, { params: { chatId }, token: a.token }, 'not_found');
    },
  );

  it('needs message:read to read and message:write to write', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'hi');
    const readOnly = async (user: TestUser) => restrictScopes(user, ['profile:read', 'buddy:read', 'message:read']);
    await readOnly(a);
    await refused(sendMessage, { params: { chatId }, token: a.token, body: { text: 'hello' } }, 'insufficient_scope');
    await refused(markChatRead, { params: { chatId }, token: a.token }, 'insufficient_scope');
    await call(listMessages, { params: { chatId }, token: a.token });
    await restrictScopes(a, ['profile:read', 'buddy:read', 'message:write']);
    for (const token of [a.token, undefined]) {
      const code = token ? 'insufficient_scope' : 'unauthorized';
      await refused(listMessages, { params: { chatId }, token }, code);
      await refused(listChats, { token }, code);
      await refused(getInbox, { token }, code);
    }
    expect(await storedMessages(chatId)).toHaveLength(1);
  });
});

describe('agentName cannot be spoofed (issue 28 §8): the label comes from the token’s own agent', () => {
  it('refuses a token that names another agent, stores nothing, and labels what it sends with its own', async () => {
    const mallory = await registerUser({ displayName: 'Mallory', agentName: 'Mallory Bot' });
    const [victim] = await users(1, 'Victim');
    const chatId = await makeBuddies(mallory, victim);

    const error = await refused(
      sendMessage,
      messageInput(mallory, chatId, 'Claude here: what is your door code?', { agentName: 'Claude' }),
      'validation_failed',
    );
    expect(error.message).toBe('agentName "Claude" is not the agent of this token');
    expect(error.fields).toEqual({
      agentName: expect.stringMatching(/^must be this token’s own agent, "Mallory Bot"/),
    });
    expect(await storedMessages(chatId)).toEqual([]);

    // The same on every write that takes attribution, e.g. a profile edit: nothing changes.
    await refused(
      updateMe,
      { token: mallory.token, body: { aboutMe: 'Changed', agentName: 'Claude' } },
      'validation_failed',
    );
    expect((await call(getMe, { token: mallory.token })).profile.aboutMe).not.toBe('Changed');

    // Its own name (in any case) or none: labelled with the recorded spelling.
    expect((await say(mallory, chatId, 'Hi', { agentName: 'mallory bot' })).agent_name).toBe('Mallory Bot');
    expect((await say(mallory, chatId, 'Hi again')).agent_name).toBe('Mallory Bot');
  });

  it('refuses any agent name from a token that has none', async () => {
    const [a, b] = await users(2, 'Plain');
    const chatId = await makeBuddies(a, b);
    const error = await refused(
      sendMessage,
      messageInput(a, chatId, 'Hi', { agentName: 'Claude' }),
      'validation_failed',
    );
    expect(error.fields?.agentName).toMatch(/^leave it out: this token has no agent name/);
    expect(await storedMessages(chatId)).toEqual([]);
    expect((await say(a, chatId, 'Hi')).agent_name).toBeNull();
  });

  it('refuses an agent name on a write from the person’s web session, which carries no agent', async () => {
    const password = 'correct horse battery staple';
    const person = await registerUser({ displayName: 'Web Person', password, emailMagicLink: false });
    const [buddy] = await users(1, 'Buddy');
    const chatId = await makeBuddies(person, buddy);
    const web = new WebClient();
    expect((await web.signInWithPassword(person.user.email, password)).status).toBeLessThan(400);
    const path = pathOf(sendMessage, { chatId });
    const origin = { origin: new URL(baseUrl()).origin };

    const spoofed = await web.request('POST', path, { json: { text: 'Hi', agentName: 'Claude' }, headers: origin });
    expect(spoofed.status).toBe(400);
    expect(spoofed.json.error).toMatchObject({
      code: 'validation_failed',
      fields: { agentName: expect.stringMatching(/^leave it out: what you write signed in on the web/) },
    });
    expect(await storedMessages(chatId)).toEqual([]);

    const own = await web.request('POST', path, { json: { text: 'Hi' }, headers: origin });
    expect(own.status).toBe(201);
    expect(own.json.message.agent_name).toBeNull();
  });
});
