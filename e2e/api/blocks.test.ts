// Blocks and reports against the real server: a block either way stops requests
// and messages; the blocked person vanishes from the blocker's lists and is told
// no more than necessary.
import { describe, expect, it } from 'vitest';
import * as buddies from '@/lib/contract/buddies';
import * as chats from '@/lib/contract/chats';
import * as inbox from '@/lib/contract/inbox';
import * as safety from '@/lib/contract/safety';
import { call, pathOf, refused } from './contract-client';
import { api, testDb } from './client';
import {
  askBuddy,
  makeBuddies,
  memberRow,
  messageInput,
  restrictScopes,
  say,
  storedMessages,
  users,
  type TestUser,
} from './social-helpers';

const block = (who: TestUser, whom: TestUser) =>
  call(safety.blockUser, { params: { slug: whom.slug }, token: who.token });
const unblock = (who: TestUser, whom: TestUser) =>
  call(safety.unblockUser, { params: { slug: whom.slug }, token: who.token });
const blockRows = (blocker: string) =>
  testDb().selectFrom('blocks').selectAll().where('blocker_id', '=', blocker).execute();

describe('blocking', () => {
  it('stores the block idempotently, lists it, and unblocks', async () => {
    const [a, b] = await users(2, 'Blocker', true);
    for (let i = 0; i < 2; i++) {
      const blocked = await call(safety.blockUser, {
        params: { slug: b.slug },
        body: { agentName: 'AgentA' },
        token: a.token,
      });
      expect(blocked).toMatchObject({ blocked: true, user: { id: b.id, displayName: 'Blocker B' } });
    }
    expect(await blockRows(a.id)).toMatchObject([{ blocked_id: b.id, agent_name: 'AgentA' }]);
    const list = await call(safety.listBlocks, { token: a.token });
    expect(list.blocked.map((u) => u.id)).toEqual([b.id]);
    for (let i = 0; i < 2; i++) {
      expect((await call(safety.unblockUser, { params: { slug: b.slug }, token: a.token })).blocked).toBe(false);
    }
    expect(await blockRows(a.id)).toEqual([]);
  });

  it.each([safety.blockUser, safety.unblockUser])(
    '$method refuses to block yourself and unknown people',
    async (spec) => {
      const [a] = await users(1);
      await refused(spec, { params: { slug: a.slug }, token: a.token }, 'cannot_target_self');
      await refused(spec, { params: { slug: 'nobody-like-this' }, token: a.token }, 'not_found');
    },
  );

  it('refuses buddy requests both ways with the same generic 403', async () => {
    const [a, b] = await users(2);
    await block(a, b);
    const fromBlocked = await refused(
      buddies.sendBuddyRequest,
      { params: { slug: a.slug }, token: b.token, body: { message: 'hi?' } },
      'recipient_unavailable',
    );
    const fromBlocker = await refused(
      buddies.sendBuddyRequest,
      { params: { slug: b.slug }, token: a.token, body: { message: 'hi?' } },
      'recipient_unavailable',
    );
    for (const error of [fromBlocked, fromBlocker]) {
      expect(JSON.stringify({ error })).not.toMatch(/\bblocked you\b/i);
    }
    expect(
      await testDb().selectFrom('buddy_requests').select('id').where('sender_id', 'in', [a.id, b.id]).execute(),
    ).toHaveLength(0);
    // The blocked person's error reads the same as any unavailable recipient: nothing names the block.
    expect(fromBlocked.message).toBe(fromBlocker.message);
  });

  it('hides a pending request from the blocker, who can no longer accept it', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(b, a);
    await block(a, b);
    expect((await call(buddies.listBuddyRequests, { token: a.token })).received).toEqual([]);
    expect((await call(inbox.getInbox, { token: a.token })).pending_requests).toEqual([]);
    await refused(
      buddies.acceptBuddyRequest,
      { params: { invitationId: req.request.id }, token: a.token },
      'not_found',
    );
    // The sender still sees it pending: they are not told.
    const sent = (await call(buddies.listBuddyRequests, { token: b.token })).sent;
    expect(sent).toMatchObject([{ id: req.request.id, state: 'pending' }]);
    // Unblocking brings it back.
    await unblock(a, b);
    expect((await call(buddies.listBuddyRequests, { token: a.token })).received).toHaveLength(1);
  });

  it('refuses to let the recipient of a block accept a request from the blocker', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(a, b);
    await block(a, b);
    const input = { params: { invitationId: req.request.id }, token: b.token, body: { firstMessage: 'yes!' } };
    await refused(buddies.acceptBuddyRequest, input, 'recipient_unavailable');
    expect(
      await testDb().selectFrom('connections').select('id').where('user_a', 'in', [a.id, b.id]).execute(),
    ).toHaveLength(0);
  });

  it('stops messages both ways in an existing chat and hides the chat from the blocker only', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b, 'hi');
    await say(b, chatId, 'unread before the block');
    await block(a, b);

    await refused(chats.sendMessage, messageInput(b, chatId, 'are you there?'), 'chat_unavailable');
    await refused(chats.sendMessage, messageInput(a, chatId, 'bye'), 'not_found');
    expect((await storedMessages(chatId)).map((m) => m.text)).toEqual(['hi', 'unread before the block']);
    expect((await memberRow(chatId, a.id)).unread_count).toBe(2);

    // Gone from the blocker's chats, inbox and message reads…
    expect(await call(chats.listChats, { token: a.token })).toMatchObject({ chats: [], total_unread: 0 });
    const inboxA = await call(inbox.getInbox, { token: a.token });
    expect(inboxA).toMatchObject({ chats: [], unread_messages_count: 0, unread_chats_count: 0 });
    await refused(chats.listMessages, { params: { chatId }, token: a.token }, 'not_found');
    await refused(chats.markChatRead, { params: { chatId }, token: a.token }, 'not_found');
    // …while the blocked person still sees the chat as it was.
    const chatsB = (await call(chats.listChats, { token: b.token })).chats;
    expect(chatsB.map((c) => c.chatId)).toEqual([chatId]);
    await call(chats.listMessages, { params: { chatId }, token: b.token });

    // Unblocking restores the chat for both.
    await unblock(a, b);
    expect((await call(chats.listChats, { token: a.token })).chats).toHaveLength(1);
    await say(b, chatId, 'hello again');
    await say(a, chatId, 'hi again');
  });

  it('a block in each direction refuses both senders', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    await block(a, b);
    await block(b, a);
    await refused(chats.sendMessage, messageInput(a, chatId, 'x y z'), 'not_found');
    await refused(chats.sendMessage, messageInput(b, chatId, 'x y z'), 'not_found');
    await unblock(a, b);
    await refused(chats.sendMessage, messageInput(a, chatId, 'x y z'), 'chat_unavailable');
    expect(await storedMessages(chatId)).toHaveLength(0);
  });

  it('needs buddy:write to block and buddy:read to list blocks', async () => {
    const [a, b] = await users(2);
    await restrictScopes(a, ['profile:read', 'buddy:read']);
    await refused(safety.blockUser, { params: { slug: b.slug }, token: a.token }, 'insufficient_scope');
    await refused(safety.unblockUser, { params: { slug: b.slug }, token: a.token }, 'insufficient_scope');
    await refused(
      safety.reportUser,
      { params: { slug: b.slug }, token: a.token, body: { reason: 'spam' } },
      'insufficient_scope',
    );
    await call(safety.listBlocks, { token: a.token });
    await restrictScopes(a, ['profile:read']);
    await refused(safety.listBlocks, { token: a.token }, 'insufficient_scope');
    expect(await blockRows(a.id)).toEqual([]);
  });
});

