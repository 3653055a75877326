// Issue 14 §1 and §6 against the real server: every /api answer is JSON (405 with Allow,
// trailing slashes, did-you-mean 404s), Idempotency-Key on POSTs, RateLimit headers.
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/config';
import { fingerprint, idempotencyKey } from '@/lib/http/idempotency';
import { register as registerSpec } from '@/lib/contract/accounts';
import { discover } from '@/lib/contract/discover';
import { listEvents } from '@/lib/contract/events';
import { listActivities } from '@/lib/contract/meta';
import { uploadPhoto } from '@/lib/contract/photos';
import { getMe, updateMe } from '@/lib/contract/profiles';
import { markChatRead, sendMessage } from '@/lib/contract/chats';
import { api, baseUrl, freshIp, registerUser, testDb, uniqueEmail } from './client';
import { call, refused, send as sendTyped, type CallResult } from './contract-client';
import { makeBuddies, storedMessages, users } from './social-helpers';

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const keyRows = (key: string) =>
  testDb().selectFrom('idempotency_keys').selectAll().where('key_hash', '=', hashOf(key)).execute();
const keyed = (key?: string): Record<string, string> => (key ? { 'idempotency-key': key } : {});
/**
 * POST a message as `token`, with an Idempotency-Key when one is given. Raw on purpose: the
 * replays are compared byte for byte, which a parsed answer (unknown fields dropped) cannot show.
 */
const postMessage = (token: string, chatId: string, text: string, key?: string) =>
  api('POST', `/api/v1/chats/${chatId}/messages.json`, { token, body: { text }, headers: keyed(key) });
const register = (ip: string, body: Record<string, unknown>, key?: string) =>
  api('POST', '/api/v1/register.json', { ip, body, headers: keyed(key) });
const newPerson = (tag: string, displayName = 'Person') => ({ email: uniqueEmail(tag), displayName });

