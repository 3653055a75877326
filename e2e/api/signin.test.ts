// Sign-in, sessions and account security against the real server and database:
// Auth.js's /auth endpoints as the web pages use them, and the JSON endpoints of
// lib/contract/signin.ts.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { getMe, ownProfileSchema } from '@/lib/contract/profiles';
import { changePassword, exchangeSigninLink, listTokens, revokeToken } from '@/lib/contract/signin';
import type { ErrorCode } from '@/lib/core/errors';
import { api, baseUrl, freshIp, registerUser, testDb, uniqueEmail, updateTokens } from './client';
import { call, pathOf as pathOfSpec, refused, refusedRaw, send } from './contract-client';
import { mailsTo, nextMailedLinkToken, pathOf, WebClient } from './web-client';

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const PASSWORD = 'correct horse battery';
const linkToken = (url: string) => new URL(url).searchParams.get('token') ?? '';

async function registered(overrides: Record<string, unknown> = {}) {
  return registerUser({ password: PASSWORD, emailMagicLink: false, ...overrides });
}

async function sessionsOf(userId: string) {
  return testDb()
    .selectFrom('sessions')
    .select(['id', 'token_hash', 'expires_at'])
    .where('user_id', '=', userId)
    .execute();
}

describe('password sign-in (POST /auth/callback/password)', () => {
  it('starts a database session and sets a session cookie that the JSON API accepts', async () => {
    const user = await registered();
    const web = new WebClient();
    const res = await web.signInWithPassword(user.user.email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(302);
    expect(pathOf(res.location)).toBe('/account');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('buddy.session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // the test stack is plain http; https deployments get Secure + __Secure-
    const [session] = await sessionsOf(user.id);
    expect(session!.token_hash.equals(sha256(web.sessionCookie()!))).toBe(true);
    expect(session!.expires_at.getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);

    const me = await web.request('GET', '/api/v1/me.json');
    expect(me.status).toBe(200);
    expect(ownProfileSchema.parse(me.json.profile).id).toBe(user.id);
  });

  it.each([
    ['a wrong password', (email: string) => [email, 'not the password']],
    ['an unknown email', () => [uniqueEmail('nobody'), PASSWORD]],
  ])('answers %s with the same error and records the failure', async (_name, credentials) => {
    const user = await registered();
    const [email, password] = credentials(user.user.email);
    const web = new WebClient();
    const res = await web.signInWithPassword(email!, password!);
    expect(res.status).toBe(302);
    expect(pathOf(res.location)).toBe('/signin?error=CredentialsSignin&code=credentials');
    expect(web.sessionCookie()).toBeUndefined();
    const rows = await testDb()
      .selectFrom('auth_attempts')
      .selectAll()
      .where('account_key', '=', email!.toLowerCase())
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'password_failure', ip: web.ip });
  });

  it('refuses a form without the CSRF token', async () => {
    const user = await registered();
    const web = new WebClient();
    await web.csrf();
    const res = await web.request('POST', '/auth/callback/password', {
      form: { email: user.user.email, password: PASSWORD },
    });
    expect(pathOf(res.location)).toMatch(/error=MissingCSRF/);
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it('limits failed attempts per account from one address exactly, even when they arrive at once', async () => {
    const user = await registered();
    // Ten guesses in parallel from one address: the per-account-and-address limit (5) applies.
    const ip = freshIp();
    const results = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) => (await new WebClient(ip).signInWithPassword(user.user.email, `guess-${i}`)).location,
      ),
    );
    const codes = results.map((l) => new URL(l!).searchParams.get('code'));
    expect(codes.filter((c) => c === 'credentials')).toHaveLength(5);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(5);
    const failures = await testDb()
      .selectFrom('auth_attempts')
      .select('id')
      .where('account_key', '=', user.user.email.toLowerCase())
      .execute();
    expect(failures).toHaveLength(5);

    // Paused from that address: even the right password is refused there until the window passes…
    const right = await new WebClient(ip).signInWithPassword(user.user.email, PASSWORD);
    const refused = new URL(right.location!);
    expect(refused.pathname).toBe('/signin');
    expect(Object.fromEntries(refused.searchParams)).toMatchObject({
      error: 'CredentialsSignin',
      code: 'rate_limited',
      reason: 'account_here',
    });
    expect(await sessionsOf(user.id)).toHaveLength(0);
    // …but not from another address (intended change: the pause was account-wide before).
    expect(pathOf((await new WebClient().signInWithPassword(user.user.email, PASSWORD)).location)).toBe('/account');

    // Once the failures leave the 15-minute window, that address signs in again and its failures are forgotten.
    await testDb()
      .updateTable('auth_attempts')
      .set({ created_at: sql`now() - interval '16 minutes'` })
      .where('account_key', '=', user.user.email.toLowerCase())
      .execute();
    const later = await new WebClient(ip).signInWithPassword(user.user.email, PASSWORD);
    expect(pathOf(later.location)).toBe('/account');
    const left = await testDb()
      .selectFrom('auth_attempts')
      .select('id')
      .where('account_key', '=', user.user.email.toLowerCase())
      .where('ip', '=', ip)
      .execute();
    expect(left).toHaveLength(0);
  });

  it('limits failed attempts per client IP across accounts', async () => {
    const web = new WebClient();
    for (let i = 0; i < 20; i++) {
      const res = await web.signInWithPassword(uniqueEmail(`spray${i}`), 'whatever-password');
      expect(new URL(res.location!).searchParams.get('code')).toBe('credentials');
    }
    const user = await registered();
    const blocked = await web.signInWithPassword(user.user.email, PASSWORD);
    expect(new URL(blocked.location!).searchParams.get('code')).toBe('rate_limited');
    // Another address is unaffected.
    const elsewhere = await new WebClient().signInWithPassword(user.user.email, PASSWORD);
    expect(pathOf(elsewhere.location)).toBe('/account');
  });
});

