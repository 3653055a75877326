// Buddy requests (SPEC 3.2) against the real server and database: every
// transition, the open points decided in docs/decisions/buddies-chats-and-inbox.md, concurrency and authorization.
import { describe, expect, it } from 'vitest';
import {
  acceptBuddyRequest,
  cancelBuddyRequest,
  declineBuddyRequest,
  listBuddyRequests,
  sendBuddyRequest,
} from '@/lib/contract/buddies';
import { testDb } from './client';
import { call, refused, send } from './contract-client';
import {
  acceptRequest,
  askBuddy,
  makeBuddies,
  pushJobs,
  requestBuddy,
  restrictScopes,
  settledPushJobs,
  storedMessages,
  users,
} from './social-helpers';

const requestsOfPair = (a: string, b: string) =>
  testDb()
    .selectFrom('buddy_requests')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('sender_id', '=', a), eb('recipient_id', '=', b)]),
        eb.and([eb('sender_id', '=', b), eb('recipient_id', '=', a)]),
      ]),
    )
    .execute();

const connectionsOfPair = (a: string, b: string) => {
  const [low, high] = a < b ? [a, b] : [b, a];
  return testDb().selectFrom('connections').selectAll().where('user_a', '=', low).where('user_b', '=', high).execute();
};

const chatsOfPair = (a: string, b: string) =>
  testDb()
    .selectFrom('chat_members')
    .select('chat_id')
    .where('user_id', '=', a)
    .where('other_user_id', '=', b)
    .execute();

describe('request → accept', () => {
  it('creates a pending request the recipient sees, then one connection, one chat and the first message', async () => {
    const [a, b] = await users(2, 'Flow', true);
    const created = await askBuddy(a, b, {
      message: 'Hi! Up for a Saturday hike?',
      activityIds: ['hiking', 'hiking', 'running'],
      agentName: 'AgentA',
      agentSessionId: 'sess-a',
    });
    expect(created.outcome).toBe('created');
    expect(created.chat).toBeNull();
    expect(created.request).toMatchObject({
      state: 'pending',
      direction: 'sent',
      message: 'Hi! Up for a Saturday hike?',
      activityIds: ['hiking', 'running'],
      responded_at: null,
      chatId: null,
      user: { id: b.id, slug: b.slug, displayName: 'Flow B' },
    });
    expect(created.request.invitationId).toBe(created.request.id);
    const [row] = await requestsOfPair(a.id, b.id);
    expect(row).toMatchObject({
      state: 'pending',
      sender_id: a.id,
      recipient_id: b.id,
      agent_name: 'AgentA',
      agent_session_id: 'sess-a',
    });
    const jobs = await pushJobs(b.id);
    expect(jobs.map((j) => j.data)).toContainEqual({
      kind: 'buddy_request',
      recipientId: b.id,
      requestId: created.request.id,
    });

    const lists = await call(listBuddyRequests, { token: b.token });
    expect(lists.sent).toEqual([]);
    expect(lists.received).toHaveLength(1);
    expect(lists.received[0]).toMatchObject({
      id: created.request.id,
      direction: 'received',
      state: 'pending',
      user: { id: a.id, displayName: 'Flow A' },
    });
    expect(JSON.stringify(lists)).not.toContain('@example.com');

    const body = await acceptRequest(b, created.request.id, {
      firstMessage: 'Yes! 9am at the north trailhead?',
      agentName: 'AgentB',
    });
    expect(body.request).toMatchObject({ state: 'accepted', direction: 'received', chatId: body.chat.chatId });
    expect(body.request.responded_at).not.toBeNull();
    expect(body.chat).toMatchObject({
      buddy: { id: a.id },
      unread_count: 0,
      last_message: { text: 'Yes! 9am at the north trailhead?', from_me: true },
    });
    expect(body.first_message).toMatchObject({
      text: 'Yes! 9am at the north trailhead?',
      sender_id: b.id,
      from_me: true,
      chatId: body.chat.chatId,
    });

    expect(await connectionsOfPair(a.id, b.id)).toHaveLength(1);
    const stored = await storedMessages(body.chat.chatId);
    expect(stored).toMatchObject([{ sender_id: b.id, text: 'Yes! 9am at the north trailhead?', agent_name: 'AgentB' }]);
    const members = await testDb()
      .selectFrom('chat_members')
      .selectAll()
      .where('chat_id', '=', body.chat.chatId)
      .execute();
    expect(members.find((m) => m.user_id === a.id)).toMatchObject({ other_user_id: b.id, unread_count: 1 });
    expect(members.find((m) => m.user_id === b.id)).toMatchObject({ other_user_id: a.id, unread_count: 0 });
    const [after] = await requestsOfPair(a.id, b.id);
    expect(after).toMatchObject({ state: 'accepted', chat_id: body.chat.chatId, responder_agent_name: 'AgentB' });
    const actions = await testDb()
      .selectFrom('agent_actions')
      .select(['user_id', 'action', 'agent_name'])
      .where('user_id', 'in', [a.id, b.id])
      .execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { user_id: a.id, action: 'send_buddy_request', agent_name: 'AgentA' },
        { user_id: b.id, action: 'accept_buddy_request', agent_name: 'AgentB' },
      ]),
    );

    // The sender's list shows the acceptance and the chat; the sender is notified.
    const listA = await call(listBuddyRequests, { token: a.token });
    expect(listA.sent[0]).toMatchObject({ state: 'accepted', chatId: body.chat.chatId, direction: 'sent' });
    const pushed = await settledPushJobs(a.id, 1);
    expect(pushed.map((j) => j.data)).toContainEqual({
      kind: 'request_accepted',
      recipientId: a.id,
      requestId: created.request.id,
      chatId: body.chat.chatId,
    });
    expect(pushed.every((j) => j.state === 'completed')).toBe(true);
  });

  it('accepts without a first message and with no body at all', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(a, b);
    const res = await call(acceptBuddyRequest, { params: { invitationId: req.request.id }, token: b.token });
    expect(res.first_message).toBeNull();
    expect(res.chat.last_message).toBeNull();
    expect(await storedMessages(res.chat.chatId)).toHaveLength(0);
  });

  it('finds the recipient by user id as well as slug', async () => {
    const [a, b] = await users(2);
    const res = await call(sendBuddyRequest, { params: { slug: b.id }, token: a.token, body: {} });
    expect(res.request.user.id).toBe(b.id);
  });
});