const expectEnvelope = (res: { status: number; body: any; headers: Headers }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body.error).toMatchObject({ code, message: expect.any(String), hint: expect.any(String) });
};
/** The same checks on a typed refusal (refused() has checked the code and its status). */
const expectJsonError = (error: { message: string; hint?: string; headers: Headers }) => {
  expect(error.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(error).toMatchObject({ message: expect.any(String), hint: expect.any(String) });
};
const registerTyped = (ip: string) => sendTyped(registerSpec, { ip, body: newPerson('rl') });

describe('§1 a method the path does not take: 405 with Allow and the envelope', () => {
  it.each([
    ['PUT', '/api/v1/me.json', 'DELETE, GET, HEAD, OPTIONS, PATCH', ['GET', 'PATCH', 'DELETE']],
    ['GET', '/api/v1/me/photo.json', 'OPTIONS, POST', ['POST']],
    ['DELETE', '/api/v1/register.json', 'GET, HEAD, OPTIONS, POST', ['GET', 'POST']],
    ['PATCH', '/api/v1/users/someone/profile.json', 'GET, HEAD, OPTIONS', ['GET']],
    ['GET', '/api/v1/chats/00000000-0000-4000-8000-000000000000/read.json', 'OPTIONS, POST', ['POST']],
    ['POST', '/api/v1/inbox.json', 'GET, HEAD, OPTIONS', ['GET']],
  ])('%s %s', async (method, path, allow, methods) => {
    const res = await api(method, path, { body: method === 'GET' ? undefined : {} });
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe(allow);
    // The same security headers as every other /api answer (next.config.ts).
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.body.error.fields).toEqual({ method: `one of ${methods.join(', ')}` });
    const template = path.replace('/users/someone/', '/users/{slug}/').replace(/00000000-[^/]+/, '{chatId}');
    for (const m of methods) expect(res.body.error.hint).toContain(`${m} ${template}`);
  });

  it('changes nothing: a PUT with a profile body leaves the profile as it was', async () => {
    const user = await registerUser({ displayName: 'Before Put' });
    const res = await api('PUT', '/api/v1/me.json', { token: user.token, body: { displayName: 'After Put' } });
    expect(res.status).toBe(405);
    const row = await testDb().selectFrom('users').select('display_name').where('id', '=', user.id).executeTakeFirst();
    expect(row?.display_name).toBe('Before Put');
  });

  it('HEAD on a POST-only path is a bodiless 405; OPTIONS is 204 with the same Allow', async () => {
    const head = await fetch(`${baseUrl()}/api/v1/me/photo.json`, {
      method: 'HEAD',
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('OPTIONS, POST');
    const options = await api('OPTIONS', '/api/v1/me.json');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS, PATCH');
  });
});

describe('§1 a trailing slash is served like the path without it', () => {
  it('GET answers the same JSON', async () => {
    const plain = await api('GET', '/api/v1/activities.json');
    const slashed = await api('GET', '/api/v1/activities.json/');
    expect(slashed.status).toBe(200);
    expect(slashed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(slashed.body).toEqual(plain.body);
  });

  it('POST works and stores (its body reaches the route)', async () => {
    const email = uniqueEmail('slash');
    const res = await api('POST', '/api/v1/register.json/', { body: { email, displayName: 'Slash Person' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = await testDb().selectFrom('users').select('id').where('email', '=', email).execute();
    expect(rows.map((r) => r.id)).toEqual([res.body.user.id]);
  });

  it('repeated slashes are served as one: the same JSON, never a plain-text 308', async () => {
    const plain = await api('GET', '/api/v1/activities.json');
    const doubled = await api('GET', '//api//v1///activities.json');
    expect(doubled.status).toBe(200);
    expect(doubled.body).toEqual(plain.body);
    expectEnvelope(await api('GET', '/api/v1/users//profile.json'), 404, 'not_found');
  });

  it('a wrong method is refused with the JSON 405 unread, whatever the size of its body', async () => {
    const res = await api('PUT', '/api/v1/me.json', {
      rawBody: 'x'.repeat(2_000_000),
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 405, 'method_not_allowed');
  });

  it('an unknown path with a slash gets the JSON 404, and a wrong method the JSON 405', async () => {
    expectEnvelope(await api('GET', '/api/v1/inbox/'), 404, 'not_found');
    expectEnvelope(await api('PUT', '/api/v1/me.json/', { body: {} }), 405, 'method_not_allowed');
  });

  it.each([
    ['/signin/', '/signin'],
    ['/signin//', '/signin'],
  ])('a page %s still redirects (308) to %s', async (path, target) => {
    // Hop by hop (Next.js first folds a doubled slash itself), each one on this site.
    let landing = new URL(path, baseUrl());
    for (let hop = 0; hop < 3 && landing.pathname !== target; hop++) {
      const res = await fetch(landing, { redirect: 'manual', headers: { 'x-forwarded-for': freshIp() } });
      expect(res.status).toBe(308);
      landing = new URL(res.headers.get('location')!, landing);
      expect(landing.origin).toBe(new URL(baseUrl()).origin);
    }
    expect(landing.pathname).toBe(target);
  });

  // Attack: a trailing-slash redirect that strips //evil.example/ to //evil.example would
  // send the browser to another site (a protocol-relative Location).
  it.each(['//evil.example/', '/%2F%2Fevil.example/', '/\\evil.example/', '/%5C%5Cevil.example/'])(
    'a page path %s never redirects off this site',
    async (path) => {
      const res = await fetch(`${baseUrl()}${path}`, { redirect: 'manual', headers: { 'x-forwarded-for': freshIp() } });
      const location = res.headers.get('location');
      if (location) expect(new URL(location, `${baseUrl()}/x`).origin).toBe(new URL(baseUrl()).origin);
    },
  );
});

describe('§1 an unknown /api path names the closest endpoints', () => {
  it.each([
    ['GET', '/api/v1/inbox', 'GET /api/v1/inbox.json'],
    ['GET', '/api/v1/me', 'GET /api/v1/me.json'],
    ['POST', '/api/v1/me/photos.json', 'POST /api/v1/me/photo.json'],
    ['GET', '/api/v1/users/maya-k/profile', 'GET /api/v1/users/{slug}/profile.json'],
    ['POST', '/api/v1/chats/abc/message.json', 'POST /api/v1/chats/{chatId}/messages.json'],
    ['GET', '/api/v1/activity.json', 'GET /api/v1/activities.json'],
    ['GET', '/api/inbox.json', 'GET /api/v1/inbox.json'],
  ])('%s %s → did you mean %s', async (method, path, suggestion) => {
    const res = await api(method, path, { body: method === 'POST' ? {} : undefined });
    expectEnvelope(res, 404, 'not_found');
    expect(res.body.error.message).toContain(`Did you mean \`${suggestion}\``);
    expect(res.body.error.hint).toContain('/api/v1/index.json');
  });

  it('suggests nothing for a path like no endpoint', async () => {
    const res = await api('GET', '/api/v1/zzzzzzzzzzzzzzzzzzzzzzzzzzz');
    expectEnvelope(res, 404, 'not_found');
    expect(res.body.error.message).not.toContain('Did you mean');
  });
});

describe('§5 the OpenAPI document', () => {
  // Issue 29's budget, as lib/docs/openapi.test.ts holds it.
  it('is served under 120 KB (it was ~450 KB; 100 KB before meetups), every shared component resolving', async () => {
    const res = await fetch(`${baseUrl()}/.well-known/openapi.json`);
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBeLessThan(120_000);
    const doc = JSON.parse(text) as { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
    for (const ref of new Set(text.match(/"#\/components\/[^"]+"/g))) {
      const [, , section, name] = JSON.parse(ref).split('/');
      expect(JSON.parse(text).components[section]?.[name], ref).toBeDefined();
    }
    const send = doc.paths['/api/v1/chats/{chatId}/messages.json']!.post!;
    expect(send.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
  });
});

describe('§6 Idempotency-Key', () => {
  it('20 identical message sends with one key at once: one message, one record, 20 identical answers', async () => {
    const [a, b] = await users(2, 'Idem');
    const chatId = await makeBuddies(a, b);
    const key = randomUUID();
    const twenty = Array.from({ length: 20 }, () => postMessage(a.token, chatId, 'Once only', key));
    const answers = await Promise.all(twenty);
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect((await storedMessages(chatId)).filter((m) => m.text === 'Once only')).toHaveLength(1);
    const rows = await keyRows(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe(201);

    // The same key later, with another body: 422, and still one message.
    expectEnvelope(await postMessage(a.token, chatId, 'Something else', key), 422, 'idempotency_key_reused');
    // ...or on another path.
    expectJsonError(
      await refused(
        markChatRead,
        { params: { chatId }, token: a.token, headers: keyed(key) },
        'idempotency_key_reused',
      ),
    );
    expect(await storedMessages(chatId)).toHaveLength(1);

    // Keys are per token: the other person's request with the same key is their own.
    const theirs = await postMessage(b.token, chatId, 'Once only', key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.message.id).not.toBe(answers[0]!.body.message.id);
    expect(await storedMessages(chatId)).toHaveLength(2);
  });

  it('20 identical registrations with one key at once: one account, one record, one token for all', async () => {
    const ip = freshIp();
    const key = randomUUID();
    const email = uniqueEmail('idem');
    const twenty = Array.from({ length: 20 }, () => register(ip, { email, displayName: 'Idem' }, key));
    const answers = await Promise.all(twenty);
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((r) => r.body.auth.token)).size).toBe(1);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await testDb().selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    const rows = await keyRows(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.scope).toBe(`ip:${ip}`);
    // Attack: read the table. The answer holds the bearer token and the generated password; neither is readable.
    const stored = rows[0]!.response!.toString('latin1');
    expect(stored).not.toContain(answers[0]!.body.auth.token);
    expect(stored).not.toContain(answers[0]!.body.auth.generated_password);
    expect(stored).not.toContain(email);
    expect(JSON.stringify(rows[0])).not.toContain(key);
    // The replayed token works.
    await call(getMe, { token: answers[19]?.body.auth.token });
  });

  it('a retry is answered even when the address has used up its registrations since', async () => {
    const ip = freshIp();
    const key = randomUUID();
    const body = newPerson('limit', 'First');
    const first = await register(ip, body, key);
    expect(first.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      expect((await register(ip, newPerson('limit'))).status).toBe(201);
    }
    expectEnvelope(await register(ip, newPerson('limit')), 429, 'rate_limited');
    const retry = await register(ip, body, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a refusal is not stored: the same key runs again, and may then succeed with a corrected body', async () => {
    const [a, b] = await users(2, 'Refused');
    const chatId = await makeBuddies(a, b);
    const key = randomUUID();
    const send = (text: string) => postMessage(a.token, chatId, text, key);
    expectEnvelope(await send('WHY ARE YOU NOT ANSWERING MY MESSAGES'), 422, 'message_blocked_shouting');
    expect(await keyRows(key)).toHaveLength(0);
    expectEnvelope(await send(''), 400, 'validation_failed');
    const fixed = await send('Are you around this weekend?');
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect(await storedMessages(chatId)).toHaveLength(1);
  });

  it("a dead holder's claim is taken over after its lease; another request under a live one is refused", async () => {
    const [a, b] = await users(2, 'Lease');
    const chatId = await makeBuddies(a, b);
    const tokens = testDb().selectFrom('access_tokens').select('id');
    const token = await tokens.where('user_id', '=', a.id).executeTakeFirst();
    const key = randomUUID();
    const claimKey = idempotencyKey(key, `token:${token!.id}`);
    const path = `/api/v1/chats/${chatId}/messages.json`;
    const body = { text: 'After the crash' };
    // As a request that claimed the key and then died would have left it.
    await testDb()
      .insertInto('idempotency_keys')
      .values({
        scope: claimKey.scope,
        key_hash: claimKey.keyHash,
        fingerprint: fingerprint(claimKey, 'POST', path, JSON.stringify(body)),
        locked_until: new Date(Date.now() + 60_000),
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .execute();
    const send = (text: string) => postMessage(a.token, chatId, text, key);
    expectEnvelope(await send('Something else'), 422, 'idempotency_key_reused');
    await testDb()
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('key_hash', '=', claimKey.keyHash)
      .execute();
    const res = await send(body.text);
    expect(res.status).toBe(201);
    expect((await storedMessages(chatId)).map((m) => m.text)).toEqual([body.text]);
    expect((await keyRows(key)).map((r) => r.status)).toEqual([201]);
  });

  it('24 hours later the key is new again', async () => {
    const [a, b] = await users(2, 'Expiry');
    const chatId = await makeBuddies(a, b);
    const key = randomUUID();
    const send = (text: string) => postMessage(a.token, chatId, text, key);
    expect((await send('Day one')).status).toBe(201);
    await testDb()
      .updateTable('idempotency_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('key_hash', '=', hashOf(key))
      .execute();
    const later = await send('Day two');
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect((await storedMessages(chatId)).map((m) => m.text)).toEqual(['Day one', 'Day two']);
    expect(await keyRows(key)).toHaveLength(1);
  });

  it('POSTs without a key behave as before, and a malformed key is a 400 naming the header', async () => {
    const [a, b] = await users(2, 'NoKey');
    const chatId = await makeBuddies(a, b);
    const send = (headers: Record<string, string> = {}) =>
      api('POST', `/api/v1/chats/${chatId}/messages.json`, { token: a.token, body: { text: 'Twice' }, headers });
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    expect(await storedMessages(chatId)).toHaveLength(2);
    const bad = await send({ 'idempotency-key': 'x'.repeat(256) });
    expectEnvelope(bad, 400, 'validation_failed');
    expect(bad.body.error.fields).toHaveProperty(['Idempotency-Key']);
    expect(await storedMessages(chatId)).toHaveLength(2);
  });
});

describe('new Idempotency-Keys per account (issue 28: 3,000 keys from one token stored 1,501 rows)', () => {
  // The test stack runs with the default limit.
  const cap = loadConfig({} as NodeJS.ProcessEnv).rateLimits.idempotency_keys.points;

  it(`past ${cap} new keys an hour: 429 with Retry-After and nothing stored; retries and keyless POSTs go on`, {
    timeout: 120_000,
  }, async () => {
    const [a, b] = await users(2, 'ManyKeys');
    const chatId = await makeBuddies(a, b);
    const read = (key?: string, token = a.token) =>
      api('POST', `/api/v1/chats/${chatId}/read.json`, { token, body: {}, headers: keyed(key) });
    const keys = Array.from({ length: cap }, () => randomUUID());
    for (let i = 0; i < keys.length; i += 10) {
      const answers = await Promise.all(keys.slice(i, i + 10).map((key) => read(key)));
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    }
    const oneMore = randomUUID();
    const refusedKey = await read(oneMore);
    expectEnvelope(refusedKey, 429, 'rate_limited');
    expect(refusedKey.body.error.message).toMatch(/new Idempotency-Keys/);
    expect(Number(refusedKey.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await keyRows(oneMore)).toEqual([]);
    // A retry of a key already used is answered from its row, not counted.
    const retry = await read(keys[0]);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    // Without the header the request runs, as the refusal's hint says.
    expect((await read()).status).toBe(200);
    // The count is the account's: the buddy's keys go on.
    expect((await read(randomUUID(), b.token)).status).toBe(200);
  });
});

describe('§6 RateLimit-Policy and RateLimit on every limited endpoint', () => {
  const reset = (field: string | null) => Number(/;t=(\d+)/.exec(field ?? '')?.[1]);

  it('registrations (per address): on each success, and r=0 with Retry-After on the 429', async () => {
    const ip = freshIp();
    for (const remaining of [2, 1, 0]) {
      const res = await registerTyped(ip);
      expect(res.ok).toBe(true);
      expect(res.headers.get('ratelimit-policy')).toBe('"registrations";q=3;w=3600');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"registrations";r=${remaining};t=\\d+$`));
      expect(reset(res.headers.get('ratelimit'))).toBeGreaterThan(3500);
    }
    const refusal = await refused(registerSpec, { ip, body: newPerson('rl') }, 'rate_limited');
    expectJsonError(refusal);
    const refusedHeaders = refusal.headers;
    expect(refusedHeaders.get('ratelimit-policy')).toBe('"registrations";q=3;w=3600');
    expect(refusedHeaders.get('ratelimit')).toMatch(/^"registrations";r=0;t=\d+$/);
    expect(reset(refusedHeaders.get('ratelimit'))).toBe(Number(refusedHeaders.get('retry-after')));
  });

  it('messages (per sender and chat)', async () => {
    const [a, b] = await users(2, 'RateMsg');
    const chatId = await makeBuddies(a, b);
    for (const remaining of [19, 18]) {
      const res = await sendTyped(sendMessage, {
        params: { chatId },
        token: a.token,
        body: { text: `Hello ${remaining}` },
      });
      expect(res.ok).toBe(true);
      expect(res.headers.get('ratelimit-policy')).toBe('"messages";q=20;w=600');
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"messages";r=${remaining};t=\\d+$`));
    }
  });

  it.each([
    ['events (per address)', false, '"events";q=120;w=60'],
    ['discover (per person)', true, '"discover";q=120;w=3600'],
    ['photo upload (per person)', true, '"photo_upload";q=10;w=3600'],
  ] as const)('%s, whatever the answer', async (label, authenticated, policy) => {
    const user = authenticated ? await registerUser() : undefined;
    const token: string | undefined = user?.token;
    // Each answer, success or refusal, checked against the contract.
    const once = (): Promise<CallResult<typeof listEvents | typeof discover | typeof uploadPhoto>> =>
      label.startsWith('events')
        ? sendTyped(listEvents, { query: { limit: 1 }, token })
        : label.startsWith('discover')
          ? sendTyped(discover, { token })
          : sendTyped(uploadPhoto, { token, body: { photo: 'not an image' } });
    const first = await once();
    const second = await once();
    for (const res of [first, second]) {
      expect(res.headers.get('ratelimit-policy'), JSON.stringify(res.ok ? res.status : res.error)).toBe(policy);
    }
    const name = policy.split(';')[0];
    if (authenticated) {
      expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^${name};r=\\d+;t=\\d+$`));
      const r = (res: typeof first) => Number(/;r=(\d+)/.exec(res.headers.get('ratelimit')!)![1]);
      expect(r(second)).toBe(r(first) - 1);
    } else {
      expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^${name};r=119;t=\\d+$`));
    }
  });

  it('PATCH /me.json (counts only moves and new photoURLs): both policies, the move counted', async () => {
    const user = await registerUser();
    const policy = '"location_change";q=10;w=86400, "photo_upload";q=10;w=3600';
    const text = await sendTyped(updateMe, { token: user.token, body: { aboutMe: 'Hiker' } });
    expect(text.ok).toBe(true);
    expect(text.headers.get('ratelimit-policy')).toBe(policy);
    expect(text.headers.get('ratelimit')).toBe('"location_change";r=10;t=0, "photo_upload";r=10;t=0');
    const coords = { latitude: 38.72, longitude: -9.14 };
    const move = await sendTyped(updateMe, { token: user.token, body: { coords } });
    expect(move.ok).toBe(true);
    expect(move.headers.get('ratelimit-policy')).toBe(policy);
    expect(move.headers.get('ratelimit')).toMatch(/^"location_change";r=9;t=(\d+), "photo_upload";r=10;t=0$/);
    expect(reset(move.headers.get('ratelimit'))).toBeGreaterThan(86_000);
  });

  it('an unlimited endpoint sends no RateLimit fields', async () => {
    const res = await sendTyped(listActivities, {});
    expect(res.ok).toBe(true);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect(res.headers.get('ratelimit-policy')).toBeNull();
  });
});
