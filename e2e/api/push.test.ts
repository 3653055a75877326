// Push notifications: device tokens against the shared stack (PUSH_PROVIDER=log),
// and the Expo path end to end against a second stack whose EXPO_BASE_URL points
// at a local stand-in for the Expo push API.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { sendBuddyRequest } from '@/lib/contract/buddies';
import { deletePushToken, registerPushToken } from '@/lib/contract/devices';
import { freePort } from '@/lib/net/free-port';
import { api, stackClient, testDb, updateTokens } from './client';
import { call, pathOf, refused, refusedRaw } from './contract-client';
import { acceptThenWrite, makeBuddies, say, settledPushJobs, users } from './social-helpers';
import { startStack, type Stack } from '../support/stack';

const tokenRows = (userId: string) =>
  testDb().selectFrom('push_tokens').selectAll().where('user_id', '=', userId).execute();

describe('/api/v1/me/push_tokens.json', () => {
  it('registers a token once, moves it to whoever registers it last, and deletes it', async () => {
    const [a, b] = await users(2);
    const token = `ExponentPushToken[${a.id.slice(0, 22)}]`;
    const first = await call(registerPushToken, { token: a.token, body: { token, platform: 'ios' } });
    expect(first).toEqual({ success: true, token, platform: 'ios', created: true });
    // A token already stored answers 200, not the contract's 201, which call() cannot express: raw, read through the schema.
    const again = await api('POST', pathOf(registerPushToken), { token: a.token, body: { token, platform: 'ios' } });
    expect(again.status).toBe(200);
    expect(registerPushToken.response.parse(again.body).created).toBe(false);
    expect(await tokenRows(a.id)).toMatchObject([{ token, platform: 'ios' }]);

    // Someone else cannot delete it…
    const foreign = await call(deletePushToken, { token: b.token, body: { token } });
    expect(foreign.removed).toBe(false);
    expect(await tokenRows(a.id)).toHaveLength(1);
    // …but signing in on the same phone moves it.
    expect((await api('POST', pathOf(registerPushToken), { token: b.token, body: { token } })).status).toBe(200);
    expect(await tokenRows(a.id)).toHaveLength(0);
    expect(await tokenRows(b.id)).toHaveLength(1);

    for (const removed of [true, false]) {
      const res = await call(deletePushToken, { token: b.token, body: { token } });
      expect(res.removed).toBe(removed);
    }
    expect(await tokenRows(b.id)).toHaveLength(0);
  });

  it.each([
    ['not an Expo token', { token: 'abc123' }],
    ['an empty token', { token: '' }],
    ['an unknown platform', { token: 'ExponentPushToken[abc]', platform: 'symbian' }],
  ])('refuses %s with 400', async (_name, body) => {
    const [a] = await users(1);
    // Raw: an unknown platform is a value the contract's types forbid.
    const res = refusedRaw(await api('POST', pathOf(registerPushToken), { token: a.token, body }), 'validation_failed');
    expect(res.fields).toBeDefined();
    expect(await tokenRows(a.id)).toHaveLength(0);
  });

  it('needs profile:write', async () => {
    const [a] = await users(1);
    await updateTokens(a.id, { scopes: ['profile:read'] });
    await refused(
      registerPushToken,
      { token: a.token, body: { token: 'ExponentPushToken[abc]' } },
      'insufficient_scope',
    );
  });

  it('the log provider completes the push job of a new message without logging its text', async () => {
    const [a, b] = await users(2);
    const chatId = await makeBuddies(a, b);
    await call(registerPushToken, { token: b.token, body: { token: `ExponentPushToken[${b.id.slice(0, 20)}]` } });
    const res = await say(a, chatId, 'a private note about Saturday');
    const jobs = await settledPushJobs(b.id, 1);
    expect(jobs.find((j) => j.data.kind === 'message')).toMatchObject({
      state: 'completed',
      data: { chatId, messageId: Number(res.id) },
    });
    expect(JSON.stringify(jobs)).not.toContain('private note');
    const log = fs.readFileSync(path.join(inject('dataDir'), 'server.log'), 'utf8');
    const pushLines = log.split('\n').filter((line) => line.includes('"event":"push"') && line.includes(b.id));
    expect(pushLines.some((line) => line.includes('"kind":"message"') && line.includes('"devices":1'))).toBe(true);
    expect(log).not.toContain('private note');
    expect(log).not.toContain(`ExponentPushToken[${b.id.slice(0, 20)}]`);
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

  const { register } = stackClient(() => stack.baseUrl, 'expo');
  const base = () => stack.baseUrl;
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
            ? {
                status: 'error',
                message: 'not registered',
                details: { error: 'DeviceNotRegistered', expoPushToken: m.to },
              }
            : { status: 'ok', id: `ticket-${received.length}-${i}` },
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
      });
    });
    await new Promise<void>((resolve) => standin.listen(port, '127.0.0.1', resolve));
    stack = await startStack({
      PUSH_PROVIDER: 'expo',
      EXPO_ACCESS_TOKEN: 'test-expo-access-token',
      EXPO_BASE_URL: `http://127.0.0.1:${port}`,
    });
    db = createDb(stack.databaseUrl, 2);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    await new Promise((resolve) => standin?.close(resolve));
  });

  it('sends requests and messages to the recipient’s devices and forgets dead ones; a failed send is retried', {
    timeout: 90_000,
  }, async () => {
    const alex = await register('Alex Expo');
    const blair = await register('Blair Expo');
    const good = 'ExponentPushToken[good-device-000000001]';
    const dead = 'ExponentPushToken[dead-device-000000001]';
    for (const token of [good, dead])
      await call(registerPushToken, { token: blair.token, body: { token, platform: 'android' }, base: base() });

    const ask = {
      params: { slug: blair.slug },
      token: alex.token,
      body: { message: 'Hike on Saturday?' },
      base: base(),
    };
    const req = await call(sendBuddyRequest, ask);
    await waitFor(1, 20_000);
    expect(received[0]?.authorization).toBe('Bearer test-expo-access-token');
    expect(received[0]?.messages.map((m) => m.to).sort()).toEqual([dead, good].sort());
    expect(received[0]?.messages[0]).toMatchObject({
      title: 'New buddy request',
      body: 'Alex Expo: Hike on Saturday?',
      data: { type: 'buddy_request', requestId: req.request.id },
    });
    // The dead device is forgotten.
    await expect
      .poll(
        async () =>
          (await db.selectFrom('push_tokens').select('token').where('user_id', '=', blair.id).execute()).map(
            (r) => r.token,
          ),
        { timeout: 10_000 },
      )
      .toEqual([good]);

    const { chatId, write } = await acceptThenWrite(blair, req.request.id, alex, base());
    const msg = await write('Great, 9am at the north trailhead.');
    await waitFor(2, 20_000);
    expect(received[1]?.messages).toEqual([
      expect.objectContaining({
        to: good,
        title: 'Alex Expo',
        body: 'Great, 9am at the north trailhead.',
        data: { type: 'message', chatId, messageId: msg.message.id },
      }),
    ]);
    // Alex has no device: the acceptance push went nowhere, and nothing else was sent.
    expect(received).toHaveLength(2);

    // The push service is down once: the message is still stored at once, and the push is retried.
    failuresToServe = 1;
    const started = Date.now();
    await write('Running 5 minutes late');
    expect(Date.now() - started).toBeLessThan(5_000);
    await waitFor(3, 60_000);
    expect(failuresToServe).toBe(0);
    expect(received[2]?.messages[0]).toMatchObject({ to: good, body: 'Running 5 minutes late' });
  });
});
