// Blocks and reports against the real server: a block either way stops requests
// and messages; the blocked person vanishes from the blocker's lists and is told
// no more than necessary.
import { describe, expect, it } from 'vitest';
import { blockUser, listBlocks, reportUser, unblockUser } from '@/lib/contract/social';
import { call, refused } from './contract-client';
import { api, testDb } from './client';
import { accept, makeBuddies, memberRow, requestBuddy, restrictScopes, send, storedMessages, users, type TestUser } from './social-helpers';

const block = (who: TestUser, whom: TestUser, body?: Record<string, unknown>) =>
  api('POST', `/api/v1/users/${whom.slug}/block.json`, { token: who.token, body });
const unblock = (who: TestUser, whom: TestUser) => api('DELETE', `/api/v1/users/${whom.slug}/block.json`, { token: who.token });
const blockRows = (blocker: string) => testDb().selectFrom('blocks').selectAll().where('blocker_id', '=', blocker).execute();

describe('blocking', () => {
  it('stores the block idempotently, lists it, and unblocks', async () => {
    const [a, b] = await users(2, 'Blocker');
    for (let i = 0; i < 2; i++) {
      const blocked = await call(blockUser, { params: { slug: b.slug }, body: { agentName: 'AgentA' }, token: a.token });
      expect(blocked).toMatchObject({ blocked: true, user: { id: b.id, displayName: 'Blocker B' } });
    }
    expect(await blockRows(a.id)).toMatchObject([{ blocked_id: b.id, agent_name: 'AgentA' }]);
    const list = await call(listBlocks, { token: a.token });
    expect(list.blocked.map((u) => u.id)).toEqual([b.id]);
    for (let i = 0; i < 2; i++) {
      expect((await call(unblockUser, { params: { slug: b.slug }, token: a.token })).blocked).toBe(false);
    }
    expect(await blockRows(a.id)).toEqual([]);
  });

  it.each([blockUser, unblockUser])('$method refuses to block yourself and unknown people', async (spec) => {
    const [a] = await users(1);
    await refused(spec, { params: { slug: a.slug }, token: a.token }, 'cannot_target_self');
    await refused(spec, { params: { slug: 'nobody-like-this' }, token: a.token }, 'not_found');
  });

  it('refuses buddy requests both ways with the same generic 403', async () => {
    const [a, b] = await users(2);
    await block(a!, b!);
    const fromBlocked = await requestBuddy(b!, a!, { message: 'hi?' });
    const fromBlocker = await requestBuddy(a!, b!, { message: 'hi?' });
    for (const res of [fromBlocked, fromBlocker]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('recipient_unavailable');
      expect(JSON.stringify(res.body)).not.toMatch(/\bblocked you\b/i);
    }
    expect(await testDb().selectFrom('buddy_requests').select('id').where('sender_id', 'in', [a!.id, b!.id]).execute()).toHaveLength(0);
    // The blocked person's error reads the same as any unavailable recipient: nothing names the block.
    expect(fromBlocked.body.error.message).toBe(fromBlocker.body.error.message);
  });

  it('hides a pending request from the blocker, who can no longer accept it', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(b!, a!);
    await block(a!, b!);
    expect((await api('GET', '/api/v1/buddy_requests.json', { token: a!.token })).body.received).toEqual([]);
    expect((await api('GET', '/api/v1/inbox.json', { token: a!.token })).body.pending_requests).toEqual([]);
    const res = await accept(a!, req.body.request.id);
    expect(res.status).toBe(404);
    // The sender still sees it pending: they are not told.
    const sent = (await api('GET', '/api/v1/buddy_requests.json', { token: b!.token })).body.sent;
    expect(sent).toMatchObject([{ id: req.body.request.id, state: 'pending' }]);
    // Unblocking brings it back.
    await unblock(a!, b!);
    expect((await api('GET', '/api/v1/buddy_requests.json', { token: a!.token })).body.received).toHaveLength(1);
  });

  it('refuses to let the recipient of a block accept a request from the blocker', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!);
    await block(a!, b!);
    const res = await accept(b!, req.body.request.id, { firstMessage: 'yes!' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('recipient_unavailable');
    expect(await testDb().selectFrom('connections').select('id').where('user_a', 'in', [a!.id, b!.id]).execute()).toHaveLength(0);
  });

  it('stops messages both ways in an existing chat and hides the chat from the blocker only', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!, 'hi');
    expect((await send(b!, chatId, 'unread before the block')).status).toBe(201);
    await block(a!, b!);

    const fromBlocked = await send(b!, chatId, 'are you there?');
    expect(fromBlocked.status).toBe(403);
    expect(fromBlocked.body.error.code).toBe('chat_unavailable');
    const fromBlocker = await send(a!, chatId, 'bye');
    expect(fromBlocker.status).toBe(404);
    expect((await storedMessages(chatId)).map((m) => m.text)).toEqual(['hi', 'unread before the block']);
    expect((await memberRow(chatId, a!.id)).unread_count).toBe(2);

    // Gone from the blocker's chats, inbox and message reads…
    expect((await api('GET', '/api/v1/chats.json', { token: a!.token })).body).toEqual({ chats: [], total_unread: 0 });
    const inboxA = (await api('GET', '/api/v1/inbox.json', { token: a!.token })).body;
    expect(inboxA).toMatchObject({ chats: [], unread_messages_count: 0, unread_chats_count: 0 });
    expect((await api('GET', `/api/v1/chats/${chatId}/messages.json`, { token: a!.token })).status).toBe(404);
    expect((await api('POST', `/api/v1/chats/${chatId}/read.json`, { token: a!.token })).status).toBe(404);
    // …while the blocked person still sees the chat as it was.
    const chatsB = (await api('GET', '/api/v1/chats.json', { token: b!.token })).body.chats;
    expect(chatsB.map((c: { chatId: string }) => c.chatId)).toEqual([chatId]);
    expect((await api('GET', `/api/v1/chats/${chatId}/messages.json`, { token: b!.token })).status).toBe(200);

    // Unblocking restores the chat for both.
    await unblock(a!, b!);
    expect((await api('GET', '/api/v1/chats.json', { token: a!.token })).body.chats).toHaveLength(1);
    expect((await send(b!, chatId, 'hello again')).status).toBe(201);
    expect((await send(a!, chatId, 'hi again')).status).toBe(201);
  });

  it('a block in each direction refuses both senders', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    await block(a!, b!);
    await block(b!, a!);
    expect((await send(a!, chatId, 'x y z')).status).toBe(404);
    expect((await send(b!, chatId, 'x y z')).status).toBe(404);
    await unblock(a!, b!);
    expect((await send(a!, chatId, 'x y z')).status).toBe(403);
    expect(await storedMessages(chatId)).toHaveLength(0);
  });

  it('needs buddy:write to block and buddy:read to list blocks', async () => {
    const [a, b] = await users(2);
    await restrictScopes(a!, ['profile:read', 'buddy:read']);
    expect((await block(a!, b!)).status).toBe(403);
    expect((await unblock(a!, b!)).status).toBe(403);
    expect((await api('POST', `/api/v1/users/${b!.slug}/report.json`, { token: a!.token, body: { reason: 'spam' } })).status).toBe(403);
    expect((await api('GET', '/api/v1/me/blocks.json', { token: a!.token })).status).toBe(200);
    await restrictScopes(a!, ['profile:read']);
    expect((await api('GET', '/api/v1/me/blocks.json', { token: a!.token })).status).toBe(403);
    expect(await blockRows(a!.id)).toEqual([]);
  });
});

