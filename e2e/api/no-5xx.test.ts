// Issue 12 §7, "No input gives a 5xx": every 5xx found (reported, read from the code, or
// found by the fuzzer in fuzz.test.ts), as a plain table against the real server. Each
// case performs the attack, asserts the status and envelope, and where it could have
// written something, that nothing was written. "(was …)" is what the same request got
// before the fix (this file run against commit 3c957a1); cases without it were already
// refused and stay here as guards.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateMe } from '@/lib/contract/profiles';
import { sendMessage } from '@/lib/contract/chats';
import { ERROR_STATUS } from '@/lib/http/error-response';
import { encodeCursor, filtersFingerprint } from '@/lib/discover/cursor';
import { importFeedText } from '@/lib/events/import';
import { api, baseUrl, freshIp, registerUser, testDb, TINY_PNG_BASE64, uniqueEmail, type ApiResponse } from './client';
import { call } from './contract-client';
import { makeBuddies, storedMessages, type TestUser } from './social-helpers';
import { pathOf, WebClient } from './web-client';
import { answerProblem, send } from '../support/fuzz';

/** The envelope, its code's own status, and (for validation) the field named. */
function expectEnvelope(res: ApiResponse, status: number, code: keyof typeof ERROR_STATUS, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body.error).toMatchObject({ code, message: expect.any(String), hint: expect.any(String) });
  expect(ERROR_STATUS[code]).toBe(status);
  if (field) expect(Object.keys(res.body.error.fields ?? {})).toContain(field);
}

const ALICE_PASSWORD = 'alice-long-password';
let alice: TestUser;
let bob: TestUser;
let chatId: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([
    registerUser({
      displayName: 'Alice No5xx',
      password: ALICE_PASSWORD,
      aboutMe: 'Original about me',
      location: 'Portland, OR',
      coords: { latitude: 45.52, longitude: -122.68 },
      gender: 'female',
      birthday: '1990-01-01',
      activities: ['hiking'],
      availability_text: 'weekends',
      photo: TINY_PNG_BASE64,
    }),
    registerUser({
      displayName: 'Bob No5xx',
      aboutMe: 'Bob',
      location: 'Portland, OR',
      coords: { latitude: 45.53, longitude: -122.68 },
      gender: 'male',
      birthday: '1990-01-01',
      activities: ['hiking'],
      availability_text: 'weekends',
      photo: TINY_PNG_BASE64,
    }),
  ]);
  chatId = await makeBuddies(alice, bob);
});

describe('PostgreSQL refuses NUL in text (why the string rule exists)', () => {
  it('fails a query with a NUL parameter: what each request below would have reached', async () => {
    await expect(sql`select ${'a\u0000b'}::text as t`.execute(testDb())).rejects.toThrow(/0x00/);
  });
});

