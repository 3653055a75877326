// The OAuth authorization server as an attacker and a careless client meet it: each
// refusal the MCP authorization specification (2026-07-28) and OAuth 2.1 ask for is
// performed over HTTP against the real server and PostgreSQL. The happy path with the
// official MCP SDK client and Chromium is e2e/browser/oauth.spec.ts; here a small cookie
// jar plays the person's browser (signed in, pressing Allow).
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, type Database } from '@/db';
import { freePort } from '@/lib/net/free-port';
import { storedOauthId } from '@/lib/accounts/oauth-stored-id';
import { startStack, type Stack } from '../support/stack';
import { freshIp, uniqueEmail } from './client';

const PASSWORD = 'correct horse battery staple';
let stack: Stack;
let db: Database;
let metadataServer: http.Server;
let metadataPort: number;
let base: string;

class Browser {
  private cookies = new Map<string, string>();
  private readonly ip = freshIp();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', this.ip);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

async function person(): Promise<{ email: string; token: string; browser: Browser }> {
  const email = uniqueEmail('oauth');
  const res = await fetch(`${base}/api/v1/register.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify({ email, displayName: 'Oauth Tester', password: PASSWORD, emailMagicLink: false }),
  });
  expect(res.status).toBe(201);
  const token = ((await res.json()) as { auth: { token: string } }).auth.token;
  const browser = new Browser();
  const { csrfToken } = (await (await browser.fetch('/auth/csrf')).json()) as { csrfToken: string };
  const signedIn = await browser.fetch('/auth/callback/password', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, callbackUrl: '/account' }),
  });
  expect(signedIn.status).toBe(302);
  return { email, token, browser };
}

const REDIRECT = 'http://127.0.0.1:4999/callback';

async function registerClient(redirectUris = [REDIRECT]): Promise<string> {
  const res = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Refusal Tester',
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(32).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

type AuthorizeOptions = {
  clientId: string;
  challenge?: string | null;
  method?: string;
  redirectUri?: string;
  resource?: string | null;
  scope?: string;
};

function authorizeUrl(o: AuthorizeOptions): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: o.clientId,
    redirect_uri: o.redirectUri ?? REDIRECT,
    state: 'st4te',
    scope: o.scope ?? 'profile:read message:read',
  });
  if (o.challenge !== null) params.set('code_challenge', o.challenge ?? pkce().challenge);
  if (o.challenge !== null) params.set('code_challenge_method', o.method ?? 'S256');
  if (o.resource !== null) params.set('resource', o.resource ?? `${base}/api/mcp`);
  return `/oauth/authorize?${params}`;
}

/** The person signs in (already) and presses Allow; returns the redirect back to the client. */
async function consent(browser: Browser, url: string): Promise<URL> {
  const started = await browser.fetch(url);
  expect(started.status, await started.clone().text()).toBe(303);
  const interaction = new URL(started.headers.get('location')!, base);
  // A client this browser already approved (same sign-in) gets its code without asking again.
  if (interaction.href.startsWith(REDIRECT)) return interaction;
  expect(interaction.pathname).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
  const allowed = await browser.fetch(`${interaction.pathname}/confirm`, { method: 'POST', headers: { origin: base } });
  expect(allowed.status).toBe(200);
  const resume = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(await allowed.text())![1]!.replace(/&amp;/g, '&');
  const back = await browser.fetch(resume);
  expect(back.status).toBe(303);
  return new URL(back.headers.get('location')!);
}

async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

async function codeFor(
  browser: Browser,
  clientId: string,
  verifierChallenge = pkce(),
): Promise<{ code: string; verifier: string }> {
  const back = await consent(browser, authorizeUrl({ clientId, challenge: verifierChallenge.challenge }));
  expect(back.searchParams.get('iss')).toBe(base);
  expect(back.searchParams.get('state')).toBe('st4te');
  return { code: back.searchParams.get('code')!, verifier: verifierChallenge.verifier };
}

const exchange = (clientId: string, code: string, verifier: string, resource = `${base}/api/mcp`) =>
  token({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
    resource,
  });

async function me(accessToken: string): Promise<number> {
  return (
    await fetch(`${base}/api/v1/me.json`, {
      headers: { authorization: `Bearer ${accessToken}`, 'x-forwarded-for': freshIp() },
    })
  ).status;
}

beforeAll(async () => {
  metadataPort = await freePort();
  metadataServer = http.createServer((req, res) => {
    const id = `http://127.0.0.1:${metadataPort}${req.url}`;
    const docs: Record<string, unknown> = {
      '/good.json': { client_id: id, client_name: 'Metadata Assistant', redirect_uris: [REDIRECT] },
      '/liar.json': {
        client_id: 'https://someone-else.example/client.json',
        client_name: 'Liar',
        redirect_uris: [REDIRECT],
      },
    };
    // Issue 30: a server that hangs up, and a document of the wrong shape.
    if (req.url === '/hangs-up.json') return req.socket.destroy();
    docs['/wrong-shape.json'] = { client_id: id, client_name: 'Wrong Shape', redirect_uris: 'not a list' };
    const doc = docs[req.url ?? ''];
    res
      .writeHead(doc ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'max-age=600' })
      .end(JSON.stringify(doc ?? {}));
  });
  await new Promise<void>((resolve) => metadataServer.listen(metadataPort, '127.0.0.1', resolve));
  stack = await startStack({ OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK_PORTS: String(metadataPort) });
  base = stack.baseUrl;
  db = createDb(stack.databaseUrl, 2);
}, 120_000);

