// Push notifications: device tokens against the shared stack (PUSH_PROVIDER=log),
// and the Expo path end to end against a second stack whose EXPO_BASE_URL points
// at a local stand-in for the Expo push API.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { registerPushToken } from '@/lib/contract/social';
import { freePort } from '@/lib/net/free-port';
import { api, stackClient, testDb, updateTokens } from './client';
import { makeBuddies, send, settledPushJobs, users } from './social-helpers';
import { startStack, type Stack } from '../support/stack';

const tokenRows = (userId: string) => testDb().selectFrom('push_tokens').selectAll().where('user_id', '=', userId).execute();

describe('/api/v1/me/push_tokens.json', () => {
  it('registers a token once, moves it to whoever registers it last, and deletes it', async () => {
    const [a, b] = await users(2);
    const token = `ExponentPushToken[${a!.id.slice(0, 22)}]`;
    const first = await api('POST', '/api/v1/me/push_tokens.json', { token: a!.token, body: { token, platform: 'ios' } });
    expect(first.status).toBe(201);
    expect(registerPushToken.response.parse(first.body)).toEqual({ success: true, token, platform: 'ios', created: true });
    const again = await api('POST', '/api/v1/me/push_tokens.json', { token: a!.token, body: { token, platform: 'ios' } });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(await tokenRows(a!.id)).toMatchObject([{ token, platform: 'ios' }]);

    // Someone else cannot delete it…
    const foreign = await api('DELETE', '/api/v1/me/push_tokens.json', { token: b!.token, body: { token } });
    expect(foreign.status).toBe(200);
    expect(foreign.body.removed).toBe(false);
    expect(await tokenRows(a!.id)).toHaveLength(1);
    // …but signing in on the same phone moves it.
    expect((await api('POST', '/api/v1/me/push_tokens.json', { token: b!.token, body: { token } })).status).toBe(200);
    expect(await tokenRows(a!.id)).toHaveLength(0);
    expect(await tokenRows(b!.id)).toHaveLength(1);

    for (const removed of [true, false]) {
      const res = await api('DELETE', '/api/v1/me/push_tokens.json', { token: b!.token, body: { token } });
      expect(res.status).toBe(200);
      expect(res.body.removed).toBe(removed);
    }
    expect(await tokenRows(b!.id)).toHaveLength(0);
  });

  it.each([
    ['not an Expo token', { token: 'abc123' }],
    ['an empty token', { token: '' }],
    ['an unknown platform', { token: 'ExponentPushToken[abc]', platform: 'symbian' }],
  ])('refuses %s with 400', async (_name, body) => {
    const [a] = await users(1);
    const res = await api('POST', '/api/v1/me/push_tokens.json', { token: a!.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toBeDefined();
    expect(await tokenRows(a!.id)).toHaveLength(0);
  });

  it('needs profile:write', async () => {
    const [a] = await users(1);
    await updateTokens(a!.id, { scopes: ['profile:read'] });
    const res = await api('POST', '/api/v1/me/push_tokens.json', { token: a!.token, body: { token: 'ExponentPushToken[abc]' } });
    expect(res.status).toBe(403);
  });

  it('the log provider completes the push job of a new message without logging its text', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a!, b!);
    await api('POST', '/api/v1/me/push_tokens.json', { token: b!.token, body: { token: `ExponentPushToken[${b!.id.slice(0, 20)}]` } });
    const res = await send(a!, chatId, 'a private note about Saturday');
    expect(res.status).toBe(201);
    const jobs = await settledPushJobs(b!.id, 1);
    expect(jobs.find((j) => j.data.kind === 'message')).toMatchObject({ state: 'completed', data: { chatId, messageId: Number(res.body.message.id) } });
    expect(JSON.stringify(jobs)).not.toContain('private note');
    const log = fs.readFileSync(path.join(inject('dataDir'), 'server.log'), 'utf8');
    const pushLines = log.split('\n').filter((line) => line.includes('"event":"push"') && line.includes(b!.id));
    expect(pushLines.some((line) => line.includes('"kind":"message"') && line.includes('"devices":1'))).toBe(true);
    expect(log).not.toContain('private note');
    expect(log).not.toContain(`ExponentPushToken[${b!.id.slice(0, 20)}]`);
  });
});

