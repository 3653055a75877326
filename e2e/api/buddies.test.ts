// Buddy requests (SPEC 3.2) against the real server and database: every
// transition, the open points decided in the README, concurrency and authorization.
import { describe, expect, it } from 'vitest';
import {
  acceptBuddyRequest,
  cancelBuddyRequest,
  declineBuddyRequest,
  listBuddyRequests,
  sendBuddyRequest,
} from '@/lib/contract/social';
import { api, testDb } from './client';
import { accept, makeBuddies, pushJobs, requestBuddy, restrictScopes, settledPushJobs, storedMessages, users } from './social-helpers';

const requestsOfPair = (a: string, b: string) =>
  testDb()
    .selectFrom('buddy_requests')
    .selectAll()
    .where((eb) => eb.or([eb.and([eb('sender_id', '=', a), eb('recipient_id', '=', b)]), eb.and([eb('sender_id', '=', b), eb('recipient_id', '=', a)])]))
    .execute();

const connectionsOfPair = (a: string, b: string) => {
  const [low, high] = a < b ? [a, b] : [b, a];
  return testDb().selectFrom('connections').selectAll().where('user_a', '=', low).where('user_b', '=', high).execute();
};

const chatsOfPair = (a: string, b: string) =>
  testDb().selectFrom('chat_members').select('chat_id').where('user_id', '=', a).where('other_user_id', '=', b).execute();

describe('request → accept', () => {
  it('creates a pending request the recipient sees, then one connection, one chat and the first message', async () => {
    const [a, b] = await users(2, 'Flow');
    const sent = await requestBuddy(a!, b!, {
      message: 'Hi! Up for a Saturday hike?',
      activityIds: ['hiking', 'hiking', 'running'],
      agentName: 'AgentA',
      agentSessionId: 'sess-a',
    });
    expect(sent.status).toBe(201);
    const created = sendBuddyRequest.response.parse(sent.body);
    expect(created.outcome).toBe('created');
    expect(created.chat).toBeNull();
    expect(created.request).toMatchObject({
      state: 'pending',
      direction: 'sent',
      message: 'Hi! Up for a Saturday hike?',
      activityIds: ['hiking', 'running'],
      responded_at: null,
      chatId: null,
      user: { id: b!.id, slug: b!.slug, displayName: 'Flow B' },
    });
    expect(created.request.invitationId).toBe(created.request.id);
    const [row] = await requestsOfPair(a!.id, b!.id);
    expect(row).toMatchObject({ state: 'pending', sender_id: a!.id, recipient_id: b!.id, agent_name: 'AgentA', agent_session_id: 'sess-a' });
    const jobs = await pushJobs(b!.id);
    expect(jobs.map((j) => j.data)).toContainEqual({ kind: 'buddy_request', recipientId: b!.id, requestId: created.request.id });

    const listB = await api('GET', '/api/v1/buddy_requests.json', { token: b!.token });
    expect(listB.status).toBe(200);
    const lists = listBuddyRequests.response.parse(listB.body);
    expect(lists.sent).toEqual([]);
    expect(lists.received).toHaveLength(1);
    expect(lists.received[0]).toMatchObject({ id: created.request.id, direction: 'received', state: 'pending', user: { id: a!.id, displayName: 'Flow A' } });
    expect(JSON.stringify(lists)).not.toContain('@example.com');

    const accepted = await accept(b!, created.request.id, { firstMessage: 'Yes! 9am at the north trailhead?', agentName: 'AgentB' });
    expect(accepted.status).toBe(200);
    const body = acceptBuddyRequest.response.parse(accepted.body);
    expect(body.request).toMatchObject({ state: 'accepted', direction: 'received', chatId: body.chat.chatId });
    expect(body.request.responded_at).not.toBeNull();
    expect(body.chat).toMatchObject({ buddy: { id: a!.id }, unread_count: 0, last_message: { text: 'Yes! 9am at the north trailhead?', from_me: true } });
    expect(body.first_message).toMatchObject({ text: 'Yes! 9am at the north trailhead?', sender_id: b!.id, from_me: true, chatId: body.chat.chatId });

    expect(await connectionsOfPair(a!.id, b!.id)).toHaveLength(1);
    const stored = await storedMessages(body.chat.chatId);
    expect(stored).toMatchObject([{ sender_id: b!.id, text: 'Yes! 9am at the north trailhead?', agent_name: 'AgentB' }]);
    const members = await testDb().selectFrom('chat_members').selectAll().where('chat_id', '=', body.chat.chatId).execute();
    expect(members.find((m) => m.user_id === a!.id)).toMatchObject({ other_user_id: b!.id, unread_count: 1 });
    expect(members.find((m) => m.user_id === b!.id)).toMatchObject({ other_user_id: a!.id, unread_count: 0 });
    const [after] = await requestsOfPair(a!.id, b!.id);
    expect(after).toMatchObject({ state: 'accepted', chat_id: body.chat.chatId, responder_agent_name: 'AgentB' });
    const actions = await testDb().selectFrom('agent_actions').select(['user_id', 'action', 'agent_name']).where('user_id', 'in', [a!.id, b!.id]).execute();
    expect(actions).toEqual(
      expect.arrayContaining([
        { user_id: a!.id, action: 'send_buddy_request', agent_name: 'AgentA' },
        { user_id: b!.id, action: 'accept_buddy_request', agent_name: 'AgentB' },
      ]),
    );

    // The sender's list shows the acceptance and the chat; the sender is notified.
    const listA = listBuddyRequests.response.parse((await api('GET', '/api/v1/buddy_requests.json', { token: a!.token })).body);
    expect(listA.sent[0]).toMatchObject({ state: 'accepted', chatId: body.chat.chatId, direction: 'sent' });
    const pushed = await settledPushJobs(a!.id, 1);
    expect(pushed.map((j) => j.data)).toContainEqual({ kind: 'request_accepted', recipientId: a!.id, requestId: created.request.id, chatId: body.chat.chatId });
    expect(pushed.every((j) => j.state === 'completed')).toBe(true);
  });

  it('accepts without a first message and with no body at all', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!);
    expect(req.status).toBe(201);
    const res = await api('POST', `/api/v1/buddy_requests/${req.body.request.id}/accept.json`, { token: b!.token });
    expect(res.status).toBe(200);
    expect(res.body.first_message).toBeNull();
    expect(res.body.chat.last_message).toBeNull();
    expect(await storedMessages(res.body.chat.chatId)).toHaveLength(0);
  });

  it('finds the recipient by user id as well as slug', async () => {
    const [a, b] = await users(2);
    const res = await api('POST', `/api/v1/users/${b!.id}/buddy_request.json`, { token: a!.token, body: {} });
    expect(res.status).toBe(201);
    expect(res.body.request.user.id).toBe(b!.id);
  });
});

