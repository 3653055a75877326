// GET /api/v1/inbox.json against the real server: the end-to-end flow of two
// agents acting for two people, ETag polling, since, and the per-chat bound.
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { inboxCounts } from '@/lib/inbox/inbox';
import { declineBuddyRequest } from '@/lib/contract/buddies';
import { listMessages, markChatRead } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { blockUser } from '@/lib/contract/safety';
import { api, registerUser, testDb } from './client';
import { call, type CallInput, callWithHeaders, refused } from './contract-client';
import {
  acceptRequest,
  askBuddy,
  makeBuddies,
  memberRow,
  say,
  storedMessages,
  type TestUser,
  users,
} from './social-helpers';

const inbox = (user: TestUser, query?: CallInput<typeof getInbox>['query']) =>
  call(getInbox, { token: user.token, query });
/** A poll with its headers (ETag, Cache-Control). */
const inboxWithHeaders = (user: TestUser, headers: Record<string, string> = {}) =>
  callWithHeaders(getInbox, { token: user.token, headers });
/** Following a link the server gave, as given; a conditional poll may answer 304 with no body, so this stays raw. */
const follow = (user: TestUser, url: string, headers: Record<string, string> = {}) =>
  api('GET', url, { token: user.token, headers });
const relative = (url: string) => url.slice(inject('baseUrl').length);

describe('two agents, two people, end to end', () => {
  it('register, request, accept with a first message, exchange messages, both polling the inbox', async () => {
    // Two agents register their people.
    const alex = await registerUser({ displayName: 'Alex', activities: ['hiking'], agentName: 'AlexAgent' });
    const blair = await registerUser({ displayName: 'Blair', activities: ['hiking'], agentName: 'BlairAgent' });

    // Both inboxes start empty.
    const empty = await inbox(blair);
    expect(empty).toMatchObject({
      pending_requests: [],
      pending_requests_count: 0,
      accepted_requests: [],
      chats: [],
      unread_chats_count: 0,
      unread_messages_count: 0,
    });

    // Alex's agent asks Blair.
    const req = await askBuddy(alex, blair, {
      message: 'Fancy a hike on Saturday?',
      activityIds: ['hiking'],
      agentName: 'AlexAgent',
    });

    // Blair's agent polls and sees the request with Alex's card.
    const withRequest = await inbox(blair);
    expect(withRequest.pending_requests_count).toBe(1);
    expect(withRequest.pending_requests[0]).toMatchObject({
      id: req.request.id,
      direction: 'received',
      state: 'pending',
      message: 'Fancy a hike on Saturday?',
      activityIds: ['hiking'],
      user: { id: alex.id, displayName: 'Alex' },
    });

    // Blair accepts with a first message.
    const accepted = await acceptRequest(blair, req.request.id, {
      firstMessage: 'Yes! 9am at the trailhead?',
      agentName: 'BlairAgent',
    });
    const chatId = accepted.chat.chatId;
    expect((await inbox(blair)).pending_requests).toEqual([]);

    // Alex's agent polls: the acceptance and the unread first message.
    const alexView = await inbox(alex);
    expect(alexView.accepted_requests).toHaveLength(1);
    expect(alexView.accepted_requests[0]).toMatchObject({
      id: req.request.id,
      state: 'accepted',
      direction: 'sent',
      chatId,
      user: { id: blair.id },
    });
    expect(alexView.chats).toHaveLength(1);
    expect(alexView.chats[0]).toMatchObject({
      chatId,
      unread_count: 1,
      buddy: { id: blair.id },
      last_message: { text: 'Yes! 9am at the trailhead?', from_me: false },
    });
    expect(alexView.chats[0]?.new_messages.map((m) => m.text)).toEqual(['Yes! 9am at the trailhead?']);
    expect(alexView).toMatchObject({ unread_chats_count: 1, unread_messages_count: 1 });

    // Alex reads (mark_read via the unread_url) and answers.
    const unreadUrl = alexView.chats[0]?.unread_url ?? '';
    const read = listMessages.response.parse((await follow(alex, `${relative(unreadUrl)}&mark_read=1`)).body);
    expect(read.messages.map((m) => m.text)).toEqual(['Yes! 9am at the trailhead?']);
    expect(read.unread_count).toBe(0);
    await say(alex, chatId, 'Perfect, see you there!', { agentName: 'AlexAgent' });
    expect((await inbox(alex)).chats).toEqual([]);

    // Blair's agent polls and sees the answer; replies; reads.
    const blairView = await inbox(blair);
    expect(blairView.chats.map((c) => [c.chatId, c.unread_count, c.new_messages.map((m) => m.text)])).toEqual([
      [chatId, 1, ['Perfect, see you there!']],
    ]);
    await say(blair, chatId, 'Bring water!');
    await call(markChatRead, { params: { chatId }, token: blair.token });
    expect(await inbox(blair)).toMatchObject({ chats: [], unread_messages_count: 0 });
    expect((await inbox(alex)).chats[0]?.new_messages.map((m) => m.text)).toEqual(['Bring water!']);

    // The stored conversation, with who wrote what for whom. "Bring water!" named no agent,
    // but went with the token BlairAgent registered with: it is BlairAgent's (issue 17).
    expect((await storedMessages(chatId)).map((m) => [m.sender_id, m.text, m.agent_name])).toEqual([
      [blair.id, 'Yes! 9am at the trailhead?', 'BlairAgent'],
      [alex.id, 'Perfect, see you there!', 'AlexAgent'],
      [blair.id, 'Bring water!', 'BlairAgent'],
    ]);
  });
});

