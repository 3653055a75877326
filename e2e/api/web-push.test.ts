// Web Push end to end: a second stack whose workers may push to a stand-in push service
// on loopback (WEB_PUSH_ALLOW_LOOPBACK_PORTS). The test plays the browser: it makes the
// subscription's P-256 key pair and auth secret, and decrypts what arrives (RFC 8291,
// aes128gcm, with http_ece, the library web-push itself builds on), and checks the VAPID
// JWT (RFC 8292) against the server's public key.
import crypto from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { sendBuddyRequest } from '@/lib/contract/buddies';
import { muteChat, subscribeWebPush, unsubscribeWebPush } from '@/lib/contract/web-app';
import { freePort } from '@/lib/net/free-port';
import { MAX_BROWSERS_PER_USER } from '@/lib/notifications/web-push-subscriptions';
import { stackClient } from './client';
import { call, refused } from './contract-client';
import { acceptThenWrite } from './social-helpers';
import { startStack, type Stack } from '../support/stack';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: crypto.ECDH; authSecret: Buffer }): Buffer;
};

interface Delivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** A browser's side of a subscription: its key pair, auth secret and endpoint path on the stand-in. */
function browser(port: number, name: string) {
  const keys = crypto.createECDH('prime256v1');
  keys.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    name,
    keys,
    auth,
    subscription: {
      endpoint: `http://127.0.0.1:${port}/push/${name}`,
      keys: { p256dh: b64url(keys.getPublicKey()), auth: b64url(auth) },
      expirationTime: null,
    },
    decrypt: (body: Buffer) =>
      JSON.parse(
        ece.decrypt(body, { version: 'aes128gcm', privateKey: keys, authSecret: auth }).toString('utf8'),
      ) as Record<string, string>,
  };
}