describe('decline and cancel', () => {
  it('declines without creating a chat, and the sender may not ask again for a while', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!, { message: 'Climbing?' });
    const res = await api('POST', `/api/v1/buddy_requests/${req.body.request.id}/decline.json`, { token: b!.token, body: { agentName: 'AgentB' } });
    expect(res.status).toBe(200);
    const body = declineBuddyRequest.response.parse(res.body);
    expect(body.request).toMatchObject({ state: 'declined', chatId: null });
    expect(await connectionsOfPair(a!.id, b!.id)).toHaveLength(0);
    expect(await chatsOfPair(a!.id, b!.id)).toHaveLength(0);
    const [row] = await requestsOfPair(a!.id, b!.id);
    expect(row).toMatchObject({ state: 'declined', responder_agent_name: 'AgentB' });
    expect(row!.responded_at).not.toBeNull();

    const again = await requestBuddy(a!, b!);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('request_declined');
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(1);

    // The person who declined can still change their mind and ask.
    const reverse = await requestBuddy(b!, a!);
    expect(reverse.status).toBe(201);
  });

  it('lets the sender cancel a pending request, after which it cannot be accepted', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!);
    const res = await api('POST', `/api/v1/buddy_requests/${req.body.request.id}/cancel.json`, { token: a!.token });
    expect(res.status).toBe(200);
    expect(cancelBuddyRequest.response.parse(res.body).request.state).toBe('cancelled');
    const late = await accept(b!, req.body.request.id);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('request_not_pending');
    expect(await chatsOfPair(a!.id, b!.id)).toHaveLength(0);
    // A cancelled request does not block a new one.
    expect((await requestBuddy(a!, b!)).status).toBe(201);
  });

  it.each([
    ['accept twice', 'accept', 'accept'],
    ['decline after accept', 'accept', 'decline'],
    ['accept after decline', 'decline', 'accept'],
    ['decline twice', 'decline', 'decline'],
  ])('answers 409 request_not_pending to %s', async (_name, first, second) => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!);
    const path = (verb: string) => `/api/v1/buddy_requests/${req.body.request.id}/${verb}.json`;
    expect((await api('POST', path(first), { token: b!.token })).status).toBe(200);
    const res = await api('POST', path(second), { token: b!.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'request_not_pending', message: expect.stringMatching(first === 'accept' ? /accepted/ : /declined/) });
    expect(await chatsOfPair(a!.id, b!.id)).toHaveLength(first === 'accept' ? 1 : 0);
  });
});