describe('polling', () => {
  it('answers 304 to If-None-Match until something changes, also when following poll_next_url', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'hello');
    const first = await inboxWithHeaders(a);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    // The server's cursor first, and `since` beside it for callers who keep only that (issue 30).
    expect(first.data.poll_next_url.startsWith(`${inject('baseUrl')}/api/v1/inbox.json?cursor=`)).toBe(true);
    expect(first.data.poll_next_url).toContain('&since=');
    // One name for the poll link on the inbox and on messages; the old one stays as an alias through v1.
    expect(first.data.next_poll_url).toBe(first.data.poll_next_url);
    expect(first.data.poll_interval_seconds).toBe(30);

    // 304 with no body: a conditional request call() does not model, so raw.
    const same = await api('GET', '/api/v1/inbox.json', { token: a.token, headers: { 'if-none-match': etag } });
    expect(same.status).toBe(304);
    expect(same.body).toBeNull();
    expect(same.headers.get('etag')).toBe(etag);

    await say(b, chatId, 'news');
    const changed = await inboxWithHeaders(a, { 'if-none-match': etag });
    expect(changed.data.chats[0]?.unread_count).toBe(2);
    const etag2 = changed.headers.get('etag');
    expect(etag2).not.toBe(etag);

    // Following poll_next_url: the state (unread chats) is answered, then nothing changes
    // and the answer is 304.
    await new Promise((r) => setTimeout(r, 20));
    const next = await follow(a, relative(changed.data.poll_next_url));
    expect(next.status).toBe(200);
    const again = await follow(a, relative(getInbox.response.parse(next.body).poll_next_url), {
      'if-none-match': next.headers.get('etag') ?? '',
    });
    expect(again.status).toBe(304);
  });

  it('since limits accepted requests and new messages, while unread chats stay listed', async () => {
    const [a, b, c] = await users(3);
    const chatAB = await makeBuddies(a, b);
    await say(b, chatAB, 'old news');
    const cut = new Date();
    await new Promise((r) => setTimeout(r, 10));
    await say(b, chatAB, 'fresh news');
    const req = await askBuddy(a, c);
    await acceptRequest(c, req.request.id);

    const all = await inbox(a);
    expect(all.accepted_requests.map((r) => r.user.id).sort()).toEqual([b.id, c.id].sort());
    expect(all.chats.find((ch) => ch.chatId === chatAB)?.new_messages.map((m) => m.text)).toEqual([
      'old news',
      'fresh news',
    ]);

    // Backdate the A→B acceptance: it falls before `cut`.
    await testDb()
      .updateTable('buddy_requests')
      .set({ responded_at: new Date(cut.getTime() - 60_000) })
      .where('sender_id', '=', a.id)
      .where('recipient_id', '=', b.id)
      .execute();
    const since = await inbox(a, { since: cut.toISOString() });
    expect(since.since).toBe(cut.toISOString());
    expect(since.accepted_requests.map((r) => r.user.id)).toEqual([c.id]);
    const chat = since.chats.find((ch) => ch.chatId === chatAB);
    expect(chat?.unread_count).toBe(2);
    expect(chat?.new_messages.map((m) => m.text)).toEqual(['fresh news']);
    // Milliseconds work too.
    const ms = await inbox(a, { since: cut.getTime() });
    expect(ms.accepted_requests.map((r) => r.user.id)).toEqual([c.id]);

    // Without since, acceptances older than 7 days drop out.
    await testDb()
      .updateTable('buddy_requests')
      .set({ responded_at: new Date(Date.now() - 8 * 86_400_000) })
      .where('sender_id', '=', a.id)
      .execute();
    expect((await inbox(a)).accepted_requests).toEqual([]);
  });

  it('shows at most 20 new messages per chat, newest, with the full unread count and a URL to read them all', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    for (let i = 1; i <= 20; i++) await say(b, chatId, `note ${i}`);
    // Move those beyond the rate-limit window (order kept) so five more can follow.
    await testDb()
      .updateTable('messages')
      .set({ created_at: sql`created_at - interval '11 minutes'` })
      .where('chat_id', '=', chatId)
      .execute();
    await testDb()
      .updateTable('chats')
      .set({ last_message_at: sql`last_message_at - interval '11 minutes'` })
      .where('id', '=', chatId)
      .execute();
    for (let i = 21; i <= 25; i++) await say(b, chatId, `note ${i}`);

    const view = await inbox(a);
    const chat = view.chats[0];
    expect(chat?.unread_count).toBe(25);
    expect(chat?.new_messages.map((m) => m.text)).toEqual(Array.from({ length: 20 }, (_, i) => `note ${i + 6}`));
    const all = listMessages.response.parse((await follow(a, `${relative(chat?.unread_url ?? '')}&limit=200`)).body);
    expect(all.messages).toHaveLength(25);
    expect(all.messages[0]?.text).toBe('note 1');
    expect((await memberRow(chatId, a.id)).unread_count).toBe(25);
  });

  it('counts every pending request and leaves out answered ones', async () => {
    const [a, b, c, d] = await users(4);
    const fromB = await askBuddy(b, a);
    await askBuddy(c, a);
    await askBuddy(d, a);
    await call(declineBuddyRequest, { params: { invitationId: fromB.request.id }, token: a.token });
    const view = await inbox(a);
    expect(view.pending_requests_count).toBe(2);
    expect(view.pending_requests.map((r) => r.user.id)).toEqual([d.id, c.id]);
  });

  it('gives the web menu the same counts as the inbox, without loading it', async () => {
    const [a, b, c, d] = await users(4);
    await askBuddy(c, a);
    await askBuddy(d, a);
    const chatId = await makeBuddies(a, b);
    await say(b, chatId, 'unread one');
    // A blocked sender's request and chat drop out of both.
    await call(blockUser, { params: { slug: d.slug }, token: a.token });
    const view = await inbox(a);
    expect(view).toMatchObject({ pending_requests_count: 1, unread_chats_count: 1 });
    expect(await inboxCounts(testDb(), a.id)).toEqual({ pending_requests_count: 1, unread_chats_count: 1 });
  });

  it.each(['yesterday', '2024-13-45T00:00:00Z', '12abc'])('refuses since=%s with 400', async (since) => {
    const [a] = await users(1);
    const res = await refused(getInbox, { query: { since }, token: a.token }, 'validation_failed');
    expect(res.fields).toHaveProperty('since');
  });
});