afterAll(async () => {
  await db?.destroy();
  await stack?.stop();
  await new Promise((resolve) => metadataServer?.close(resolve));
});

describe('discovery', () => {
  it('publishes protected resource metadata for the service, the MCP server and the API, and authorization server metadata', async () => {
    for (const [path, resource] of [
      ['/.well-known/oauth-protected-resource', base],
      ['/.well-known/oauth-protected-resource/api/mcp', `${base}/api/mcp`],
      ['/.well-known/oauth-protected-resource/api/v1', `${base}/api/v1`],
    ] as const) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        resource,
        authorization_servers: [base],
        scopes_supported: expect.arrayContaining(['message:write']),
      });
    }
    const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('challenges with resource_metadata: 401 on the MCP server for an invalid token or a tool that needs one, never for a valid bearer token', async () => {
    const mcp = (headers: Record<string, string>, body: unknown) =>
      fetch(`${base}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': freshIp(),
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_profile', arguments: {} } };
    const anonymous = await mcp({}, call);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp", scope="profile:read profile:write photo:write buddy:read buddy:write message:read message:write"`,
    );
    const forged = await mcp({ authorization: 'Bearer not-a-real-token-at-all-000' }, call);
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const publicTool = await mcp({}, { ...call, params: { name: 'list_activities', arguments: {} } });
    expect(publicTool.status).toBe(200);
    const { token: bearer } = await person();
    const withHeader = await mcp({ authorization: `Bearer ${bearer}` }, call);
    expect(withHeader.status).toBe(200);
    const rest = await fetch(`${base}/api/v1/me.json`, { headers: { 'x-forwarded-for': freshIp() } });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1"`,
    );
  });
});