describe('reporting', () => {
  it('stores the report with the chat it happened in, and can block in the same call', async () => {
    const [a, b] = await users(2, 'Reporter');
    const chatId = await makeBuddies(a!, b!, 'hi');
    const res = await api('POST', `/api/v1/users/${b!.slug}/report.json`, {
      token: a!.token,
      body: { reason: 'harassment', text: 'Kept messaging after I said no.', chatId, block: true, agentName: 'AgentA' },
    });
    expect(res.status).toBe(201);
    const body = reportUser.response.parse(res.body);
    expect(body.blocked).toBe(true);
    const report = await testDb().selectFrom('reports').selectAll().where('id', '=', body.reportId).executeTakeFirstOrThrow();
    expect(report).toMatchObject({ reporter_id: a!.id, reported_id: b!.id, reason: 'harassment', text: 'Kept messaging after I said no.', chat_id: chatId, status: 'open', agent_name: 'AgentA' });
    expect(await blockRows(a!.id)).toMatchObject([{ blocked_id: b!.id }]);
  });

  it('reports without blocking', async () => {
    const [a, b] = await users(2);
    const res = await api('POST', `/api/v1/users/${b!.id}/report.json`, { token: a!.token, body: { reason: 'fake_profile' } });
    expect(res.status).toBe(201);
    expect(res.body.blocked).toBe(false);
    expect(await blockRows(a!.id)).toEqual([]);
  });

  it.each([
    ['no reason', {}, 'reason'],
    ['an unknown reason', { reason: 'boring' }, 'reason'],
    ['text over 1000 characters', { reason: 'other', text: 'x'.repeat(1001) }, 'text'],
    ['a chat that is not theirs', { reason: 'spam', chatId: '00000000-0000-4000-8000-000000000000' }, 'chatId'],
    ['a malformed chat id', { reason: 'spam', chatId: 'nope' }, 'chatId'],
  ])('refuses %s with 400', async (_name, body, field) => {
    const [a, b] = await users(2);
    const res = await api('POST', `/api/v1/users/${b!.slug}/report.json`, { token: a!.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty(field);
    expect(await testDb().selectFrom('reports').select('id').where('reporter_id', '=', a!.id).execute()).toHaveLength(0);
  });

  it("refuses a chat between the reported person and someone else", async () => {
    const [a, b, c] = await users(3);
    const chatBC = await makeBuddies(b!, c!);
    const res = await api('POST', `/api/v1/users/${b!.slug}/report.json`, { token: a!.token, body: { reason: 'spam', chatId: chatBC } });
    expect(res.status).toBe(400);
  });

  it('refuses to report yourself', async () => {
    const [a] = await users(1);
    const res = await api('POST', `/api/v1/users/${a!.slug}/report.json`, { token: a!.token, body: { reason: 'spam' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('cannot_target_self');
  });
});