describe('decline and cancel', () => {
  it('declines without creating a chat, and the sender may not ask again for a while', async () => {
    const [a, b] = await users(2, 'Person', true);
    const req = await askBuddy(a, b, { message: 'Climbing?' });
    const body = await call(declineBuddyRequest, {
      params: { invitationId: req.request.id },
      token: b.token,
      body: { agentName: 'AgentB' },
    });
    expect(body.request).toMatchObject({ state: 'declined', chatId: null });
    expect(await connectionsOfPair(a.id, b.id)).toHaveLength(0);
    expect(await chatsOfPair(a.id, b.id)).toHaveLength(0);
    const [row] = await requestsOfPair(a.id, b.id);
    expect(row).toMatchObject({ state: 'declined', responder_agent_name: 'AgentB' });
    expect(row?.responded_at).not.toBeNull();

    await refused(sendBuddyRequest, { params: { slug: b.slug }, token: a.token }, 'request_declined');
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(1);

    // The person who declined can still change their mind and ask.
    await askBuddy(b, a);
  });

  it('lets the sender cancel a pending request, after which it cannot be accepted', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(a, b);
    const res = await call(cancelBuddyRequest, { params: { invitationId: req.request.id }, token: a.token });
    expect(res.request.state).toBe('cancelled');
    await refused(
      acceptBuddyRequest,
      { params: { invitationId: req.request.id }, token: b.token },
      'request_not_pending',
    );
    expect(await chatsOfPair(a.id, b.id)).toHaveLength(0);
    // A cancelled request does not block a new one.
    await askBuddy(a, b);
  });

  it.each([
    ['accept twice', acceptBuddyRequest, acceptBuddyRequest],
    ['decline after accept', acceptBuddyRequest, declineBuddyRequest],
    ['accept after decline', declineBuddyRequest, acceptBuddyRequest],
    ['decline twice', declineBuddyRequest, declineBuddyRequest],
  ])('answers 409 request_not_pending to %s', async (_name, first, second) => {
    const [a, b] = await users(2);
    const req = await askBuddy(a, b);
    const input = { params: { invitationId: req.request.id }, token: b.token };
    await call(first, input);
    const error = await refused(second, input, 'request_not_pending');
    expect(error.message).toMatch(first === acceptBuddyRequest ? /accepted/ : /declined/);
    expect(await chatsOfPair(a.id, b.id)).toHaveLength(first === acceptBuddyRequest ? 1 : 0);
  });
});