/** Checks the VAPID Authorization header: an ES256 JWT for the endpoint's origin, signed by the key it names. */
function verifyVapid(header: string | undefined, origin: string, serverPublicKey: string): void {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header ?? '');
  expect(match, header).not.toBeNull();
  const [, jwt, key] = match!;
  expect(key).toBe(serverPublicKey);
  const [head, payload, signature] = jwt!.split('.') as [string, string, string];
  expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  expect(claims.aud).toBe(origin);
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  expect(claims.sub).toMatch(/^(mailto:|https:)/);
  const raw = Buffer.from(key!, 'base64url');
  const publicKey = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  expect(
    crypto.verify(
      'sha256',
      Buffer.from(`${head}.${payload}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    ),
  ).toBe(true);
}

describe('Web Push to a stand-in push service', () => {
  let stack: Stack;
  let db: Database;
  let standin: http.Server;
  let port: number;
  const deliveries: Delivery[] = [];

  const { register } = stackClient(() => stack.baseUrl, 'webpush');
  const base = () => stack.baseUrl;
  const delivered = async (count: number) => {
    await expect.poll(() => deliveries.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(count);
    return deliveries;
  };

  beforeAll(async () => {
    port = await freePort();
    standin = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        // A browser that unsubscribed: the push service says the subscription is gone.
        res.writeHead(req.url?.endsWith('/gone') ? 410 : 201).end();
      });
    });
    await new Promise<void>((resolve) => standin.listen(port, '127.0.0.1', resolve));
    stack = await startStack({ WEB_PUSH_ALLOW_LOOPBACK_PORTS: String(port) });
    db = createDb(stack.databaseUrl, 2);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    standin?.closeAllConnections();
    await new Promise((resolve) => standin?.close(resolve));
  });

  it('encrypts each notification for the browser, signs it with the VAPID key, forgets gone browsers and respects a muted chat', {
    timeout: 90_000,
  }, async () => {
    const alex = await register('Alex Web');
    const blair = await register('Blair Web');
    const laptop = browser(port, 'laptop');
    const gone = browser(port, 'gone');
    for (const b of [laptop, gone]) {
      await call(subscribeWebPush, { token: blair.token, body: b.subscription, base: base() });
    }
    const stored = await db
      .selectFrom('web_push_subscriptions')
      .select(['endpoint', 'p256dh'])
      .where('user_id', '=', blair.id)
      .execute();
    expect(stored.map((s) => s.endpoint).sort()).toEqual(
      [gone.subscription.endpoint, laptop.subscription.endpoint].sort(),
    );

    // A buddy request reaches both browsers, encrypted for each.
    const ask = {
      params: { slug: blair.slug },
      token: alex.token,
      body: { message: 'Hike on Saturday?' },
      base: base(),
    };
    const req = await call(sendBuddyRequest, ask);
    await delivered(2);
    const vapid = await db
      .selectFrom('app_secrets')
      .select('value')
      .where('name', '=', 'vapid_keys')
      .executeTakeFirstOrThrow();
    const serverPublicKey = (JSON.parse(vapid.value) as { publicKey: string }).publicKey;
    for (const b of [laptop, gone]) {
      const d = deliveries.find((x) => x.path === `/push/${b.name}`);
      if (!d) throw new Error(`nothing delivered to ${b.name}`);
      expect(d.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(d.headers.ttl)).toBeGreaterThan(0);
      verifyVapid(d.headers.authorization, `http://127.0.0.1:${port}`, serverPublicKey);
      expect(b.decrypt(d.body)).toEqual({
        title: 'New buddy request',
        body: 'Alex Web: Hike on Saturday?',
        url: '/account/requests',
        tag: 'buddy_request',
      });
      expect(d.body.includes(Buffer.from('Hike'))).toBe(false);
    }
    // The push service said 410 for one: it is forgotten.
    await expect
      .poll(
        async () =>
          (
            await db.selectFrom('web_push_subscriptions').select('endpoint').where('user_id', '=', blair.id).execute()
          ).map((r) => r.endpoint),
        { timeout: 10_000 },
      )
      .toEqual([laptop.subscription.endpoint]);

    // A message opens its chat.
    const { chatId, write } = await acceptThenWrite(blair, req.request.id, alex, base());
    const before = deliveries.length;
    await write('Great, 9am at the north trailhead.');
    await delivered(before + 1);
    expect(laptop.decrypt(deliveries[before]?.body ?? Buffer.alloc(0))).toEqual({
      title: 'Alex Web',
      body: 'Great, 9am at the north trailhead.',
      url: `/account/chats/${chatId}`,
      tag: chatId,
    });

    // Muted: the message is stored and counted unread, but nothing is pushed.
    const mute = await call(muteChat, { params: { chatId }, token: blair.token, body: { muted: true }, base: base() });
    expect(mute).toEqual({ success: true, chatId, muted: true });
    await write('Bring water');
    // Every push job for Blair has run (completed), the muted one included.
    const settled = async () => {
      const { rows } = await sql<{
        state: string;
      }>`select state::text as state from pgboss.job where name = 'push-notify' and data->>'recipientId' = ${blair.id}`.execute(
        db,
      );
      return rows.length === 3 && rows.every((r) => r.state === 'completed');
    };
    await expect.poll(settled, { timeout: 20_000 }).toBe(true);
    expect(deliveries).toHaveLength(before + 1);
    const member = await db
      .selectFrom('chat_members')
      .select(['muted', 'unread_count'])
      .where('chat_id', '=', chatId)
      .where('user_id', '=', blair.id)
      .executeTakeFirstOrThrow();
    expect(member).toEqual({ muted: true, unread_count: 2 });

    // Unsubscribed: nothing more, and the endpoint is gone from the database.
    const unsubscribed = await call(unsubscribeWebPush, {
      token: blair.token,
      body: { endpoint: laptop.subscription.endpoint },
      base: base(),
    });
    expect(unsubscribed).toEqual({ success: true, removed: true });
    expect(
      await db.selectFrom('web_push_subscriptions').select('id').where('user_id', '=', blair.id).execute(),
    ).toEqual([]);
  });

  it(`keeps the ${MAX_BROWSERS_PER_USER} browsers subscribed last: one more replaces the oldest`, async () => {
    const me = await register('Many Browsers');
    const browsers = Array.from({ length: MAX_BROWSERS_PER_USER + 1 }, (_, i) => browser(port, `many-${i}`));
    const counts: number[] = [];
    for (const b of browsers) {
      counts.push((await call(subscribeWebPush, { token: me.token, body: b.subscription, base: base() })).browsers);
      // last_seen_at orders them: keep each subscription's moment apart.
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(counts).toEqual([1, 2, 3, 4, 5, 5]);
    const kept = await db
      .selectFrom('web_push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', me.id)
      .execute();
    expect(kept.map((k) => k.endpoint).sort()).toEqual(
      browsers
        .slice(1)
        .map((b) => b.subscription.endpoint)
        .sort(),
    );
  });

  it('refuses a public host that is not a browser push service, saying which hosts are', async () => {
    const me = await register('Own Push Host');
    const keys = { p256dh: b64url(crypto.randomBytes(65)), auth: b64url(crypto.randomBytes(16)) };
    const res = await refused(
      subscribeWebPush,
      { token: me.token, body: { endpoint: 'https://push.example.com/x', keys }, base: base() },
      'validation_failed',
    );
    expect(res.fields?.endpoint).toMatch(/push\.example\.com is not a browser push service.*fcm\.googleapis\.com/);
  });

  it.each([
    ['a private address', 'https://10.0.0.1/push/x'],
    ['plain http', 'http://push.example.com/x'],
    ['another loopback port', 'http://127.0.0.1:9/push/x'],
    ['not a URL', 'push service'],
  ])('refuses an endpoint on %s, so the server cannot be made to call it', async (_name, endpoint) => {
    const me = await register('Refused Web');
    const keys = { p256dh: b64url(crypto.randomBytes(65)), auth: b64url(crypto.randomBytes(16)) };
    const res = await refused(
      subscribeWebPush,
      { token: me.token, body: { endpoint, keys }, base: base() },
      'validation_failed',
    );
    expect(res.fields?.endpoint).toBeDefined();
    expect(await db.selectFrom('web_push_subscriptions').select('id').where('user_id', '=', me.id).execute()).toEqual(
      [],
    );
  });

  it('drops a push whose recipient has blocked its sender since it was queued', { timeout: 60_000 }, async () => {
    const alex = await register('Alex Blocked');
    const blair = await register('Blair Blocking');
    const phone = browser(port, 'blocking');
    await call(subscribeWebPush, { token: blair.token, body: phone.subscription, base: base() });
    const toPhone = () => deliveries.filter((d) => d.path === '/push/blocking');
    const ask = { params: { slug: blair.slug }, token: alex.token, body: { message: 'Coffee?' }, base: base() };
    const { request } = await call(sendBuddyRequest, ask);
    await expect.poll(() => toPhone().length, { timeout: 20_000 }).toBe(1);

    // Blair blocks Alex (the row alone: the request stays), then the same push is queued again, as a retry would be.
    await db.insertInto('blocks').values({ blocker_id: blair.id, blocked_id: alex.id }).execute();
    const boss = new PgBoss({
      connectionString: stack.databaseUrl,
      schema: 'pgboss',
      supervise: false,
      schedule: false,
    });
    await boss.start();
    try {
      const jobId = await boss.send('push-notify', {
        kind: 'buddy_request',
        recipientId: blair.id,
        requestId: request.id,
      });
      const state = async () =>
        (
          await sql<{ state: string }>`select state::text as state from pgboss.job where id = ${jobId}::uuid`.execute(
            db,
          )
        ).rows[0]?.state;
      await expect.poll(state, { timeout: 20_000 }).toBe('completed');
    } finally {
      await boss.stop({ graceful: false });
    }
    expect(toPhone()).toHaveLength(1);
  });

  it('mutes only chats the caller is in', async () => {
    const me = await register('Stranger Web');
    await refused(
      muteChat,
      { params: { chatId: crypto.randomUUID() }, token: me.token, body: { muted: true }, base: base() },
      'not_found',
    );
  });
});