describe('authorization refusals', () => {
  it('never sends a code to a redirect_uri the client did not register', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const res = await browser.fetch(authorizeUrl({ clientId, redirectUri: 'https://evil.example/callback' }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it.each([
    ['no PKCE challenge', { challenge: null }],
    ['the plain PKCE method', { method: 'plain' }],
  ] as const)('refuses %s', async (_name, options) => {
    const { browser } = await person();
    const clientId = await registerClient();
    const res = await browser.fetch(authorizeUrl({ clientId, ...options }));
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('refuses a token for another resource, at the authorization and at the token endpoint', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const res = await browser.fetch(authorizeUrl({ clientId, resource: 'https://other.example/mcp' }));
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    const { code, verifier } = await codeFor(browser, clientId);
    const refused = await exchange(clientId, code, verifier, 'https://other.example/mcp');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_target');
  });
});

describe('codes and tokens', () => {
  it('refuses a missing or wrong PKCE verifier', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const { code } = await codeFor(browser, clientId);
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const second = await codeFor(browser, clientId);
    const missing = await token({
      grant_type: 'authorization_code',
      code: second.code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      resource: `${base}/api/mcp`,
    });
    expect(missing.status).toBe(400);
    expect(['invalid_grant', 'invalid_request']).toContain(missing.body.error);
  });

  it('refuses a replayed code, and the replay revokes what the first exchange gave', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const { code, verifier } = await codeFor(browser, clientId);
    const first = await exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    expect(first.body.token_type).toBe('Bearer');
    expect(await me(first.body.access_token!)).toBe(200);
    const replay = await exchange(clientId, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await me(first.body.access_token!)).toBe(401);
  });

  it('refuses an expired code', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const { code, verifier } = await codeFor(browser, clientId);
    await db
      .updateTable('oauth_payloads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('model', '=', 'AuthorizationCode')
      .where('id', '=', storedOauthId('AuthorizationCode', code))
      .execute();
    const res = await exchange(clientId, code, verifier);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('rotates refresh tokens; a reused one revokes the whole family and the connection', async () => {
    const { browser, token: bearer } = await person();
    const clientId = await registerClient();
    const { code, verifier } = await codeFor(browser, clientId);
    const first = (await exchange(clientId, code, verifier)).body;
    const refresh = (rt: string) =>
      token({ grant_type: 'refresh_token', refresh_token: rt, client_id: clientId, resource: `${base}/api/mcp` });
    const second = await refresh(first.refresh_token!);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(await me(second.body.access_token!)).toBe(200);
    const reused = await refresh(first.refresh_token!);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    expect((await refresh(second.body.refresh_token!)).status).toBe(400);
    expect(await me(second.body.access_token!)).toBe(401);
    const listed = (await (
      await fetch(`${base}/api/v1/me/tokens.json`, {
        headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': freshIp() },
      })
    ).json()) as {
      tokens: Array<{ agentName: string | null; active: boolean }>;
    };
    expect(listed.tokens.find((t) => t.agentName === 'Refusal Tester')?.active).toBe(false);
  });

  it('revocation takes effect at once: from the account, and at the revocation endpoint', async () => {
    const { browser, token: bearer } = await person();
    const clientId = await registerClient();
    const viaAccount = (
      await exchange(clientId, ...(Object.values(await codeFor(browser, clientId)) as [string, string]))
    ).body;
    expect(await me(viaAccount.access_token!)).toBe(200);
    const listed = (await (
      await fetch(`${base}/api/v1/me/tokens.json`, {
        headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': freshIp() },
      })
    ).json()) as {
      tokens: Array<{ id: string; agentName: string | null; active: boolean }>;
    };
    const connection = listed.tokens.find((t) => t.agentName === 'Refusal Tester' && t.active)!;
    const revoked = await fetch(`${base}/api/v1/me/tokens/${connection.id}/revoke.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': freshIp() },
    });
    expect(revoked.status).toBe(200);
    expect(await me(viaAccount.access_token!)).toBe(401);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: viaAccount.refresh_token!,
      client_id: clientId,
      resource: `${base}/api/mcp`,
    });
    expect(refreshed.status).toBe(400);

    const viaEndpoint = (
      await exchange(clientId, ...(Object.values(await codeFor(browser, clientId)) as [string, string]))
    ).body;
    expect(await me(viaEndpoint.access_token!)).toBe(200);
    const res = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: viaEndpoint.access_token!, client_id: clientId }),
    });
    expect(res.status).toBe(200);
    expect(await me(viaEndpoint.access_token!)).toBe(401);
  });
});

describe('client ID metadata documents', () => {
  it('uses a document whose client_id is its own URL, and shows its name on the consent screen', async () => {
    const { browser } = await person();
    const clientId = `http://127.0.0.1:${metadataPort}/good.json`;
    const started = await browser.fetch(authorizeUrl({ clientId }));
    expect(started.status).toBe(303);
    const page = await browser.fetch(started.headers.get('location')!);
    expect((await page.text()).replace(/<!-- -->/g, '')).toContain('Connect Metadata Assistant?');
    const back = await consent(browser, authorizeUrl({ clientId }));
    expect(back.searchParams.get('code')).toBeTruthy();
  });

  it.each([
    ['a document that names another client_id', '/liar.json'],
    ['a document that is not there', '/missing.json'],
    ['a document of the wrong shape', '/wrong-shape.json'],
    ['a server that hangs up', '/hangs-up.json'],
  ])('refuses %s with the site’s page saying the app could not be verified, and logs why', async (_name, path) => {
    const { browser } = await person();
    const clientId = `http://127.0.0.1:${metadataPort}${path}`;
    const res = await browser.fetch(authorizeUrl({ clientId }));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('Buddy Match could not verify this assistant’s app');
    expect(html).toContain('class="site-header"');
    expect(html).not.toContain('oops');
    // The server's log reaches the file through a pipe: under load the line may land a moment after the answer.
    const logLine = () =>
      fs
        .readFileSync(`${stack.dataDir}/server.log`, 'utf8')
        .split('\n')
        .find((l) => l.includes('"oauth_error_page"') && l.includes(clientId));
    await expect
      .poll(logLine, { timeout: 10_000, message: 'one log line names the client and the reason' })
      .toBeTruthy();
    const line = logLine();
    expect(JSON.parse(line!.slice(line!.indexOf('{'))).reason).toBeTruthy();
  });

  it('never fetches a document from a private address', async () => {
    const { browser } = await person();
    const res = await browser.fetch(authorizeUrl({ clientId: 'https://169.254.169.254/latest/meta-data.json' }));
    expect(res.status).toBe(400);
  });
});

/** The device page's address with the code in it, as a link someone sends would be. */
const withCode = (started: { verification_uri: string; user_code: string }) =>
  `${started.verification_uri}?user_code=${encodeURIComponent(started.user_code)}`;

describe('device sign-in (RFC 8628)', () => {
  const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
  async function start(scope = 'profile:read message:read message:write'): Promise<{
    device_code: string;
    user_code: string;
    verification_uri: string;
    interval: number;
    expires_in: number;
  }> {
    const res = await fetch(`${base}/oauth/device/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'buddy-match-device',
        scope,
        resource: `${base}/api/mcp`,
      }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Awaited<ReturnType<typeof start>>;
  }
  const poll = (deviceCode: string) =>
    token({ grant_type: DEVICE, device_code: deviceCode, client_id: 'buddy-match-device' });

  /**
   * The person opens a link that carries the code (as someone could send them; the service
   * gives out none), which does not fill it in, types the code their assistant shows, reads
   * where and when it was requested, and presses Yes (or Cancel).
   */
  async function answer(
    browser: Browser,
    started: { verification_uri: string; user_code: string },
    choice: 'yes' | 'cancel',
  ): Promise<Response> {
    const page = await browser.fetch(withCode(started));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain(started.user_code);
    expect(html).toContain('links cannot fill in the code');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const typed = await browser.fetch('/oauth/device', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ xsrf, user_code: started.user_code.toLowerCase() }),
    });
    expect(typed.status).toBe(200);
    const confirmPage = await typed.text();
    expect(confirmPage).toContain('Only continue if you started this on your own device just now.');
    expect(confirmPage).toMatch(
      /requested from <strong>an unknown place[^<]*<\/strong> <strong>at \d\d:\d\d UTC \(less than a minute ago\)/,
    );
    expect(confirmPage).toContain('Unverified');
    const form = new URLSearchParams({ xsrf, user_code: started.user_code, confirm: 'yes' });
    if (choice === 'cancel') form.set('abort', 'yes');
    const posted = await browser.fetch('/oauth/device', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: form,
    });
    if (choice === 'cancel') return posted;
    expect(posted.status).toBe(303);
    const interaction = new URL(posted.headers.get('location')!, base);
    const consentPage = await browser.fetch(interaction.pathname);
    expect((await consentPage.text()).replace(/<!-- -->/g, '')).toContain('Connect your assistant?');
    const allowed = await browser.fetch(`${interaction.pathname}/confirm`, {
      method: 'POST',
      headers: { origin: base },
    });
    const resume = /http-equiv="refresh" content="0;url=([^"]+)"/
      .exec(await allowed.text())![1]!
      .replace(/&amp;/g, '&');
    return browser.fetch(resume);
  }

  it('approved: the assistant polls, is told to wait and to slow down, then gets tokens that work', async () => {
    const { browser } = await person();
    const started = await start();
    expect(started.verification_uri).toBe(`${base}/oauth/device`);
    expect(started.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect((await poll(started.device_code)).body.error).toBe('authorization_pending');
    expect((await poll(started.device_code)).body.error).toBe('slow_down');
    const done = await answer(browser, started, 'yes');
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Connected');
    const tokens = await poll(started.device_code);
    expect(tokens.status).toBe(200);
    expect(await me(tokens.body.access_token!)).toBe(200);
    expect(tokens.body.refresh_token).toBeTruthy();
  });

  it('issue 41: Connected tells a person whose profile waits for their yes where to give it; the token it gives cannot', async () => {
    const { browser, email } = await person();
    await db
      .updateTable('users')
      .set({ awaiting_person_consent: true })
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .execute();
    const started = await start('profile:read profile:write');
    const done = await answer(browser, started, 'yes');
    expect(done.status).toBe(200);
    const html = await done.text();
    expect(html).toContain('Connected');
    expect(html).toContain('Nobody can see your profile yet');
    expect(html).toContain('href="/account#show-me"');
    const tokens = await poll(started.device_code);
    expect(tokens.status).toBe(200);
    const refused = await fetch(`${base}/api/v1/web/show_me.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.body.access_token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('person_only');
    const row = await db
      .selectFrom('users')
      .select('awaiting_person_consent')
      .where(sql<string>`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    expect(row.awaiting_person_consent).toBe(true);
  });

  it('issue 30: names its interval; a client polling at it gets tokens; one poll too many is refused and revokes nothing', async () => {
    const { browser } = await person();
    const started = await start();
    expect(started.interval).toBe(5);
    // The person approves while the assistant polls as RFC 8628 §3.4–3.5 asks: wait the
    // interval before each poll, 5 s more after slow_down, stop at anything but pending.
    const approval = answer(browser, started, 'yes');
    let interval = started.interval;
    const answers: string[] = [];
    let tokens: Record<string, string> | undefined;
    for (const deadline = Date.now() + 60_000; !tokens && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, interval * 1000));
      const res = await poll(started.device_code);
      if (res.status === 200) tokens = res.body;
      else {
        answers.push(res.body.error!);
        if (res.body.error === 'slow_down') interval += 5;
        else expect(res.body.error).toBe('authorization_pending');
      }
    }
    expect((await approval).status).toBe(200);
    expect(answers, 'a client that keeps to the interval is never told to slow down').not.toContain('slow_down');
    expect(await me(tokens!.access_token!)).toBe(200);
    // The assistant polls once more (a loop that checks too late): refused, nothing revoked.
    const extra = await poll(started.device_code);
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe('invalid_grant');
    expect(extra.body.error_description).toContain('stay valid');
    expect(await me(tokens!.access_token!)).toBe(200);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens!.refresh_token!,
      client_id: 'buddy-match-device',
    });
    expect(refreshed.status).toBe(200);
    expect(await me(refreshed.body.access_token!)).toBe(200);
  }, 90_000);

  it('denied: the assistant is told access_denied', async () => {
    const { browser } = await person();
    const started = await start();
    const cancelled = await answer(browser, started, 'cancel');
    expect(cancelled.status).toBe(200);
    expect((await poll(started.device_code)).body.error).toBe('access_denied');
  });

  it('expired: the assistant is told expired_token', async () => {
    const started = await start();
    await db
      .updateTable('oauth_payloads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('model', '=', 'DeviceCode')
      .where('id', '=', started.device_code)
      .execute();
    const res = await poll(started.device_code);
    expect(res.status).toBe(400);
    expect(['expired_token', 'invalid_grant']).toContain(res.body.error);
  });
});

describe('browser-based clients', () => {
  it('lets a public client exchange its code from a web page (CORS), never a confidential one', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const { code, verifier } = await codeFor(browser, clientId);
    const origin = 'https://inspector.example';
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
        resource: `${base}/api/mcp`,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);

    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Server Client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'client_secret_post',
      }),
    });
    const confidential = (await registered.json()) as { client_id: string; client_secret: string };
    const refused = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'whatever',
        code_verifier: verifier,
        client_id: confidential.client_id,
        client_secret: confidential.client_secret,
        redirect_uri: REDIRECT,
      }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error_description: string }).error_description).toMatch(
      /origin .* not allowed/,
    );
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('issue 28: no blind SSRF, no phishing through device sign-in, no plain tokens at rest', () => {
  const register = (metadata: Record<string, unknown>) =>
    fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata }),
    });

  it('refuses registration fields that make the server fetch, and no connection reaches loopback', async () => {
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      for (const metadata of [
        { sector_identifier_uri: `https://127.0.0.1:${port}/sector` },
        { sector_identifier_uri: `https://[::ffff:127.0.0.1]:${port}/sector` },
        { sector_identifier_uri: `https://localhost:${port}/sector` },
        { jwks_uri: `https://127.0.0.1:${port}/jwks.json` },
        { jwks_uri: `https://[::ffff:127.0.0.1]:${port}/jwks.json` },
        { request_uris: [`https://127.0.0.1:${port}/request`] },
      ]) {
        const res = await register({ client_name: 'Sector Tester', ...metadata });
        const body = (await res.json()) as { error: string; error_description: string };
        expect(res.status, JSON.stringify(metadata)).toBe(400);
        expect(body.error).toBe('invalid_client_metadata');
        expect(body.error_description).toMatch(/is not accepted: this server does not fetch URLs named by a client/);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('a lookalike client cannot get the device grant, nor start device sign-in', async () => {
    const lookalike = await register({
      client_name: 'Buddy Match Safety Check',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      redirect_uris: [],
      response_types: [],
    });
    expect(lookalike.status).toBe(400);
    expect(((await lookalike.json()) as { error: string }).error).toBe('invalid_client_metadata');
    const plainName = await register({
      client_name: 'Safety Check',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      redirect_uris: [],
      response_types: [],
    });
    expect(plainName.status).toBe(400);
    expect(((await plainName.json()) as { error_description: string }).error_description).toContain(
      'only for the pre-registered public client buddy-match-device',
    );
    const namedLikeUs = await register({ client_name: 'Buddy Match' });
    expect(namedLikeUs.status).toBe(400);

    // A client registered for the code flow tries device sign-in with its own id.
    const clientId = await registerClient();
    const started = await fetch(`${base}/oauth/device/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, scope: 'profile:read' }),
    });
    expect(started.status).toBe(400);
    expect(((await started.json()) as { error: string }).error).toBe('unauthorized_client');
  });

  it('marks a client that calls itself Claude as unverified on the consent page', async () => {
    const { browser } = await person();
    const res = await register({ client_name: 'Claude', grant_types: ['authorization_code', 'refresh_token'] });
    expect(res.status).toBe(201);
    const clientId = ((await res.json()) as { client_id: string }).client_id;
    const started = await browser.fetch(authorizeUrl({ clientId }));
    expect(started.status).toBe(303);
    const page = (await (await browser.fetch(started.headers.get('location')!)).text()).replace(/<!-- -->/g, '');
    expect(page).toContain('Connect Claude?');
    expect(page).toContain('Unverified');
    expect(page).not.toContain('>Verified<');
    expect(page).toContain('is not confirmed to be the assistant or service it names');
  });

  // Issue 46 §2: Claude registers dynamically, so its name proves nothing, but the code can only go to
  // the callback it registered: a client that returns to claude.ai is Claude, whatever it is called.
  it('verifies a registered client by the known assistant host it returns to; a name alone stays unverified', async () => {
    const { browser } = await person();
    const callback = 'https://claude.ai/api/mcp/auth_callback';
    const res = await register({
      client_name: 'Claude',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [callback],
    });
    expect(res.status).toBe(201);
    const clientId = ((await res.json()) as { client_id: string }).client_id;
    const started = await browser.fetch(authorizeUrl({ clientId, redirectUri: callback }));
    expect(started.status).toBe(303);
    const page = (await (await browser.fetch(started.headers.get('location')!)).text()).replace(/<!-- -->/g, '');
    expect(page).toContain('Connect Claude?');
    expect(page).toContain('>Verified<');
    expect(page).toContain('Claude: you go back to claude.ai.');
    expect(page).not.toContain('Unverified');
    expect(page).not.toContain('is not confirmed to be the assistant or service it names');
  });

  it('a device link opens an empty code field: without typing the code nothing goes ahead', async () => {
    const { browser } = await person();
    const started = (await (
      await fetch(`${base}/oauth/device/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'buddy-match-device', scope: 'profile:read' }),
      })
    ).json()) as { device_code: string; user_code: string; verification_uri: string };
    expect(started).not.toHaveProperty('verification_uri_complete');
    const page = await browser.fetch(withCode(started));
    const html = await page.text();
    expect(html).not.toContain(started.user_code);
    expect(html).toMatch(/<input id="user_code"(?![^>]*value=)[^>]*name="user_code"/);
    // Submitting the form as the link left it (empty) asks for the code again.
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const submitted = await browser.fetch('/oauth/device', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ xsrf, user_code: '' }),
    });
    expect(await submitted.text()).toContain('That code is not right');
    const still = await token({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: started.device_code,
      client_id: 'buddy-match-device',
    });
    expect(still.body.error).toBe('authorization_pending');
  });

  it('an OAuth token reads the public point in me.json; the exact point needs the person’s own token', async () => {
    const { browser, token: firstParty } = await person();
    const exact = { latitude: 52.52, longitude: 13.405 };
    const moved = await fetch(`${base}/api/v1/me.json`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${firstParty}`,
        'content-type': 'application/json',
        'x-forwarded-for': freshIp(),
      },
      body: JSON.stringify({ coords: exact }),
    });
    expect(moved.status).toBe(200);
    const clientId = await registerClient();
    const { code, verifier } = await codeFor(browser, clientId);
    const thirdParty = (await exchange(clientId, code, verifier)).body.access_token!;
    const read = async (bearer: string) =>
      (
        (await (
          await fetch(`${base}/api/v1/me.json`, {
            headers: { authorization: `Bearer ${bearer}`, 'x-forwarded-for': freshIp() },
          })
        ).json()) as { profile: { id: string; coords: { latitude: number; longitude: number } } }
      ).profile;
    const own = await read(firstParty);
    expect(own.coords).toEqual(exact);
    const viaOauth = await read(thirdParty);
    const stored = await db
      .selectFrom('users')
      .select(['public_latitude', 'public_longitude'])
      .where('id', '=', own.id)
      .executeTakeFirstOrThrow();
    expect(viaOauth.coords).toEqual({ latitude: stored.public_latitude, longitude: stored.public_longitude });
    const km =
      Math.hypot(
        (viaOauth.coords.latitude - exact.latitude) * 111.2,
        (viaOauth.coords.longitude - exact.longitude) * 111.2 * Math.cos((exact.latitude * Math.PI) / 180),
      ) || 0;
    expect(km).toBeGreaterThan(0.5);
  });

  it('stores no access token, refresh token or code in plain text', async () => {
    const { browser } = await person();
    const clientId = await registerClient();
    const { code, verifier } = await codeFor(browser, clientId);
    const issued = (await exchange(clientId, code, verifier)).body;
    const secrets = [issued.access_token!, issued.refresh_token!, code];
    expect(secrets.every(Boolean)).toBe(true);
    const rows = await db.selectFrom('oauth_payloads').select(['model', 'id', 'payload']).execute();
    for (const secret of secrets) {
      expect(rows.filter((row) => row.id === secret)).toEqual([]);
      expect(rows.filter((row) => JSON.stringify(row.payload).includes(secret))).toEqual([]);
    }
    // Stored under their hashes, and still working.
    const ids = new Set(rows.map((row) => row.id));
    expect(ids.has(storedOauthId('AccessToken', issued.access_token!))).toBe(true);
    expect(ids.has(storedOauthId('RefreshToken', issued.refresh_token!))).toBe(true);
    expect(await me(issued.access_token!)).toBe(200);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token!,
      client_id: clientId,
      resource: `${base}/api/mcp`,
    });
    expect(refreshed.status).toBe(200);
    expect(await me(refreshed.body.access_token!)).toBe(200);
  });
});

describe('issue 30: every sign-in begun on the consent page comes back to it, in that browser only', () => {
  const decodeQuotedPrintable = (text: string) =>
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

  /** The newest sign-in link mailed to `email` that is not in `seen`. */
  async function mailedLink(email: string, seen: ReadonlySet<string> = new Set()): Promise<string> {
    const dir = `${stack.dataDir}/mail`;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : []) {
        const raw = decodeQuotedPrintable(fs.readFileSync(`${dir}/${file}`, 'utf8'));
        if (!raw.toLowerCase().includes(`to: ${email.toLowerCase()}`)) continue;
        const link = /https?:\/\/\S+\/signin\/link\?token=bm_sl_[\w-]+/.exec(raw)?.[0];
        if (link && !seen.has(link)) return link;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no sign-in link mailed to ${email}`);
  }

  async function registered(): Promise<string> {
    const email = uniqueEmail('oauth-return');
    const res = await fetch(`${base}/api/v1/register.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
      body: JSON.stringify({ email, displayName: 'Return Tester', password: PASSWORD, emailMagicLink: false }),
    });
    expect(res.status).toBe(201);
    return email;
  }

  const csrfOf = async (browser: Browser) =>
    ((await (await browser.fetch('/auth/csrf')).json()) as { csrfToken: string }).csrfToken;

  /** Asks for an emailed link from this browser's sign-in page, as its form does. */
  async function emailMeALink(browser: Browser, email: string, callbackUrl: string): Promise<void> {
    const res = await browser.fetch('/auth/signin/email', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ csrfToken: await csrfOf(browser), email, callbackUrl }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${base}/signin/check-email`);
  }

  /** Opens the mailed link's page and presses its Sign in button; returns where the browser is sent. */
  async function followLink(browser: Browser, link: string): Promise<string> {
    const page = await browser.fetch(link);
    expect(page.status).toBe(200);
    const action = /action="(\/auth\/callback\/email\?[^"]+)"/.exec(await page.text())![1]!.replace(/&amp;/g, '&');
    const used = await browser.fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ csrfToken: await csrfOf(browser) }),
    });
    expect(used.status).toBe(302);
    return used.headers.get('location')!;
  }

  it('the emailed link, after "Back to sign in", lands on the consent step, and Allow gives the code', async () => {
    const email = await registered();
    const browser = new Browser();
    const clientId = await registerClient();
    const started = await browser.fetch(authorizeUrl({ clientId }));
    const consentPath = new URL(started.headers.get('location')!, base).pathname;
    const leaving = await browser.fetch(`${consentPath}/signin`);
    expect(leaving.status).toBe(303);
    expect(leaving.headers.get('location')).toBe(`/signin?callbackUrl=${encodeURIComponent(consentPath)}`);
    expect(leaving.headers.get('set-cookie')).toMatch(
      /buddy\.oauth-pending=[\w-]+; Max-Age=900; Path=\/; HttpOnly; SameSite=Lax/,
    );
    // "Back to sign in" on the check-email page is a plain /signin: it still carries the request.
    const signinPage = await (await browser.fetch('/signin')).text();
    expect(signinPage).toContain(`name="callbackUrl" value="${consentPath}"`);
    await emailMeALink(browser, email, consentPath);
    expect(await followLink(browser, await mailedLink(email))).toBe(`${base}${consentPath}`);
    const allowed = await browser.fetch(`${consentPath}/confirm`, { method: 'POST', headers: { origin: base } });
    expect(allowed.status).toBe(200);
    const resume = /http-equiv="refresh" content="0;url=([^"]+)"/
      .exec(await allowed.text())![1]!
      .replace(/&amp;/g, '&');
    const back = await browser.fetch(resume);
    expect(new URL(back.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    // Answered: the pending request is forgotten, a later sign-in goes to the account.
    const later = await browser.fetch('/signin');
    expect(new URL(later.headers.get('location')!, base).pathname).toBe('/account');
  });

  it('password sign-in begun on the consent page comes back to it', async () => {
    const email = await registered();
    const browser = new Browser();
    const started = await browser.fetch(authorizeUrl({ clientId: await registerClient() }));
    const consentPath = new URL(started.headers.get('location')!, base).pathname;
    await browser.fetch(`${consentPath}/signin`);
    const signedIn = await browser.fetch('/auth/callback/password', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({
        csrfToken: await csrfOf(browser),
        email,
        password: PASSWORD,
        callbackUrl: consentPath,
      }),
    });
    expect(signedIn.headers.get('location')).toBe(`${base}${consentPath}`);
  });

  it('attack: a link or a sign-in naming someone else’s consent step never lands there', async () => {
    // The attacker starts an authorization for their own client and sends its consent step around.
    const attacker = new Browser();
    const started = await attacker.fetch(authorizeUrl({ clientId: await registerClient() }));
    const consentPath = new URL(started.headers.get('location')!, base).pathname;
    await attacker.fetch(`${consentPath}/signin`);

    const email = await registered();
    const victim = new Browser();
    // The consent page's own sign-in route does not mark a browser without the request's cookie.
    const leaving = await victim.fetch(`${consentPath}/signin`);
    expect(leaving.headers.get('location')).toBe('/signin');
    expect(leaving.headers.get('set-cookie') ?? '').not.toContain('oauth-pending');
    // A sign-in page or a link that names the consent step: the victim lands on the account.
    expect(await (await victim.fetch(`/signin?callbackUrl=${encodeURIComponent(consentPath)}`)).text()).toContain(
      'name="callbackUrl" value="/account"',
    );
    await emailMeALink(victim, email, consentPath);
    const link = await mailedLink(email);
    expect(await followLink(victim, `${link}&callbackUrl=${encodeURIComponent(consentPath)}`)).toBe(`${base}/account`);
    // A crafted form that posts the consent step as callbackUrl straight to Auth.js.
    const other = new Browser();
    await emailMeALink(other, email, '/account');
    const token = new URL(await mailedLink(email, new Set([link]))).searchParams.get('token')!;
    const crafted = await other.fetch(
      `/auth/callback/email?${new URLSearchParams({ token, callbackUrl: consentPath })}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ csrfToken: await csrfOf(other) }),
      },
    );
    expect(crafted.headers.get('location')).toBe(`${base}/account`);
    // The attacker's own link in the attacker's browser does come back (the control).
    const attackerEmail = await registered();
    await emailMeALink(attacker, attackerEmail, consentPath);
    expect(await followLink(attacker, await mailedLink(attackerEmail))).toBe(`${base}${consentPath}`);
  });
});