describe('NUL, control characters and lone surrogates in path segments and string fields → 400 naming the field', () => {
  it.each([
    ['NUL in a path segment (was 500)', 'GET', '/api/v1/users/%00/profile.json', undefined, 'slug'],
    [
      'NUL inside a user id, asking for a buddy (found by the fuzzer; was 500)',
      'POST',
      '/api/v1/users/102a6121-16ab%00-4e65-90e2-d8ed3fa174bb/buddy_request.json',
      undefined,
      'slug',
    ],
    ['NUL inside a slug (was 500)', 'GET', '/api/v1/users/ab%00cd/overlap.json', undefined, 'slug'],
    ['NUL in a chat id (was 404)', 'GET', '/api/v1/chats/%00/messages.json', undefined, 'chatId'],
    ['NUL in an invitation id (was 404)', 'POST', '/api/v1/buddy_requests/%00/accept.json', undefined, 'invitationId'],
    ['NUL in a token id (was 404)', 'POST', '/api/v1/me/tokens/%00/revoke.json', undefined, 'tokenId'],
    ['NUL in a query parameter (was 500)', 'GET', '/api/v1/events.json?q=%00', undefined, 'q'],
    [
      'NUL in an unknown (forwarded) query parameter (was ignored)',
      'GET',
      '/api/v1/events.json?anything=a%00',
      undefined,
      'anything',
    ],
    ['NUL in since', 'GET', '/api/v1/inbox.json?since=%00', undefined, 'since'],
    ['an escape sequence in a city (was searched)', 'GET', '/api/v1/events.json?city=%1B%5B2J', undefined, 'city'],
    [
      'NUL in displayName at registration (was 500)',
      'POST',
      '/api/v1/register.json',
      { email: 'nul@example.com', displayName: 'Sam\u0000' },
      'displayName',
    ],
    [
      'a lone surrogate in the email',
      'POST',
      '/api/v1/register.json',
      { email: 'a\uD800@example.com', displayName: 'Sam' },
      'email',
    ],
    [
      'NUL in an activity (was a warning)',
      'PATCH',
      '/api/v1/me.json',
      { activities: ['hiking', 'chess\u0000'] },
      'activities.1',
    ],
    ['NUL in aboutMe (was 500)', 'PATCH', '/api/v1/me.json', { aboutMe: 'hi\u0000there' }, 'aboutMe'],
    [
      'a lone surrogate in aboutMe (was stored as U+FFFD)',
      'PATCH',
      '/api/v1/me.json',
      { aboutMe: 'hi \uDC00' },
      'aboutMe',
    ],
    [
      'a line break in displayName (was stored)',
      'PATCH',
      '/api/v1/me.json',
      { displayName: 'Sam\nAdmin' },
      'displayName',
    ],
    ['NUL in a schedule key', 'PATCH', '/api/v1/me.json', { schedule: { '0_1\u0000': true } }, 'schedule'],
    [
      'NUL in agentName with a photo (found by the fuzzer; was 500)',
      'POST',
      '/api/v1/me/photo.json',
      { photo: TINY_PNG_BASE64, agentName: '\u0000' },
      'agentName',
    ],
    ['NUL in agentName (was accepted)', 'POST', '/api/v1/me/complete.json', { agentName: 'bot\u0000' }, 'agentName'],
    [
      'NUL in a push token (was 500)',
      'POST',
      '/api/v1/me/push_tokens.json',
      { token: 'ExponentPushToken[a\u0000]' },
      'token',
    ],
    ['NUL in a sign-in link token (was 404)', 'POST', '/api/v1/signin/link.json', { token: '\u0000' }, 'token'],
    [
      'NUL in the current password (was 403, counted as a failed attempt)',
      'POST',
      '/api/v1/me/password.json',
      { currentPassword: 'x\u0000', newPassword: 'long enough pass' },
      'currentPassword',
    ],
    [
      'a C1 control in a report (was stored)',
      'POST',
      '/api/v1/users/{bob}/report.json',
      { reason: 'spam', text: 'x\u0085y' },
      'text',
    ],
  ] as const)('%s', async (_name, method, path, body, field) => {
    const res = await api(method, path.replace('{bob}', bob.slug), { token: alice.token, ...(body ? { body } : {}) });
    expectEnvelope(res, 400, 'validation_failed', field);
    expect(res.body.error.fields[field]).toMatch(/control characters|Unicode|invalid slot key|valid email/);
  });

  it('stores nothing: the profile keeps its text, no account or message appears', async () => {
    const before = await testDb()
      .selectFrom('users')
      .select(['about_me', 'display_name'])
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    await api('PATCH', '/api/v1/me.json', {
      token: alice.token,
      body: { aboutMe: 'new\u0000', displayName: 'New\uD800' },
    });
    const after = await testDb()
      .selectFrom('users')
      .select(['about_me', 'display_name'])
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);

    const email = uniqueEmail('nul');
    expectEnvelope(
      await api('POST', '/api/v1/register.json', { body: { email, displayName: 'A\u0000' } }),
      400,
      'validation_failed',
      'displayName',
    );
    expect(
      await testDb().selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),
    ).toBeUndefined();

    // A lone surrogate used to be stored silently as U+FFFD (pg encodes strings as UTF-8).
    for (const text of ['hi\u0000', 'hi \uD83D', '\u001B[31mred']) {
      expectEnvelope(
        await api('POST', `/api/v1/chats/${chatId}/messages.json`, { token: alice.token, body: { text } }),
        400,
        'validation_failed',
        'text',
      );
    }
    expect(await storedMessages(chatId)).toEqual([]);
  });

  it('keeps line breaks and tabs in free text, and emoji everywhere', async () => {
    const res = await call(updateMe, {
      token: alice.token,
      body: { aboutMe: 'Line one\r\nLine two\n\tindented 👋', displayName: 'Alice 👋' },
    });
    expect(res.profile).toMatchObject({ aboutMe: 'Line one\r\nLine two\n\tindented 👋', displayName: 'Alice 👋' });
    await call(sendMessage, { params: { chatId }, token: alice.token, body: { text: 'See you\nat 9' } });
  });
});