describe('the open points', () => {
  it('refuses a request to yourself with 400 cannot_target_self', async () => {
    const [a] = await users(1);
    for (const key of [a.slug, a.id]) {
      await refused(sendBuddyRequest, { params: { slug: key }, token: a.token, body: {} }, 'cannot_target_self');
    }
    expect(
      await testDb().selectFrom('buddy_requests').select('id').where('sender_id', '=', a.id).execute(),
    ).toHaveLength(0);
  });

  it('answers a repeated pending request with the same request (200 already_pending)', async () => {
    const [a, b] = await users(2);
    const first = await askBuddy(a, b, { message: 'first' });
    // 200, not the spec's 201: call() takes only 201, so this reads the raw answer and parses it with the contract.
    const second = await requestBuddy(a, b, { message: 'second' });
    expect(second.status).toBe(200);
    const body = sendBuddyRequest.response.parse(second.body);
    expect(body).toMatchObject({
      outcome: 'already_pending',
      request: { id: first.request.id, message: 'first', state: 'pending' },
    });
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(1);
  });

  it('accepts the pending request in the other direction, with the message as the first chat message', async () => {
    const [a, b] = await users(2, 'Person', true);
    const first = await askBuddy(a, b, { message: 'Tennis?' });
    // 200 (accepted_reverse), not the spec's 201: the raw answer, parsed with the contract.
    const res = await requestBuddy(b, a, { message: 'Yes, Sunday works!', agentName: 'AgentB' });
    expect(res.status).toBe(200);
    const body = sendBuddyRequest.response.parse(res.body);
    expect(body.outcome).toBe('accepted_reverse');
    expect(body.request).toMatchObject({
      id: first.request.id,
      state: 'accepted',
      direction: 'received',
      user: { id: a.id },
    });
    expect(body.chat).toMatchObject({
      buddy: { id: a.id },
      last_message: { text: 'Yes, Sunday works!', from_me: true },
    });
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(1);
    expect(await connectionsOfPair(a.id, b.id)).toHaveLength(1);
    expect(await storedMessages(body.chat?.chatId ?? 'no chat')).toMatchObject([
      { sender_id: b.id, text: 'Yes, Sunday works!', agent_name: 'AgentB' },
    ]);
  });

  it('refuses a request between buddies with 409 already_buddies naming the chat', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const error = await refused(
        sendBuddyRequest,
        { params: { slug: to.slug }, token: from.token },
        'already_buddies',
      );
      expect(error.hint).toContain(chatId);
    }
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown user', async () => {
    const [a] = await users(1);
    await refused(sendBuddyRequest, { params: { slug: 'nobody-by-this-name' }, token: a.token, body: {} }, 'not_found');
  });
});

describe('validation and moderation', () => {
  it.each([
    ['a message over 280 characters', { message: 'x'.repeat(281) }, 'message'],
    [
      'more than 5 activityIds',
      { activityIds: ['hiking', 'running', 'yoga', 'tennis', 'swimming', 'cycling'] },
      'activityIds',
    ],
    ['an activity that matches nothing', { activityIds: ['hiking', 'xyzzy'] }, 'activityIds'],
    ['an unknown field', { note: 'hi' }, 'note'],
    ['a non-string message', { message: 42 }, 'message'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const [a, b] = await users(2);
    // Raw: some bodies break the type on purpose (an unknown field, a number for text).
    const res = await requestBuddy(a, b, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(0);
  });

  it('names every activity that matches nothing, and where the list is', async () => {
    const [a, b] = await users(2);
    const input = { params: { slug: b.slug }, token: a.token, body: { activityIds: ['hiking', 'qwzxv', 'xyzzy'] } };
    const error = await refused(sendBuddyRequest, input, 'validation_failed');
    expect(error.fields?.activityIds).toMatch(
      /^unknown activities: "qwzxv".*, "xyzzy".*list_activities or \/api\/v1\/activities\.json$/,
    );
  });

  it('refuses a firstMessage over 600 characters', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(a, b);
    const input = { params: { invitationId: req.request.id }, token: b.token, body: { firstMessage: 'y'.repeat(601) } };
    const error = await refused(acceptBuddyRequest, input, 'validation_failed');
    expect(error.fields).toHaveProperty('firstMessage');
    expect((await requestsOfPair(a.id, b.id))[0]?.state).toBe('pending');
  });

  it.each([
    ['message_blocked_threat', "I'm going to kill you"],
    ['message_blocked_solicitation', 'send me nudes'],
    ['message_blocked_profanity', 'hey n1gger'],
    ['message_blocked_shouting', 'HELLO THERE WANT TO GO HIKING WITH ME'],
    ['message_blocked_spam', 'hiiiiiiiiiiiiiiii'],
  ] as const)('moderates the request message and firstMessage: %s', async (code, text) => {
    const [a, b] = await users(2);
    const moderated = await refused(
      sendBuddyRequest,
      { params: { slug: b.slug }, token: a.token, body: { message: text } },
      code,
    );
    expect(moderated).toMatchObject({ code, hint: expect.any(String), fields: { message: expect.any(String) } });
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(0);

    const req = await askBuddy(a, b, { message: 'Coffee walk?' });
    const error = await refused(
      acceptBuddyRequest,
      { params: { invitationId: req.request.id }, token: b.token, body: { firstMessage: text } },
      code,
    );
    expect(error).toMatchObject({ code, fields: { firstMessage: expect.any(String) } });
    expect((await requestsOfPair(a.id, b.id))[0]?.state).toBe('pending');
    expect(await chatsOfPair(a.id, b.id)).toHaveLength(0);
  });
});

describe('concurrency', () => {
  it('20 parallel accepts create exactly one connection, one chat and one first message', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(a, b);
    const input = { params: { invitationId: req.request.id }, token: b.token, body: { firstMessage: 'Hello!' } };
    const results = await Promise.all(Array.from({ length: 20 }, () => send(acceptBuddyRequest, input)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(results.filter((r) => r.status === 409).every((r) => !r.ok && r.error.code === 'request_not_pending')).toBe(
      true,
    );
    expect(await connectionsOfPair(a.id, b.id)).toHaveLength(1);
    const chats = await chatsOfPair(a.id, b.id);
    expect(chats).toHaveLength(1);
    const chatId = chats[0]?.chat_id ?? 'no chat';
    expect(await storedMessages(chatId)).toHaveLength(1);
    expect(await testDb().selectFrom('chats').select('id').where('id', '=', chatId).execute()).toHaveLength(1);
  });

  it('parallel requests both ways end as one accepted request and one chat', async () => {
    const [a, b] = await users(2);
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => requestBuddy(a, b)),
      ...Array.from({ length: 5 }, () => requestBuddy(b, a)),
    ]);
    expect(results.every((r) => r.status === 200 || r.status === 201 || r.status === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.body.outcome === 'accepted_reverse')).toHaveLength(1);
    expect(await connectionsOfPair(a.id, b.id)).toHaveLength(1);
    expect(await chatsOfPair(a.id, b.id)).toHaveLength(1);
    const requests = await requestsOfPair(a.id, b.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.state).toBe('accepted');
  });

  it('10 parallel identical requests store one', async () => {
    const [a, b] = await users(2);
    const results = await Promise.all(Array.from({ length: 10 }, () => requestBuddy(a, b)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => sendBuddyRequest.response.parse(r.body).request.id)).size).toBe(1);
    expect(await requestsOfPair(a.id, b.id)).toHaveLength(1);
  });
});