describe('reporting', () => {
  it('stores the report with the chat it happened in, and can block in the same call', async () => {
    const [a, b] = await users(2, 'Reporter', true);
    const chatId = await makeBuddies(a, b, 'hi');
    const body = await call(safety.reportUser, {
      params: { slug: b.slug },
      token: a.token,
      body: { reason: 'harassment', text: 'Kept messaging after I said no.', chatId, block: true, agentName: 'AgentA' },
    });
    expect(body.blocked).toBe(true);
    const report = await testDb()
      .selectFrom('reports')
      .selectAll()
      .where('id', '=', body.reportId)
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({
      reporter_id: a.id,
      reported_id: b.id,
      reason: 'harassment',
      text: 'Kept messaging after I said no.',
      chat_id: chatId,
      status: 'open',
      agent_name: 'AgentA',
    });
    expect(await blockRows(a.id)).toMatchObject([{ blocked_id: b.id }]);
  });

  it('reports without blocking', async () => {
    const [a, b] = await users(2);
    const res = await call(safety.reportUser, {
      params: { slug: b.id },
      token: a.token,
      body: { reason: 'fake_profile' },
    });
    expect(res.blocked).toBe(false);
    expect(await blockRows(a.id)).toEqual([]);
  });

  it.each([
    ['no reason', {}, 'reason'],
    ['an unknown reason', { reason: 'boring' }, 'reason'],
    ['text over 1000 characters', { reason: 'other', text: 'x'.repeat(1001) }, 'text'],
    ['a chat that is not theirs', { reason: 'spam', chatId: '00000000-0000-4000-8000-000000000000' }, 'chatId'],
    ['a malformed chat id', { reason: 'spam', chatId: 'nope' }, 'chatId'],
  ])('refuses %s with 400', async (_name, body, field) => {
    const [a, b] = await users(2);
    // Raw: some bodies break the type on purpose (no reason, an unknown one).
    const res = await api('POST', pathOf(safety.reportUser, { slug: b.slug }), { token: a.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty(field);
    expect(await testDb().selectFrom('reports').select('id').where('reporter_id', '=', a.id).execute()).toHaveLength(0);
  });

  it('refuses a chat between the reported person and someone else', async () => {
    const [a, b, c] = await users(3);
    const chatBC = await makeBuddies(b, c);
    await refused(
      safety.reportUser,
      { params: { slug: b.slug }, token: a.token, body: { reason: 'spam', chatId: chatBC } },
      'validation_failed',
    );
  });

  it('refuses to report yourself', async () => {
    const [a] = await users(1);
    await refused(
      safety.reportUser,
      { params: { slug: a.slug }, token: a.token, body: { reason: 'spam' } },
      'cannot_target_self',
    );
  });
});