describe('paths that cannot be decoded → 400 before routing', () => {
  it.each([
    [
      'an encoded UTF-16 surrogate (the reported case; was a plain-text 500)',
      'POST',
      '/api/v1/users/%ED%A0%80/block.json',
    ],
    ['a % without hex digits (was 500)', 'GET', '/api/v1/users/%zz/profile.json'],
    ['a truncated sequence (was 500)', 'GET', '/api/v1/chats/%E0%A4/messages.json'],
    ['an overlong slash (was 500)', 'GET', '/api/v1/users/%C0%AF/profile.json'],
    ['a byte that is never UTF-8 (was 500)', 'DELETE', '/api/v1/users/%FF/block.json'],
    ['a bad segment in the MCP path (was 404)', 'POST', '/api/mcp%ED%A0%80'],
  ])('%s: JSON envelope under /api', async (_name, method, path) => {
    const res = await send(
      baseUrl(),
      { method, target: path, headers: {}, mutation: 'none' },
      { 'x-forwarded-for': freshIp(), authorization: `Bearer ${alice.token}` },
    );
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.text);
    expect(body.error).toMatchObject({ code: 'validation_failed', fields: { path: expect.stringMatching(/UTF-8/) } });
    expect(answerProblem(res, baseUrl())).toBeNull();
  });

  it.each([
    ['a profile page with an encoded surrogate (was 500)', '/u/%ED%A0%80'],
    ['a profile page with NUL (was 500)', '/u/%00'],
    ['a chat page with an escape character', '/account/chats/%1B'],
    ['a sign-in page with a bad sequence', '/signin%E0%A4?callbackUrl=/account'],
  ])('%s: a plain 400 for pages', async (_name, path) => {
    const res = await send(
      baseUrl(),
      { method: 'GET', target: path, headers: {}, mutation: 'none' },
      { 'x-forwarded-for': freshIp() },
    );
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^Bad request/);
  });

  it('still serves well-encoded non-ASCII paths', async () => {
    const res = await send(
      baseUrl(),
      { method: 'GET', target: '/api/v1/users/%E6%9D%B1%E4%BA%AC/profile.json', headers: {}, mutation: 'none' },
      {},
    );
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error.code).toBe('not_found');
  });
});