describe('the open points', () => {
  it('refuses a request to yourself with 400 cannot_target_self', async () => {
    const [a] = await users(1);
    for (const key of [a!.slug, a!.id]) {
      const res = await api('POST', `/api/v1/users/${key}/buddy_request.json`, { token: a!.token, body: {} });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('cannot_target_self');
    }
    expect(await testDb().selectFrom('buddy_requests').select('id').where('sender_id', '=', a!.id).execute()).toHaveLength(0);
  });

  it('answers a repeated pending request with the same request (200 already_pending)', async () => {
    const [a, b] = await users(2);
    const first = await requestBuddy(a!, b!, { message: 'first' });
    const second = await requestBuddy(a!, b!, { message: 'second' });
    expect(second.status).toBe(200);
    const body = sendBuddyRequest.response.parse(second.body);
    expect(body).toMatchObject({ outcome: 'already_pending', request: { id: first.body.request.id, message: 'first', state: 'pending' } });
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(1);
  });

  it('accepts the pending request in the other direction, with the message as the first chat message', async () => {
    const [a, b] = await users(2);
    const first = await requestBuddy(a!, b!, { message: 'Tennis?' });
    const res = await requestBuddy(b!, a!, { message: 'Yes, Sunday works!', agentName: 'AgentB' });
    expect(res.status).toBe(200);
    const body = sendBuddyRequest.response.parse(res.body);
    expect(body.outcome).toBe('accepted_reverse');
    expect(body.request).toMatchObject({ id: first.body.request.id, state: 'accepted', direction: 'received', user: { id: a!.id } });
    expect(body.chat).toMatchObject({ buddy: { id: a!.id }, last_message: { text: 'Yes, Sunday works!', from_me: true } });
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(1);
    expect(await connectionsOfPair(a!.id, b!.id)).toHaveLength(1);
    expect(await storedMessages(body.chat!.chatId)).toMatchObject([{ sender_id: b!.id, text: 'Yes, Sunday works!', agent_name: 'AgentB' }]);
  });

  it('refuses a request between buddies with 409 already_buddies naming the chat', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    for (const [from, to] of [[a!, b!], [b!, a!]] as const) {
      const res = await requestBuddy(from, to);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('already_buddies');
      expect(res.body.error.hint).toContain(chatId);
    }
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown user', async () => {
    const [a] = await users(1);
    const res = await api('POST', '/api/v1/users/nobody-by-this-name/buddy_request.json', { token: a!.token, body: {} });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('validation and moderation', () => {
  it.each([
    ['a message over 280 characters', { message: 'x'.repeat(281) }, 'message'],
    ['more than 5 activityIds', { activityIds: ['hiking', 'running', 'yoga', 'tennis', 'swimming', 'cycling'] }, 'activityIds'],
    ['an activity that matches nothing', { activityIds: ['hiking', 'xyzzy'] }, 'activityIds'],
    ['an unknown field', { note: 'hi' }, 'note'],
    ['a non-string message', { message: 42 }, 'message'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const [a, b] = await users(2);
    const res = await requestBuddy(a!, b!, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(0);
  });

  it('names every activity that matches nothing, and where the list is', async () => {
    const [a, b] = await users(2);
    const res = await requestBuddy(a!, b!, { activityIds: ['hiking', 'qwzxv', 'xyzzy'] });
    expect(res.body.error.fields.activityIds).toMatch(/^unknown activities: "qwzxv".*, "xyzzy".*list_activities or \/api\/v1\/activities\.json$/);
  });

  it('refuses a firstMessage over 600 characters', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!);
    const res = await accept(b!, req.body.request.id, { firstMessage: 'y'.repeat(601) });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty('firstMessage');
    expect((await requestsOfPair(a!.id, b!.id))[0]!.state).toBe('pending');
  });

  it.each([
    ['message_blocked_threat', "I'm going to kill you"],
    ['message_blocked_solicitation', 'send me nudes'],
    ['message_blocked_profanity', 'hey n1gger'],
    ['message_blocked_shouting', 'HELLO THERE WANT TO GO HIKING WITH ME'],
    ['message_blocked_spam', 'hiiiiiiiiiiiiiiii'],
  ])('moderates the request message and firstMessage: %s', async (code, text) => {
    const [a, b] = await users(2);
    const refused = await requestBuddy(a!, b!, { message: text });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code, hint: expect.any(String), fields: { message: expect.any(String) } });
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(0);

    const req = await requestBuddy(a!, b!, { message: 'Coffee walk?' });
    const res = await accept(b!, req.body.request.id, { firstMessage: text });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code, fields: { firstMessage: expect.any(String) } });
    expect((await requestsOfPair(a!.id, b!.id))[0]!.state).toBe('pending');
    expect(await chatsOfPair(a!.id, b!.id)).toHaveLength(0);
  });
});