describe('sign-in links (/signin/link → POST /auth/callback/email)', () => {
  it('signs in on the first POST, explains on the second, and never spends a link on GET', async () => {
    const user = await registered();
    const token = linkToken(user.auth.mobile_signin_url);
    const web = new WebClient();

    // Loading the page (as a link previewer would) and Auth.js's own GET URL leave the link unused.
    const page = await web.request('GET', `/signin/link?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Test Person');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const get = await web.request('GET', `/auth/callback/email?token=${token}`);
    expect(get.status).toBe(303);
    expect(pathOf(get.location)).toBe(`/signin/link?token=${token}`);
    const stored = () =>
      testDb()
        .selectFrom('signin_links')
        .select(['used_at'])
        .where('token_hash', '=', sha256(token))
        .executeTakeFirstOrThrow();
    expect((await stored()).used_at).toBeNull();

    const first = await web.request('POST', `/auth/callback/email?token=${token}&callbackUrl=/account`);
    expect(first.status).toBe(302);
    expect(pathOf(first.location)).toBe('/account');
    expect((await stored()).used_at).not.toBeNull();
    expect((await web.request('GET', '/api/v1/me.json')).json.profile.id).toBe(user.id);
    const verified = await testDb()
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(verified.email_verified_at).not.toBeNull();

    const other = new WebClient();
    const second = await other.request('POST', `/auth/callback/email?token=${token}&callbackUrl=/account`);
    expect(pathOf(second.location)).toBe('/signin?error=Verification');
    expect(other.sessionCookie()).toBeUndefined();
    const explained = await other.request('GET', `/signin/link?token=${token}`);
    expect(explained.text).toContain('already been used');
  });

  it('does not spend a link posted from another site, but sends the browser to the confirm page', async () => {
    const user = await registered();
    const token = linkToken(user.auth.mobile_signin_url);
    const web = new WebClient();
    for (const origin of ['https://evil.example', 'null']) {
      const res = await web.request('POST', `/auth/callback/email?token=${token}`, { headers: { origin } });
      expect(res.status).toBe(303);
      expect(pathOf(res.location)).toBe(`/signin/link?token=${token}`);
    }
    expect(web.sessionCookie()).toBeUndefined();
    const stored = await testDb()
      .selectFrom('signin_links')
      .select('used_at')
      .where('token_hash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    expect(stored.used_at).toBeNull();
    const sameSite = await web.request('POST', `/auth/callback/email?token=${token}&callbackUrl=/account`, {
      headers: { origin: new URL(baseUrl()).origin },
    });
    expect(pathOf(sameSite.location)).toBe('/account');
  });

  it('refuses an expired link and says so', async () => {
    const user = await registered();
    const token = linkToken(user.auth.mobile_signin_url);
    await testDb()
      .updateTable('signin_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', sha256(token))
      .execute();
    const web = new WebClient();
    expect((await web.request('GET', `/signin/link?token=${token}`)).text).toContain('has expired');
    const post = await web.request('POST', `/auth/callback/email?token=${token}`);
    expect(pathOf(post.location)).toBe('/signin?error=Verification');
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });
});

describe('"email me a sign-in link" (POST /auth/signin/email)', () => {
  it('gives the same answer for known and unknown addresses and queues mail only for the account', async () => {
    const user = await registered();
    const answers = [];
    for (const email of [user.user.email, uniqueEmail('unknown')]) {
      const web = new WebClient();
      const res = await web.request('POST', '/auth/signin/email', {
        form: { csrfToken: await web.csrf(), email, callbackUrl: '/account' },
      });
      answers.push({ status: res.status, location: pathOf(res.location) });
    }
    expect(answers[0]).toEqual({ status: 302, location: '/signin/check-email' });
    expect(answers[1]).toEqual(answers[0]);
    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from pgboss.job where name = 'mail-magic-link' and data->>'userId' = ${user.id}`.execute(
      testDb(),
    );
    expect(rows[0]!.count).toBe(1);
  });

  it('stops mailing one address after 5 requests an hour and says when to ask again, and refuses a flooding IP', async () => {
    const user = await registered();
    for (let i = 0; i < 5; i++) {
      const res = await new WebClient().requestSigninLink(user.user.email);
      expect(pathOf(res.location)).toBe('/signin/check-email');
    }
    // No longer silent (intended change): the 6th and 7th are refused with when to ask again, and not recorded.
    for (let i = 0; i < 2; i++) {
      const res = await new WebClient().requestSigninLink(user.user.email);
      const refused = new URL(res.location!);
      expect(refused.pathname).toBe('/signin');
      expect(refused.searchParams.get('error')).toBe('AccessDenied');
      expect(refused.searchParams.get('reason')).toBe('email');
      expect(Number(refused.searchParams.get('until')) - Date.now() / 1000).toBeGreaterThan(3500);
    }
    const { rows } = await sql<{
      count: number;
    }>`select count(*)::int as count from pgboss.job where name = 'mail-magic-link' and data->>'userId' = ${user.id}`.execute(
      testDb(),
    );
    expect(rows[0]!.count).toBe(5);
    const recorded = await testDb()
      .selectFrom('auth_attempts')
      .select('id')
      .where('kind', '=', 'link_request')
      .where('account_key', '=', user.user.email.toLowerCase())
      .execute();
    expect(recorded).toHaveLength(5);

    const flood = new WebClient();
    const csrfToken = await flood.csrf();
    for (let i = 0; i < 20; i++) {
      const res = await flood.request('POST', '/auth/signin/email', {
        form: { csrfToken, email: uniqueEmail(`flood${i}`) },
      });
      expect(pathOf(res.location)).toBe('/signin/check-email');
    }
    const refused = await flood.request('POST', '/auth/signin/email', {
      form: { csrfToken, email: uniqueEmail('one-more') },
    });
    const target = new URL(refused.location!);
    expect(target.searchParams.get('error')).toBe('AccessDenied');
    expect(target.searchParams.get('reason')).toBe('network');
  });
});

describe('sign-out (POST /auth/signout)', () => {
  it('deletes the session row and the cookie', async () => {
    const user = await registered();
    const web = new WebClient();
    await web.signInWithPassword(user.user.email, PASSWORD);
    expect(await sessionsOf(user.id)).toHaveLength(1);
    const res = await web.request('POST', '/auth/signout', {
      form: { csrfToken: await web.csrf(), callbackUrl: '/signin?signedOut=1' },
    });
    expect(pathOf(res.location)).toBe('/signin?signedOut=1');
    expect(web.sessionCookie()).toBeUndefined();
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });
});

describe('session cookies on the JSON API', () => {
  it('accepts same-origin writes and refuses cross-site ones', async () => {
    const user = await registered();
    const web = new WebClient();
    await web.signInWithPassword(user.user.email, PASSWORD);
    const patch = (headers: Record<string, string>) =>
      web.request('PATCH', '/api/v1/me.json', { json: { aboutMe: 'from the browser' }, headers });

    const crossSite: Record<string, string>[] = [{}, { origin: 'https://evil.example' }, { origin: 'null' }];
    for (const headers of crossSite) {
      const res = await patch(headers);
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
    }
    const row = () =>
      testDb().selectFrom('users').select('about_me').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect((await row()).about_me).toBeNull();

    const ok = await patch({ origin: new URL(baseUrl()).origin });
    expect(ok.status).toBe(200);
    expect((await row()).about_me).toBe('from the browser');
  });

  it('keeps bearer behaviour unchanged: a bad bearer token is refused even beside a good cookie', async () => {
    const user = await registered();
    const web = new WebClient();
    await web.signInWithPassword(user.user.email, PASSWORD);
    const res = await web.request('GET', '/api/v1/me.json', { headers: { authorization: 'Bearer bm_at_wrong' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('ignores an unknown or expired session cookie', async () => {
    const user = await registered();
    const web = new WebClient();
    await web.signInWithPassword(user.user.email, PASSWORD);
    await testDb()
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', user.id)
      .execute();
    expect((await web.request('GET', '/api/v1/me.json')).status).toBe(401);
    web.cookies.set('buddy.session', 'bm_ss_forged');
    expect((await web.request('GET', '/api/v1/me.json')).status).toBe(401);
  });
});

describe('GET /api/v1/me/tokens.json and POST /api/v1/me/tokens/{tokenId}/revoke.json', () => {
  it('lists tokens without their values and revokes one so it stops working at once', async () => {
    const user = await registerUser({ agentName: 'TokenBot', agentSessionId: 's-1' });
    const second = await call(exchangeSigninLink, { body: { token: linkToken(user.auth.mobile_signin_url) } });

    const list = await call(listTokens, { token: user.token });
    const { tokens } = list;
    expect(tokens).toHaveLength(2);
    expect(tokens.map((t) => t.label).sort()).toEqual(['mobile app', 'registration']);
    expect(tokens.find((t) => t.label === 'registration')).toMatchObject({
      agentName: 'TokenBot',
      agentSessionId: 's-1',
      active: true,
      revoked_at: null,
    });
    expect(JSON.stringify(list)).not.toContain(user.token);

    const appToken = tokens.find((t) => t.label === 'mobile app');
    if (!appToken) throw new Error('no mobile app token');
    const revoked = (await call(revokeToken, { params: { tokenId: appToken.id }, token: user.token })).token;
    expect(revoked).toMatchObject({ id: appToken.id, active: false });
    expect(revoked.revoked_at).not.toBeNull();
    const stored = await testDb()
      .selectFrom('access_tokens')
      .select('revoked_at')
      .where('id', '=', appToken.id)
      .executeTakeFirstOrThrow();
    expect(stored.revoked_at).not.toBeNull();

    await refused(getMe, { token: second.auth.token }, 'unauthorized');

    // Idempotent; the revoking token itself still works.
    const again = await call(revokeToken, { params: { tokenId: appToken.id }, token: user.token });
    expect(again.token.revoked_at).toBe(revoked.revoked_at);
    await call(getMe, { token: user.token });
  });

  it('lets a token revoke itself', async () => {
    const user = await registerUser();
    const [token] = (await call(listTokens, { token: user.token })).tokens;
    await call(revokeToken, { params: { tokenId: token?.id ?? '' }, token: user.token });
    await refused(listTokens, { token: user.token }, 'unauthorized');
  });

  it.each([
    [
      'another account’s token',
      async () =>
        (
          await testDb()
            .selectFrom('access_tokens')
            .select('id')
            .where('user_id', '=', (await registerUser()).id)
            .executeTakeFirstOrThrow()
        ).id,
    ],
    ['an unknown id', async () => '00000000-0000-4000-8000-000000000000'],
    ['a malformed id', async () => 'not-a-uuid'],
  ])('answers 404 for %s', async (_name, tokenId) => {
    const user = await registerUser();
    const id = await tokenId();
    await refused(revokeToken, { params: { tokenId: id }, token: user.token }, 'not_found');
    if (id.length === 36) {
      const row = await testDb()
        .selectFrom('access_tokens')
        .select('revoked_at')
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row?.revoked_at ?? null).toBeNull();
    }
  });

  it('needs the profile scopes', async () => {
    const user = await registerUser();
    await updateTokens(user.id, { scopes: ['message:read'] });
    await refused(listTokens, { token: user.token }, 'insufficient_scope');
    await refused(listTokens, {}, 'unauthorized');
  });
});

describe('POST /api/v1/me/password.json', () => {
  it('changes the password, signs out other sessions and keeps tokens working', async () => {
    const user = await registered({ agentName: 'PwBot' });
    const browser = new WebClient();
    await browser.signInWithPassword(user.user.email, PASSWORD);
    expect(await sessionsOf(user.id)).toHaveLength(1);

    const res = await call(changePassword, {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: 'a brand new passphrase', agentName: 'PwBot' },
    });
    expect(res).toEqual({ success: true, signed_out_sessions: 1, revoked_tokens: 0 });
    expect(await sessionsOf(user.id)).toHaveLength(0);
    expect((await browser.request('GET', '/api/v1/me.json')).status).toBe(401);
    await call(getMe, { token: user.token });

    expect(pathOf((await new WebClient().signInWithPassword(user.user.email, PASSWORD)).location)).toMatch(
      /code=credentials/,
    );
    expect(pathOf((await new WebClient().signInWithPassword(user.user.email, 'a brand new passphrase')).location)).toBe(
      '/account',
    );
    const actions = await testDb()
      .selectFrom('agent_actions')
      .select('action')
      .where('user_id', '=', user.id)
      .execute();
    expect(actions.map((a) => a.action)).toContain('change_password');
  });

  it('keeps the session that made the change signed in', async () => {
    const user = await registered();
    const web = new WebClient();
    await web.signInWithPassword(user.user.email, PASSWORD);
    const other = new WebClient();
    await other.signInWithPassword(user.user.email, PASSWORD);
    const res = await web.request('POST', '/api/v1/me/password.json', {
      json: { currentPassword: PASSWORD, newPassword: 'another long passphrase' },
      headers: { origin: new URL(baseUrl()).origin },
    });
    expect(res.status).toBe(200);
    expect(res.json.signed_out_sessions).toBe(1);
    expect((await web.request('GET', '/api/v1/me.json')).status).toBe(200);
    expect((await other.request('GET', '/api/v1/me.json')).status).toBe(401);
  });

  it.each<[string, Record<string, unknown>, number, ErrorCode, string]>([
    [
      'a short new password',
      { currentPassword: PASSWORD, newPassword: 'short' },
      400,
      'validation_failed',
      'newPassword',
    ],
    [
      'a missing current password',
      { newPassword: 'long enough password' },
      400,
      'validation_failed',
      'currentPassword',
    ],
    [
      'an unknown field',
      { currentPassword: PASSWORD, newPassword: 'long enough password', email: 'x@example.com' },
      400,
      'validation_failed',
      'email',
    ],
    [
      'a wrong current password',
      { currentPassword: 'not it at all', newPassword: 'long enough password' },
      403,
      'wrong_password',
      'currentPassword',
    ],
  ])('refuses %s', async (_name, body, status, code, field) => {
    const user = await registered();
    const before = await testDb()
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    // Raw: missing and unknown fields are bodies the contract's types forbid; the answer is read as the error envelope.
    const res = refusedRaw(await api('POST', pathOfSpec(changePassword), { token: user.token, body }), code);
    expect(res.status).toBe(status);
    expect(res.fields).toHaveProperty(field);
    const after = await testDb()
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(before.password_hash);
  });

  it('rate-limits wrong current passwords from one address with 429, Retry-After and when to try again', async () => {
    const user = await registered();
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      await refused(
        changePassword,
        { ip, token: user.token, body: { currentPassword: `wrong-${i}`, newPassword: 'long enough password' } },
        'wrong_password',
      );
    }
    const before = await testDb()
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const res = await refused(
      changePassword,
      { ip, token: user.token, body: { currentPassword: PASSWORD, newPassword: 'long enough password' } },
      'rate_limited',
    );
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(res.message).toMatch(/Try again in 1[45] minutes\./);
    const after = await testDb()
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(before.password_hash);
    // Another address is not paused (intended change: the pause was account-wide before).
    await call(changePassword, {
      ip: freshIp(),
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: 'long enough password' },
    });
  });

  it('lets exactly one of two changes racing with the same current password win (argon2 runs outside the transaction)', async () => {
    const user = await registered();
    const change = (newPassword: string) =>
      send(changePassword, { token: user.token, body: { currentPassword: PASSWORD, newPassword } });
    const answers = await Promise.all([change('first new passphrase'), change('second new passphrase')]);
    const won = answers.findIndex((res) => res.status === 200);
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
    // The loser saw the old hash replaced, either before checking (wrong_password) or after (conflict).
    const lost = answers[1 - won];
    expect(['wrong_password', 'conflict']).toContain(lost && !lost.ok ? lost.error.code : 'succeeded');
    const winner = won === 0 ? 'first new passphrase' : 'second new passphrase';
    const loser = won === 0 ? 'second new passphrase' : 'first new passphrase';
    expect(pathOf((await new WebClient().signInWithPassword(user.user.email, winner)).location)).toBe('/account');
    expect(pathOf((await new WebClient().signInWithPassword(user.user.email, loser)).location)).toMatch(
      /code=credentials/,
    );
  });
});

describe('POST /api/v1/signin/link.json', () => {
  it('trades a link for a working access token once', async () => {
    const user = await registered();
    const token = linkToken(user.auth.mobile_signin_url);
    const body = await call(exchangeSigninLink, { body: { token } });
    expect(body.user).toMatchObject({ id: user.id, slug: user.slug });
    expect(body.auth.scopes).toHaveLength(7);
    await call(getMe, { token: body.auth.token });
    const stored = await testDb()
      .selectFrom('access_tokens')
      .select(['label', 'token_hash'])
      .where('token_hash', '=', sha256(body.auth.token))
      .executeTakeFirstOrThrow();
    expect(stored.label).toBe('mobile app');

    await refused(exchangeSigninLink, { body: { token } }, 'signin_link_used');
  });

  it('lets exactly one of two simultaneous uses win', async () => {
    const user = await registered();
    const token = linkToken(user.auth.mobile_signin_url);
    const results = await Promise.all([0, 1].map(() => send(exchangeSigninLink, { body: { token } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    const minted = await testDb()
      .selectFrom('access_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .where('label', '=', 'mobile app')
      .execute();
    expect(minted).toHaveLength(1);
  });

  it.each<[string, string, number, ErrorCode]>([
    ['an expired link', 'expired', 410, 'signin_link_expired'],
    ['an unknown token', 'unknown', 404, 'not_found'],
    ['an empty token', 'empty', 400, 'validation_failed'],
  ])('refuses %s', async (_name, kind, status, code) => {
    const user = await registered();
    let token = linkToken(user.auth.mobile_signin_url);
    if (kind === 'expired')
      await testDb()
        .updateTable('signin_links')
        .set({ expires_at: new Date(Date.now() - 1) })
        .where('token_hash', '=', sha256(token))
        .execute();
    if (kind === 'unknown') token = 'bm_sl_doesnotexist';
    if (kind === 'empty') token = '';
    const res = await refused(exchangeSigninLink, { body: { token } }, code);
    expect(res.status).toBe(status);
    expect(
      await testDb().selectFrom('access_tokens').select('id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(1);
  });
});

describe('security headers', () => {
  it('sends a nonce CSP on pages and a deny-all CSP on JSON', async () => {
    const page = await fetch(`${baseUrl()}/signin`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await page.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    const second = await fetch(`${baseUrl()}/signin`);
    expect(second.headers.get('content-security-policy')).not.toBe(csp);

    const json = await fetch(`${baseUrl()}/api/v1/index.json`);
    expect(json.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(json.headers.get('x-content-type-options')).toBe('nosniff');
  });

  // The home page is answered by the node:http server itself (server/doors/home.tsx),
  // not by Next.js and proxy.ts: it must carry the same headers all the same.
  it('sends the same headers on the static home page, whose only inline content is its nonce-tagged stylesheet', async () => {
    const home = await fetch(`${baseUrl()}/?ref=somewhere`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.headers.get('content-encoding')).toBe('gzip'); // fetch asks for it; the body arrives decoded
    const csp = home.headers.get('content-security-policy')!;
    expect(csp).toBe(
      (await fetch(`${baseUrl()}/signin`)).headers
        .get('content-security-policy')!
        .replace(/'nonce-[^']+'/g, /'nonce-[^']+'/.exec(csp)![0]),
    );
    for (const name of [
      'x-content-type-options',
      'referrer-policy',
      'x-frame-options',
      'permissions-policy',
      'cross-origin-opener-policy',
    ]) {
      expect(home.headers.get(name), name).toBeTruthy();
    }
    expect(home.headers.get('cache-control')).toBe('private, no-cache');
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    const html = await home.text();
    expect(html).not.toMatch(/<script/i);
    expect([...html.matchAll(/<style\b[^>]*>/g)].map((m) => m[0])).toEqual([`<style nonce="${nonce}">`]);
    expect(html).not.toMatch(/\sstyle="/);
    expect((await fetch(`${baseUrl()}/`)).headers.get('content-security-policy')).not.toBe(csp);

    const head = await fetch(`${baseUrl()}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('the person’s own web signup (issue 31 §5)', () => {
  it('creates the account and no bearer token; register.json still hands the assistant one', async () => {
    const email = uniqueEmail('web-own');
    const res = await api('POST', '/api/v1/web/signup.json', { body: { email, displayName: 'Wen Web' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.auth).sort()).toEqual([
      'emailed_magic_link',
      'generated_password',
      'mobile_signin_expires_in_seconds',
      'mobile_signin_url',
    ]);
    const user = await testDb().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    expect(await testDb().selectFrom('access_tokens').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
    // Issue 46 §5: her mail says she made the account on the website, not that an assistant usually does.
    await nextMailedLinkToken(email);
    const [mail] = mailsTo(email);
    expect(mail).toContain('created with this email address on the Buddy Match website');
    expect(mail).not.toMatch(/assistant/i);
    // The same email again is the same 409 as register.json.
    const again = await api('POST', '/api/v1/web/signup.json', { body: { email, displayName: 'Wen Again' } });
    expect(again.status).toBe(409);

    const byAssistant = await registerUser();
    const keys = await testDb()
      .selectFrom('access_tokens')
      .select('label')
      .where('user_id', '=', byAssistant.id)
      .execute();
    expect(keys).toEqual([{ label: 'registration' }]);
    expect((await api('GET', '/api/v1/me.json', { token: byAssistant.token })).status).toBe(200);
  });
});