describe('authorization', () => {
  it('hides a request from strangers (404) and lets only the right side answer (403)', async () => {
    const [a, b, c] = await users(3, 'Authz');
    const req = await askBuddy(a, b);
    const id = req.request.id;
    const cases = [
      ['stranger accepts', c, acceptBuddyRequest, 'not_found'],
      ['stranger declines', c, declineBuddyRequest, 'not_found'],
      ['stranger cancels', c, cancelBuddyRequest, 'not_found'],
      ['sender accepts', a, acceptBuddyRequest, 'forbidden'],
      ['sender declines', a, declineBuddyRequest, 'forbidden'],
      ['recipient cancels', b, cancelBuddyRequest, 'forbidden'],
    ] as const;
    for (const [name, who, spec, code] of cases) {
      // refused() checks the code and its status (404 not_found, 403 forbidden).
      await expect(
        refused(spec, { params: { invitationId: id }, token: who.token }, code),
        name,
      ).resolves.toMatchObject({ code });
    }
    // The stranger's lists do not show it, and nothing changed.
    expect(await call(listBuddyRequests, { token: c.token })).toEqual({ sent: [], received: [] });
    expect((await requestsOfPair(a.id, b.id))[0]?.state).toBe('pending');
  });

  it.each(['not-a-uuid', '00000000-0000-4000-8000-000000000000'])(
    'answers 404 for the unknown invitation id %s',
    async (id) => {
      const [b] = await users(1);
      for (const spec of [acceptBuddyRequest, declineBuddyRequest, cancelBuddyRequest]) {
        await refused(spec, { params: { invitationId: id }, token: b.token }, 'not_found');
      }
    },
  );

  it('needs buddy:write to write and buddy:read to list', async () => {
    const [a, b] = await users(2);
    const req = await askBuddy(b, a);
    await restrictScopes(a, ['profile:read', 'buddy:read', 'message:read', 'message:write']);
    await refused(sendBuddyRequest, { params: { slug: b.slug }, token: a.token }, 'insufficient_scope');
    for (const spec of [acceptBuddyRequest, declineBuddyRequest, cancelBuddyRequest]) {
      await refused(spec, { params: { invitationId: req.request.id }, token: a.token }, 'insufficient_scope');
    }
    await call(listBuddyRequests, { token: a.token });
    await restrictScopes(a, ['profile:read']);
    await refused(listBuddyRequests, { token: a.token }, 'insufficient_scope');
    await refused(listBuddyRequests, {}, 'unauthorized');
    expect((await requestsOfPair(a.id, b.id))[0]?.state).toBe('pending');
  });
});
