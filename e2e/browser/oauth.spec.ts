// Connecting an assistant with OAuth, end to end with the real clients: the official MCP
// TypeScript SDK's OAuth support (discovery from the 401, dynamic registration, PKCE,
// resource indicator, code exchange, refresh) and Chromium for the person's sign-in and
// consent. The assistant's redirect URI is a real loopback HTTP server, as a native MCP
// host would run.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import selfsigned from 'selfsigned';
import { createDb } from '@/db';
import { storedOauthId } from '@/lib/accounts/oauth-stored-id';
import {
  baseUrl,
  expect,
  expectAccessible,
  freshIp,
  outboxLink,
  register,
  screenshot,
  signIn,
  test,
  uniqueEmail,
} from './support';

test.describe.configure({ timeout: 90_000 });

/** The assistant's side: where it keeps what the SDK hands it, in memory. */
class AssistantAuth implements OAuthClientProvider {
  clientMetadataUrl?: string;
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The loopback redirect URI: resolves with the query the browser brought back. */
async function callbackServer(): Promise<{ url: string; next: () => Promise<URLSearchParams>; close: () => void }> {
  let deliver: (q: URLSearchParams) => void = () => {};
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!DOCTYPE html><title>Assistant</title><h1>You can close this tab</h1>');
    deliver(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise((resolve) => (deliver = resolve)),
    close: () => server.close(),
  };
}

function textOf(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');
}

test('an MCP host connects with OAuth: 401, discovery, registration, sign-in and consent in the browser, tool calls, refresh', async ({
  page,
}, testInfo) => {
  const person = await register(page.request, { displayName: 'Oauth Person' });
  const callback = await callbackServer();
  const auth = new AssistantAuth(callback.url);
  const mcpUrl = new URL(`${baseUrl()}/api/mcp`);
  let transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
  let client = new Client({ name: 'test-assistant', version: '1.0.0' });
  try {
    // Without a token the public tools work…
    await client.connect(transport);
    const activities = await client.callTool({ name: 'list_activities', arguments: {} });
    expect(textOf(activities)).toContain('hiking');
    // …and a tool that acts for a person is answered with 401, which starts OAuth.
    await expect(client.callTool({ name: 'get_my_profile', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.client?.client_id, 'dynamic registration gave a client id').toBeTruthy();
    const authorizationUrl = auth.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${baseUrl()}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcpUrl.href);

    // The person, not signed in here: the authorize page offers sign-in or a new account.
    await page.goto(authorizationUrl.href);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Test Assistant to Buddy Match');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Sign in' }).click();
    const consentPath = decodeURIComponent(new URL(page.url()).searchParams.get('callbackUrl')!);
    expect(consentPath).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
    await signIn(page, person.email, undefined, consentPath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Test Assistant?');
    await expect(page.getByRole('list', { name: 'What it will be able to do' })).toContainText('Send messages for you');
    await expect(page.getByRole('link', { name: 'Connected assistants' })).toHaveAttribute('href', '/account/agents');
    await expectAccessible(page);
    await screenshot(page, testInfo, 'oauth-consent');
    const brought = callback.next();
    await page.getByRole('button', { name: 'Allow' }).click();
    const query = await brought;
    expect(query.get('iss')).toBe(baseUrl()); // RFC 9207
    const code = query.get('code')!;
    expect(code).toBeTruthy();

    await transport.finishAuth(code);
    expect(auth.saved?.access_token).toBeTruthy();
    expect(auth.saved?.refresh_token).toBeTruthy();
    await client.close();
    transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(transport);
    const me = await client.callTool({ name: 'get_my_profile', arguments: {} });
    expect(me.isError ?? false).toBe(false);
    expect(textOf(me)).toContain('Oauth Person');

    // The connection is listed with the person's other assistants, under the assistant's name.
    const listed = await page.request.get(`${baseUrl()}/api/v1/me/tokens.json`, {
      headers: { authorization: `Bearer ${person.token}` },
    });
    const tokens = (
      (await listed.json()) as { tokens: Array<{ agentName: string | null; label: string | null; active: boolean }> }
    ).tokens;
    expect(tokens).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agentName: 'Test Assistant', label: 'Connected with OAuth', active: true }),
      ]),
    );

    // Refresh: a new access token, and the old refresh token is spent.
    const before = auth.saved!;
    const db = createDb(process.env.E2E_DATABASE_URL!, 1);
    try {
      await db
        .updateTable('oauth_payloads')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('model', '=', 'AccessToken')
        .where('id', '=', storedOauthId('AccessToken', before.access_token))
        .execute();
    } finally {
      await db.destroy();
    }
    const refreshed = await fetch(`${baseUrl()}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: before.refresh_token!,
        client_id: auth.client!.client_id,
        resource: mcpUrl.href,
      }),
    });
    expect(refreshed.status).toBe(200);
    const renewed = (await refreshed.json()) as OAuthTokens;
    expect(renewed.access_token).not.toBe(before.access_token);
    expect(renewed.refresh_token).not.toBe(before.refresh_token);
    auth.saved = renewed;
    const again = await client.callTool({ name: 'get_my_profile', arguments: {} });
    expect(again.isError ?? false).toBe(false);

    // The person sees the connection among Connected assistants and disconnects it there.
    await page.goto(`${baseUrl()}/account/agents`);
    const entry = page
      .getByRole('list', { name: 'Your assistants' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'Test Assistant' }) });
    await expect(entry.getByRole('list', { name: 'Test Assistant: connections' })).toContainText(
      'Connected with OAuth',
    );
    await entry.getByRole('button', { name: 'Disconnect Test Assistant (Connected with OAuth)' }).click();
    await expect(entry.locator('.token-head .tag').first()).toHaveText('Disconnected');
    const after = await fetch(`${baseUrl()}/api/v1/me.json`, {
      headers: { authorization: `Bearer ${renewed.access_token}` },
    });
    expect(after.status).toBe(401);
  } finally {
    await client.close().catch(() => undefined);
    callback.close();
  }
});

test('someone new signs up on the authorize page, and the assistant is connected to the new account', async ({
  page,
}, testInfo) => {
  const callback = await callbackServer();
  const auth = new AssistantAuth(callback.url);
  const mcpUrl = new URL(`${baseUrl()}/api/mcp`);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  try {
    await client.connect(transport);
    await expect(client.callTool({ name: 'get_my_profile', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
    await page.goto(auth.authorizationUrl!.href);
    await page.getByRole('link', { name: 'Create an account' }).click();
    const email = uniqueEmail('oauth-signup');
    await page.getByLabel('Email (required)').fill(email);
    await page.getByLabel('Name (required)').fill('Noor');
    await page.getByLabel('Activities').fill('hiking, bouldering');
    await page.getByLabel('When you are free').fill('weekends');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page);
    await screenshot(page, testInfo, 'oauth-signup-done');
    // The signup signed this browser in: it goes straight back to the consent screen.
    await expect(page.getByTestId('browser-signin')).toHaveText('You’re signed in on this browser.', {
      timeout: 20_000,
    });
    await page.getByRole('link', { name: 'Continue to your assistant' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Test Assistant?');
    const brought = callback.next();
    await page.getByRole('button', { name: 'Allow' }).click();
    await transport.finishAuth((await brought).get('code')!);
    const me = await client.callTool({ name: 'get_my_profile', arguments: {} });
    expect(textOf(me)).toContain(email);
    expect(textOf(me)).toContain('rock_climbing');
  } finally {
    await client.close().catch(() => undefined);
    callback.close();
  }
});

test('device sign-in: the person checks the code the assistant shows, approves, and the assistant gets a token', async ({
  page,
}, testInfo) => {
  const person = await register(page.request, { displayName: 'Device Person' });
  const started = (await (
    await fetch(`${baseUrl()}/oauth/device/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'buddy-match-device', resource: `${baseUrl()}/api/mcp` }),
    })
  ).json()) as { device_code: string; user_code: string; verification_uri: string };

  // Typing the code by hand, as from another screen.
  await page.goto(started.verification_uri);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect an assistant');
  await expectAccessible(page);
  await page.getByLabel('Code').fill('WRNG-CODE');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right');
  await page.getByLabel('Code').fill(started.user_code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Is this your code?');
  await expect(page.getByText(started.user_code)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'device-confirm');
  await page.getByRole('button', { name: 'Yes, continue' }).click();
  await page.getByRole('link', { name: 'Sign in' }).click();
  const consentPath = decodeURIComponent(new URL(page.url()).searchParams.get('callbackUrl')!);
  await signIn(page, person.email, undefined, consentPath);
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connected');
  await expectAccessible(page);

  const tokens = (await (
    await fetch(`${baseUrl()}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: started.device_code,
        client_id: 'buddy-match-device',
      }),
    })
  ).json()) as { access_token: string };
  const me = await fetch(`${baseUrl()}/api/v1/me.json`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(me.status).toBe(200);
});

test('an MCP host that identifies itself with a client ID metadata document (no registration) connects the same way', async ({
  page,
}) => {
  const person = await register(page.request, { displayName: 'Metadata Person' });
  const callback = await callbackServer();
  // The host's document, on https (the SDK requires it) with a self-signed certificate, on the
  // one loopback port this test stack lets the server fetch from.
  const port = Number(process.env.E2E_CLIENT_METADATA_PORT);
  // A path of its own: the server keeps a fetched document for its max-age, and each run's redirect URI differs.
  const documentPath = `/oauth/client-${crypto.randomUUID()}.json`;
  const clientId = `https://127.0.0.1:${port}${documentPath}`;
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], { keySize: 2048 });
  let fetched = 0;
  const documentServer = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    fetched += 1;
    const body = {
      client_id: clientId,
      client_name: 'Metadata Host',
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
    res
      .writeHead(req.url === documentPath ? 200 : 404, {
        'content-type': 'application/json',
        'cache-control': 'max-age=600',
      })
      .end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => documentServer.listen(port, '127.0.0.1', resolve));
  const auth = new AssistantAuth(callback.url);
  auth.clientMetadataUrl = clientId;
  const mcpUrl = new URL(`${baseUrl()}/api/mcp`);
  let transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
  let client = new Client({ name: 'metadata-host', version: '1.0.0' });
  try {
    await client.connect(transport);
    await expect(client.callTool({ name: 'get_my_profile', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(auth.client?.client_id, 'the SDK used the document URL as its client_id, without registering').toBe(
      clientId,
    );
    await page.goto(auth.authorizationUrl!.href);
    await page.getByRole('link', { name: 'Sign in' }).click();
    const consentPath = decodeURIComponent(new URL(page.url()).searchParams.get('callbackUrl')!);
    await signIn(page, person.email, undefined, consentPath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Metadata Host?');
    expect(fetched).toBeGreaterThan(0);
    const brought = callback.next();
    await page.getByRole('button', { name: 'Allow' }).click();
    await transport.finishAuth((await brought).get('code')!);
    await client.close();
    transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    client = new Client({ name: 'metadata-host', version: '1.0.0' });
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'get_my_profile', arguments: {} }))).toContain('Metadata Person');
  } finally {
    await client.close().catch(() => undefined);
    callback.close();
    documentServer.close();
  }
});