describe('out-of-range values → 400 naming the parameter', () => {
  // The cursor of this very search (the same filters), with a hostile time.
  const filters = () =>
    filtersFingerprint({
      radius_km: 200,
      activities: null,
      available: 0,
      when: null,
      gender: null,
      age_min: null,
      age_max: null,
    });
  const discoverWith = (cursor: string) =>
    api('GET', `/api/v1/discover.json?limit=1&radius_km=200&available=0&cursor=${cursor}`, { token: alice.token });

  it.each([
    ['a huge timestamp (the reported case; was 500)', 8.64e15 + 1],
    ['the largest safe integer (was 500)', Number.MAX_SAFE_INTEGER],
    ['year 275760 (was 500)', 8.64e15],
    ['a year ahead (was accepted)', Date.now() + 365 * 86_400_000],
    ['before the API existed (was accepted)', 1],
  ])('a Discover cursor with %s', async (_name, asOf) => {
    const res = await discoverWith(encodeCursor({ score: '0.5', id: bob.id, asOf, filters: filters() }));
    expectEnvelope(res, 400, 'validation_failed', 'cursor');
  });

  it('a Discover cursor of the same search from a minute ago still pages', async () => {
    const res = await discoverWith(
      encodeCursor({
        score: '1',
        id: '00000000-0000-0000-0000-000000000000',
        asOf: Date.now() - 60_000,
        filters: filters(),
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it.each([
    [
      'a messages cursor past the largest id',
      `/api/v1/chats/{chat}/messages.json?cursor=${Buffer.from('m1:99999999999999999').toString('base64url')}`,
      'cursor',
    ],
    ['since beyond the Date range (ms)', '/api/v1/chats/{chat}/messages.json?since=9999999999999999', 'since'],
    ['since as 0000-00-00', '/api/v1/inbox.json?since=0000-00-00', 'since'],
    ['since as year 275760', '/api/v1/inbox.json?since=%2B275760-09-13T00:00:00.000Z', 'since'],
    ['since as NaN', '/api/v1/inbox.json?since=NaN', 'since'],
    ['limit as 1e308', '/api/v1/chats/{chat}/messages.json?limit=1e308', 'limit'],
    ['limit as NaN', '/api/v1/chats.json?limit=NaN', 'limit'],
    ['offset as 1e21', '/api/v1/events.json?offset=1e21', 'offset'],
    ['a date 0000-00-00', '/api/v1/events.json?date_from=0000-00-00', 'date_from'],
    ['a date in year 275760', '/api/v1/events.json?date_to=275760-09-13', 'date_to'],
    ['radius_km as Infinity', '/api/v1/discover.json?radius_km=Infinity', 'radius_km'],
    ['age_min as -0', '/api/v1/discover.json?age_min=-0', 'age_min'],
  ])('%s', async (_name, path, field) => {
    const res = await api('GET', path.replace('{chat}', chatId), { token: alice.token });
    expectEnvelope(res, 400, 'validation_failed', field);
  });

  it.each([
    ['since far in the future (ms)', `/api/v1/chats/{chat}/messages.json?since=${Date.UTC(9999, 0, 1)}`],
    ['since far in the future (ISO)', '/api/v1/inbox.json?since=9999-12-31T23:59:59.999Z'],
    ['since at year 0', '/api/v1/inbox.json?since=0000-01-01T00:00:00Z'],
    ['offset at its maximum', '/api/v1/events.json?offset=10000&limit=100'],
  ])('%s is answered (nothing newer, or an empty page)', async (_name, path) => {
    const res = await api('GET', path.replace('{chat}', chatId), { token: alice.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('found by the fuzzer', () => {
  it('a path that leaves /api/v1 through a dot-segment gets the JSON 404 (was the HTML page)', async () => {
    for (const target of ['/api/v1/%2e%2e/link.json', '/api/other', '/api']) {
      const res = await send(baseUrl(), { method: 'POST', target, headers: {}, mutation: 'none' }, {});
      expect(res.status, target).toBe(404);
      expect(JSON.parse(res.text).error.code).toBe('not_found');
    }
  });

  it('a request line over 16 KB (a huge query) gets 431 with the envelope (was an empty 431)', async () => {
    const res = await send(
      baseUrl(),
      { method: 'GET', target: `/api/v1/events.json?q=${'a'.repeat(20_000)}`, headers: {}, mutation: 'none' },
      {},
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text).error.code).toBe('headers_too_large');
    expect(answerProblem(res, baseUrl())).toBeNull();
  });

  // Issue 43 §5: a 160 KB photo in a /signup-with-ai link gave the person's browser a JSON error.
  it('a signup link over 16 KB gets 431 with a page the person can read', async () => {
    const photo = `data:image/jpeg;base64,${'A'.repeat(30_000)}`;
    const res = await send(
      baseUrl(),
      {
        method: 'GET',
        target: `/signup-with-ai?name=Ana&photo=${encodeURIComponent(photo)}`,
        headers: { accept: 'text/html' },
        mutation: 'none',
      },
      {},
    );
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('This sign-up link is too long');
    expect(res.text).toContain('without the photo');
  });
});

describe('inputs outside the contract', () => {
  // The OAuth endpoints are oidc-provider's, outside the contract table the fuzzer reads.
  it.each([
    [
      'POST',
      '/oauth/token',
      'application/x-www-form-urlencoded',
      'grant_type=authorization_code&code=%00&client_id=%F0%9F',
    ],
    ['POST', '/oauth/token', 'application/json', '{"grant_type":'],
    ['POST', '/oauth/token', 'text/plain', 'x'],
    ['POST', '/oauth/register', 'application/json', '{"redirect_uris":["javascript:alert(1)"],"client_name":"\u0000"}'],
    ['POST', '/oauth/register', 'application/json', '[1,2,3]'],
    ['POST', '/oauth/device/auth', 'application/x-www-form-urlencoded', 'client_id=%00&scope=%ff'],
    ['POST', '/oauth/device', 'application/x-www-form-urlencoded', 'xsrf=&user_code=%00%00'],
    ['POST', '/oauth/revoke', 'application/x-www-form-urlencoded', 'token=%00'],
    ['GET', '/oauth/authorize?client_id=%00&redirect_uri=%ff&response_type=code', undefined, undefined],
    ['GET', '/oauth/authorize?client_id=https%3A%2F%2F127.0.0.1%3A1%2Fx.json&response_type=code', undefined, undefined],
    ['GET', '/oauth/device?user_code=%00', undefined, undefined],
    ['POST', '/oauth/interaction/nope/confirm', 'application/x-www-form-urlencoded', ''],
    ['GET', '/oauth/interaction/%00', undefined, undefined],
    ['GET', '/.well-known/oauth-protected-resource/elsewhere', undefined, undefined],
  ] as const)('OAuth %s %s with bad input answers below 500', async (method, path, type, body) => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      redirect: 'manual',
      headers: { 'x-forwarded-for': freshIp(), origin: baseUrl(), ...(type ? { 'content-type': type } : {}) },
      body,
    });
    expect(res.status, await res.text()).toBeLessThan(500);
  });

  it('OAuth device code form: a code with NUL, posted with the form’s session, is refused like a wrong code (and without a session the form opens afresh)', async () => {
    const ip = freshIp();
    const page = await fetch(`${baseUrl()}/oauth/device`, { headers: { 'x-forwarded-for': ip } });
    const cookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const res = await fetch(`${baseUrl()}/oauth/device`, {
      method: 'POST',
      headers: {
        'x-forwarded-for': ip,
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: baseUrl(),
      },
      body: new URLSearchParams({ xsrf, user_code: 'AB\u0000CD' }),
    });
    expect(res.status).toBe(200); // oidc-provider re-renders the form with the problem
    expect(await res.text()).toContain('That code is not right');
    const stale = await fetch(`${baseUrl()}/oauth/device`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'xsrf=x&user_code=ABCD-EFGH',
    });
    expect(stale.status).toBe(303);
    expect(stale.headers.get('location')).toBe('/oauth/device');
  });

  it.each([
    ['NUL in the email (was error=Configuration: an exception)', 'sam\u0000@example.com', 'whatever-password'],
    ['an escape in the email', '\u001B[2J@example.com', 'whatever-password'],
    ['NUL in the password', 'someone@example.com', 'pass\u0000word'],
  ])('Auth.js password sign-in with %s answers like wrong credentials', async (_name, email, password) => {
    const web = new WebClient();
    const res = await web.signInWithPassword(email, password);
    expect(res.status).toBe(302);
    // Not error=Configuration: that is what an exception inside Auth.js turns into.
    expect(pathOf(res.location)).toBe('/signin?error=CredentialsSignin&code=credentials');
    expect(web.sessionCookie()).toBeUndefined();
  });

  it('Auth.js "email me a link" with NUL in the address answers like any unknown address (was error=Configuration)', async () => {
    const web = new WebClient();
    const res = await web.request('POST', '/auth/signin/email', {
      form: { csrfToken: await web.csrf(), email: 'sam\u0000@example.com', callbackUrl: '/account' },
    });
    expect(res.status).toBe(302);
    expect(pathOf(res.location)).toBe('/signin/check-email');
  });

  it.each([
    ['NUL', '\u0000'],
    ['not a token id', 'not-a-uuid'],
    ["another person's token id", 'BOB'],
  ])(
    "the token page's revoke form (a server action) with %s as tokenId answers below 500 and revokes nothing (was 500)",
    async (_name, tokenId) => {
      const web = new WebClient();
      expect(pathOf((await web.signInWithPassword(alice.user.email, ALICE_PASSWORD)).location)).toBe('/account');
      const page = await web.request('GET', '/account/agents');
      expect(page.status).toBe(200);
      // The form works without JavaScript: Next.js names the action in a hidden field.
      // The Disconnect form's action (the page also has the first-sign-in Keep/Revoke forms).
      const actionField = page.text
        .split('<form')
        .find((form) => form.includes('>Disconnect</button>'))
        ?.match(/name="(\$ACTION_ID_[0-9a-f]+)"/)?.[1];
      expect(actionField).toBeDefined();
      const bobToken = await testDb()
        .selectFrom('access_tokens')
        .select('id')
        .where('user_id', '=', bob.id)
        .executeTakeFirstOrThrow();
      const form = new FormData();
      form.set(actionField!, '');
      form.set('tokenId', tokenId === 'BOB' ? bobToken.id : tokenId);
      const res = await fetch(`${baseUrl()}/account/agents`, {
        method: 'POST',
        headers: { cookie: web.cookieHeader(), origin: baseUrl(), 'x-forwarded-for': web.ip },
        body: form,
        redirect: 'manual',
      });
      expect(res.status).toBeLessThan(500);
      const revoked = await testDb()
        .selectFrom('access_tokens')
        .select('id')
        .where('revoked_at', 'is not', null)
        .where('user_id', 'in', [alice.id, bob.id])
        .execute();
      expect(revoked).toEqual([]);
    },
  );

  it('an MCP tool call with a lone surrogate in a path argument gets the validation envelope naming it (was "URI malformed", no envelope)', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${alice.token}`, 'x-forwarded-for': freshIp() } },
    });
    const client = new Client({ name: 'no-5xx', version: '1.0.0' });
    await client.connect(transport);
    try {
      for (const args of [{ slug: 'a\uD800b' }, { slug: 'a\u0000b' }]) {
        const result = (await client.callTool({ name: 'get_public_profile', arguments: args })) as {
          isError?: boolean;
          content: Array<{ text?: string }>;
        };
        expect(result.isError).toBe(true);
        const envelope = JSON.parse(result.content[1]!.text!);
        expect(envelope.error).toMatchObject({
          code: 'validation_failed',
          fields: { slug: expect.stringMatching(/Unicode|control/) },
        });
      }
    } finally {
      await client.close();
    }
  });

  it('an imported feed with NUL, control characters and lone surrogates is stored cleaned (the import failed: PostgreSQL 0x00)', async () => {
    const start = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const feed = JSON.stringify([
      {
        uid: 'nul\u0000-1',
        title: 'Run\u0000 club \uD800',
        description: 'Line one\r\nLine two\u0007',
        start,
        city: 'Port\u0000land',
        categories: ['Run\u001Bning'],
      },
    ]);
    const summary = await importFeedText(testDb(), 'fuzz-nul-feed', feed, { horizonDays: 30 });
    expect(summary.upserted).toBe(1);
    const row = await testDb()
      .selectFrom('events')
      .selectAll()
      .where('source', '=', 'fuzz-nul-feed')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      uid: 'nul-1',
      title: 'Run club \uFFFD',
      description: 'Line one\r\nLine two',
      categories: ['Running'],
    });
    const served = await api('GET', '/api/v1/events.json?sources=fuzz-nul-feed');
    expect(served.status).toBe(200);
    expect(served.body.events[0]).toMatchObject({ title: 'Run club \uFFFD' });
    await testDb().deleteFrom('events').where('source', '=', 'fuzz-nul-feed').execute();
  });
});