describe('concurrency', () => {
  it('20 parallel accepts create exactly one connection, one chat and one first message', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(a!, b!);
    const results = await Promise.all(Array.from({ length: 20 }, () => accept(b!, req.body.request.id, { firstMessage: 'Hello!' })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'request_not_pending')).toBe(true);
    expect(await connectionsOfPair(a!.id, b!.id)).toHaveLength(1);
    const chats = await chatsOfPair(a!.id, b!.id);
    expect(chats).toHaveLength(1);
    expect(await storedMessages(chats[0]!.chat_id)).toHaveLength(1);
    expect((await testDb().selectFrom('chats').select('id').where('id', '=', chats[0]!.chat_id).execute())).toHaveLength(1);
  });

  it('parallel requests both ways end as one accepted request and one chat', async () => {
    const [a, b] = await users(2);
    const results = await Promise.all([...Array.from({ length: 5 }, () => requestBuddy(a!, b!)), ...Array.from({ length: 5 }, () => requestBuddy(b!, a!))]);
    expect(results.every((r) => r.status === 200 || r.status === 201 || r.status === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.body.outcome === 'accepted_reverse')).toHaveLength(1);
    expect(await connectionsOfPair(a!.id, b!.id)).toHaveLength(1);
    expect(await chatsOfPair(a!.id, b!.id)).toHaveLength(1);
    const requests = await requestsOfPair(a!.id, b!.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.state).toBe('accepted');
  });

  it('10 parallel identical requests store one', async () => {
    const [a, b] = await users(2);
    const results = await Promise.all(Array.from({ length: 10 }, () => requestBuddy(a!, b!)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.request.id)).size).toBe(1);
    expect(await requestsOfPair(a!.id, b!.id)).toHaveLength(1);
  });
});

describe('authorization', () => {
  it('hides a request from strangers (404) and lets only the right side answer (403)', async () => {
    const [a, b, c] = await users(3, 'Authz');
    const req = await requestBuddy(a!, b!);
    const id = req.body.request.id as string;
    const cases: [string, typeof a, string, number, string][] = [
      ['stranger accepts', c, 'accept', 404, 'not_found'],
      ['stranger declines', c, 'decline', 404, 'not_found'],
      ['stranger cancels', c, 'cancel', 404, 'not_found'],
      ['sender accepts', a, 'accept', 403, 'forbidden'],
      ['sender declines', a, 'decline', 403, 'forbidden'],
      ['recipient cancels', b, 'cancel', 403, 'forbidden'],
    ];
    for (const [name, who, verb, status, code] of cases) {
      const res = await api('POST', `/api/v1/buddy_requests/${id}/${verb}.json`, { token: who!.token });
      expect([name, res.status, res.body.error?.code]).toEqual([name, status, code]);
    }
    // The stranger's lists do not show it, and nothing changed.
    const listC = await api('GET', '/api/v1/buddy_requests.json', { token: c!.token });
    expect(listC.body).toEqual({ sent: [], received: [] });
    expect((await requestsOfPair(a!.id, b!.id))[0]!.state).toBe('pending');
  });

  it.each(['not-a-uuid', '00000000-0000-4000-8000-000000000000'])('answers 404 for the unknown invitation id %s', async (id) => {
    const [b] = await users(1);
    for (const verb of ['accept', 'decline', 'cancel']) {
      const res = await api('POST', `/api/v1/buddy_requests/${id}/${verb}.json`, { token: b!.token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('needs buddy:write to write and buddy:read to list', async () => {
    const [a, b] = await users(2);
    const req = await requestBuddy(b!, a!);
    await restrictScopes(a!, ['profile:read', 'buddy:read', 'message:read', 'message:write']);
    const writes: [string, string][] = [
      ['POST', `/api/v1/users/${b!.slug}/buddy_request.json`],
      ['POST', `/api/v1/buddy_requests/${req.body.request.id}/accept.json`],
      ['POST', `/api/v1/buddy_requests/${req.body.request.id}/decline.json`],
      ['POST', `/api/v1/buddy_requests/${req.body.request.id}/cancel.json`],
    ];
    for (const [method, path] of writes) {
      const res = await api(method, path, { token: a!.token });
      expect([path, res.status, res.body.error.code]).toEqual([path, 403, 'insufficient_scope']);
    }
    expect((await api('GET', '/api/v1/buddy_requests.json', { token: a!.token })).status).toBe(200);
    await restrictScopes(a!, ['profile:read']);
    const list = await api('GET', '/api/v1/buddy_requests.json', { token: a!.token });
    expect(list.status).toBe(403);
    expect((await api('GET', '/api/v1/buddy_requests.json')).status).toBe(401);
    expect((await requestsOfPair(a!.id, b!.id))[0]!.state).toBe('pending');
  });
});