test('issue 30: an emailed link asked for on the way to consent comes back to Allow, never in another browser', async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one viewport is enough for this flow');
  const person = await register(page.request, { displayName: 'Linda Link' });
  const callback = await callbackServer();
  try {
    const registered = await fetch(`${baseUrl()}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Link Assistant',
        redirect_uris: [callback.url],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const verifier = crypto.randomBytes(32).toString('base64url');
    const authorize = `${baseUrl()}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.url,
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'st4te',
    })}`;
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
    await page.goto(authorize);
    await page.getByRole('link', { name: 'Sign in' }).click();
    const consentPath = decodeURIComponent(new URL(page.url()).searchParams.get('callbackUrl')!);
    expect(consentPath).toMatch(/^\/oauth\/interaction\/[\w-]+$/);

    // The person has no password (their assistant made it): "Email me a sign-in link",
    // then "Back to sign in" still belongs to the request.
    await page.locator('#link-email').fill(person.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await expect(page.locator('input[name="callbackUrl"]').first()).toHaveValue(consentPath);
    const first = await outboxLink(person.email);

    // Attack: the same kind of link opened in another browser signs in there, to the
    // account, never onto the consent step this browser is waiting at.
    const other = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': freshIp() } });
    const otherPage = await other.newPage();
    await otherPage.goto(`${first}&callbackUrl=${encodeURIComponent(consentPath)}`);
    await otherPage.getByRole('button', { name: 'Continue' }).click();
    await otherPage.waitForURL(`${baseUrl()}/account`);
    await expect(otherPage.getByRole('heading', { level: 1 })).toHaveText('Hi, Linda Link');
    await other.close();

    // In the browser that started it, a new link lands on the consent step.
    await page.locator('#link-email').fill(person.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await page.goto(await outboxLink(person.email, new Set([first])));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect Link Assistant?');
    expect(new URL(page.url()).pathname).toBe(consentPath);
    await screenshot(page, testInfo, 'oauth-consent-after-emailed-link');
    const brought = callback.next();
    await page.getByRole('button', { name: 'Allow' }).click();
    expect((await brought).get('code')).toBeTruthy();
  } finally {
    callback.close();
  }
});