interface Received {
  authorization: string | undefined;
  messages: { to: string; title: string; body: string; data: Record<string, string> }[];
}

describe('PUSH_PROVIDER=expo against a stand-in Expo push API', () => {
  let stack: Stack;
  let db: Database;
  let standin: http.Server;
  const received: Received[] = [];
  let failuresToServe = 0;

  const { call, register } = stackClient(() => stack.baseUrl, 'expo');
  const waitFor = async (count: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return received;
  };

  beforeAll(async () => {
    const port = await freePort();
    standin = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url !== '/--/api/v2/push/send') {
          res.writeHead(404).end();
          return;
        }
        if (failuresToServe > 0) {
          failuresToServe -= 1;
          res.writeHead(503, { 'content-type': 'text/plain' }).end('temporarily unavailable');
          return;
        }
        const raw = Buffer.concat(chunks);
        const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        const messages = JSON.parse(text) as Received['messages'];
        received.push({ authorization: req.headers.authorization, messages });
        const data = messages.map((m, i) =>
          m.to.includes('dead')
            ? { status: 'error', message: 'not registered', details: { error: 'DeviceNotRegistered', expoPushToken: m.to } }
            : { status: 'ok', id: `ticket-${received.length}-${i}` },
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((resolve) => standin.listen(port, '127.0.0.1', resolve));
    stack = await startStack({ PUSH_PROVIDER: 'expo', EXPO_ACCESS_TOKEN: 'test-expo-access-token', EXPO_BASE_URL: `http://127.0.0.1:${port}` });
    db = createDb(stack.databaseUrl, 2);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    await new Promise((resolve) => standin?.close(resolve));
  });

  it('sends requests and messages to the recipient’s devices and forgets dead ones; a failed send is retried', { timeout: 90_000 }, async () => {
    const alex = await register('Alex Expo');
    const blair = await register('Blair Expo');
    const good = 'ExponentPushToken[good-device-000000001]';
    const dead = 'ExponentPushToken[dead-device-000000001]';
    for (const token of [good, dead]) expect((await call('POST', '/api/v1/me/push_tokens.json', blair.token, { token, platform: 'android' })).status).toBe(201);

    const req = await call('POST', `/api/v1/users/${blair.slug}/buddy_request.json`, alex.token, { message: 'Hike on Saturday?' });
    expect(req.status).toBe(201);
    await waitFor(1, 20_000);
    expect(received[0]!.authorization).toBe('Bearer test-expo-access-token');
    expect(received[0]!.messages.map((m) => m.to).sort()).toEqual([dead, good].sort());
    expect(received[0]!.messages[0]).toMatchObject({
      title: 'New buddy request',
      body: 'Alex Expo: Hike on Saturday?',
      data: { type: 'buddy_request', requestId: req.body.request.id },
    });
    // The dead device is forgotten.
    await expect.poll(async () => (await db.selectFrom('push_tokens').select('token').where('user_id', '=', blair.id).execute()).map((r) => r.token), { timeout: 10_000 }).toEqual([good]);

    const accepted = await call('POST', `/api/v1/buddy_requests/${req.body.request.id}/accept.json`, blair.token, {});
    const chatId = accepted.body.chat.chatId as string;
    const msg = await call('POST', `/api/v1/chats/${chatId}/messages.json`, alex.token, { text: 'Great, 9am at the north trailhead.' });
    expect(msg.status).toBe(201);
    await waitFor(2, 20_000);
    expect(received[1]!.messages).toEqual([
      expect.objectContaining({
        to: good,
        title: 'Alex Expo',
        body: 'Great, 9am at the north trailhead.',
        data: { type: 'message', chatId, messageId: msg.body.message.id },
      }),
    ]);
    // Alex has no device: the acceptance push went nowhere, and nothing else was sent.
    expect(received).toHaveLength(2);

    // The push service is down once: the message is still stored at once, and the push is retried.
    failuresToServe = 1;
    const started = Date.now();
    const late = await call('POST', `/api/v1/chats/${chatId}/messages.json`, alex.token, { text: 'Running 5 minutes late' });
    expect(late.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(3, 60_000);
    expect(failuresToServe).toBe(0);
    expect(received[2]!.messages[0]).toMatchObject({ to: good, body: 'Running 5 minutes late' });
  });
});
