// The agent surfaces against the real server: OpenAPI, the MCP server (with the official
// SDK client over HTTP), the MCP manifest, the guides, /docs and the JSON 404.
import { dereference, validate } from '@readme/openapi-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { endpoints, type HttpMethod } from '@/lib/contract';
import { register, registerResponseSchema } from '@/lib/contract/accounts';
import { errorEnvelopeSchema } from '@/lib/contract/errors';
import { getPublicProfile, ownProfileSchema } from '@/lib/contract/profiles';
import { isMcpTool } from '@/lib/contract/define';
import { api, baseUrl, freshIp, registerUser, testDb, uniqueEmail } from './client';
import { call as callApi, refused } from './contract-client';

type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};

const openClients: Client[] = [];
afterAll(async () => {
  await Promise.all(openClients.map((c) => c.close().catch(() => {})));
});

/** An MCP client (the official v1 SDK) talking Streamable HTTP to /api/mcp. */
async function mcpClient(options: { token?: string; ip?: string } = {}): Promise<Client> {
  const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? freshIp() };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'agent-surfaces-test', version: '1.0.0' });
  await client.connect(transport);
  openClients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;
const text = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');

const toolIdFor = (method: HttpMethod, path: string) =>
  endpoints.find((e) => e.method === method && e.path === path)?.id;

describe('GET /.well-known/openapi.json', () => {
  it('serves a valid OpenAPI 3.0.3 document of exactly the contract, from PUBLIC_BASE_URL, readable cross-origin', async () => {
    const res = await api('GET', '/.well-known/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    const result = await validate(structuredClone(res.body));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(res.body).toMatchObject({ openapi: '3.0.3', info: { version: '1.0.0' }, servers: [{ url: baseUrl() }] });
    const served = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(served).toEqual(endpoints.map((e) => `${e.method} ${e.path}`).sort());
    const deref = (await dereference(structuredClone(res.body))) as Record<string, any>;
    // 401 is the route wrapper's: the `default` response, which names its status and code.
    const fallback = deref.paths['/api/v1/me.json'].get.responses.default;
    expect(fallback.description).toContain('401 unauthorized');
    expect(fallback.content['application/json'].schema.properties.error.required).toEqual(['code', 'message']);
  });

  it('answers a CORS preflight', async () => {
    const res = await api('OPTIONS', '/.well-known/openapi.json', {
      headers: { origin: 'https://other.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /.well-known/mcp.json', () => {
  it('names the server, endpoint, transport, auth scheme and every tool', async () => {
    const res = await api('GET', '/.well-known/mcp.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(res.body).toMatchObject({
      name: 'buddy-match',
      version: '1.0.0',
      endpoint: `${baseUrl()}/api/mcp`,
      transport: { type: 'streamable-http', url: `${baseUrl()}/api/mcp` },
      authentication: { type: 'bearer' },
    });
    const tools = (res.body.tools as Array<{ name: string; annotations: Record<string, boolean> }>).map((t) => t.name);
    expect(tools).toEqual([...endpoints.filter(isMcpTool).map((e) => e.id), 'get_guide']);
    // Issue 47: what the service does now (plans and meetups too), where its policies are, and what to ask.
    expect(res.body.description).toMatch(/plan a meeting, and join small group meetups/);
    expect(res.body.documentation).toMatchObject({
      privacy_policy: `${baseUrl()}/privacy`,
      terms_of_use: `${baseUrl()}/terms`,
    });
    expect(res.body.example_prompts.length).toBeGreaterThanOrEqual(3);
    for (const example of res.body.example_prompts as Array<{ prompt: string; tools: string[] }>)
      for (const tool of example.tools) expect(tools, example.prompt).toContain(tool);
  });
});

describe('GET /server.json (issue 47)', () => {
  it("is this server's MCP Registry entry, for the URL it is served at", async () => {
    const res = await api('GET', '/server.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: `${new URL(baseUrl()).hostname}/buddy-match`,
      remotes: [{ type: 'streamable-http', url: `${baseUrl()}/api/mcp` }],
    });
    expect(res.body.description.length).toBeLessThanOrEqual(100);
  });
});

describe('the MCP server at /api/mcp', () => {
  it('lists one tool per contract endpoint with the contract schemas and truthful annotations', async () => {
    const client = await mcpClient();
    expect(client.getServerVersion()).toMatchObject({ name: 'buddy-match', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/register tool/);
    const { tools } = await client.listTools();
    // Every contract endpoint but the excluded ones, the guide tool, and the app-only tool a person's
    // tap in an MCP Apps view calls (issue 32 §2).
    expect(tools.map((t) => t.name).sort()).toEqual(
      [...endpoints.filter(isMcpTool).map((e) => e.id), 'get_guide', 'confirm_action'].sort(),
    );
    const register = tools.find((t) => t.name === 'register')!;
    expect(register.inputSchema).toMatchObject({ type: 'object', required: ['email', 'displayName'] });
    expect(Object.keys(register.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['email', 'activities', 'availability_text', 'photo']),
    );
    // The hints on every tool, as the contract entry declares them (issue 32 §3); idempotentHint on
    // the tools that write, where the MCP schema gives it a meaning (issue 47).
    expect(register.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    const me = tools.find((t) => t.name === 'get_my_profile')!;
    expect(me.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(me.title).toBe('Your profile');
    for (const tool of tools) {
      const hints = tool.annotations as Record<string, unknown>;
      const names = [
        'readOnlyHint',
        'destructiveHint',
        'openWorldHint',
        ...(hints.readOnlyHint ? [] : ['idempotentHint']),
      ];
      for (const name of names) expect(typeof hints[name], `${tool.name} ${name}`).toBe('boolean');
      expect(typeof tool.title, tool.name).toBe('string');
    }
    // No output schemas: results are the endpoint's JSON as text (issue 16: they were half of tools/list).
    expect(tools.every((t) => t.outputSchema === undefined)).toBe(true);
    expect(tools.find((t) => t.name === 'update_my_profile')!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('signs up through the register tool, then uses the returned token on the profile tools', async () => {
    const email = uniqueEmail('mcp');
    const anonymous = await mcpClient();
    const registered = await call(anonymous, 'register', {
      email,
      displayName: 'Mika',
      activities: ['hiking', 'xyzzy plugh'],
      availability_text: 'weekends',
      agentName: 'McpTestAgent',
    });
    expect(registered.isError ?? false).toBe(false);
    const body = registerResponseSchema.parse(JSON.parse(registered.content[0]!.text!));
    expect(registered.structuredContent).toBeUndefined();
    // How to go on depends on the host: the answer names all three ways.
    expect(registered.content[1]!.text).toMatch(
      /OAuth hosts.*HTTP 401.*Authorization: Bearer <auth\.token>.*device sign-in.*\/oauth\/device\/auth/s,
    );
    expect(body.user.email).toBe(email);
    expect(body.warnings.activities_unmatched).toEqual(['xyzzy plugh']);
    const row = await testDb()
      .selectFrom('users')
      .select(['id', 'agent_name', 'activities'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: body.user.id, agent_name: 'McpTestAgent', activities: ['hiking'] });

    const authed = await mcpClient({ token: body.auth.token });
    const me = await call(authed, 'get_my_profile');
    expect(me.isError ?? false).toBe(false);
    const profile = ownProfileSchema.parse((JSON.parse(text(me)) as { profile: unknown }).profile);
    expect(profile).toMatchObject({ id: body.user.id, email, displayName: 'Mika', activities: ['hiking'] });

    const updated = await call(authed, 'update_my_profile', { aboutMe: 'Set over MCP', agentName: 'McpTestAgent' });
    expect(updated.isError ?? false).toBe(false);
    const stored = await testDb()
      .selectFrom('users')
      .select('about_me')
      .where('id', '=', body.user.id)
      .executeTakeFirstOrThrow();
    expect(stored.about_me).toBe('Set over MCP');

    const publicProfile = await call(anonymous, 'get_public_profile', { slug: body.user.slug });
    expect(JSON.parse(text(publicProfile))).toMatchObject({
      profile: { slug: body.user.slug, aboutMe: 'Set over MCP' },
    });
  });

  it.each([
    ['a bad email', { email: 'not-an-email', displayName: 'X' }, 'validation_failed', /- email: /],
    [
      'a birthday under 13',
      { email: 'young@example.com', displayName: 'Y', birthday: new Date().toISOString().slice(0, 10) },
      'validation_failed',
      /- birthday: .*13/,
    ],
    [
      'an unknown field',
      { email: 'z@example.com', displayName: 'Z', favouriteColour: 'blue' },
      'validation_failed',
      /- favouriteColour: unknown field/,
    ],
  ])('returns the HTTP error envelope as an isError result for %s', async (_name, args, code, detail) => {
    const client = await mcpClient();
    const result = await call(client, 'register', args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toMatch(new RegExp(`Error 400 ${code}`));
    expect(text(result)).toMatch(detail);
    const envelope = errorEnvelopeSchema.parse(JSON.parse(result.content[1]!.text!));
    expect(envelope.error.code).toBe(code);
    expect(envelope.error.hint).toBeTruthy();
    const stored = await testDb().selectFrom('users').select('id').where('email', '=', String(args.email)).execute();
    expect(stored).toEqual([]);
  });

  it('answers a tool that acts for a person without a token, or with a bad one, with the OAuth challenge (HTTP 401)', async () => {
    const client = await mcpClient();
    const error = await call(client, 'get_my_profile').then(
      () => null,
      (e: unknown) => e as Error & { code?: number },
    );
    expect(error?.code ?? error?.message).toSatisfy((v: unknown) => v === 401 || /401/.test(String(v)));
    // Public tools still work without a token on the same connection.
    expect((await call(client, 'list_activities')).isError ?? false).toBe(false);

    const res = await fetch(`${baseUrl()}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer bm_at_not_a_real_token',
        'x-forwarded-for': freshIp(),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/mcp", error="invalid_token"$/,
    );
    expect((await res.json()).error.hint).toMatch(/device sign-in/);
  });

  it('applies the per-IP registration limit to the MCP caller’s own address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i += 1) {
      await callApi(register, { ip, body: { email: uniqueEmail('fill'), displayName: 'Filler' } });
    }
    const client = await mcpClient({ ip });
    const result = await call(client, 'register', { email: uniqueEmail('limited'), displayName: 'Late' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Error 429 rate_limited/);
    expect(text(result)).toMatch(/Retry after \d+ seconds/);
    const other = await call(await mcpClient(), 'register', {
      email: uniqueEmail('other-ip'),
      displayName: 'Elsewhere',
    });
    expect(other.isError ?? false).toBe(false);
  });

  it('validates Origin: absent or our own passes, a foreign browser origin is refused', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (origin?: string) =>
      api('POST', '/api/mcp', {
        body: initialize,
        headers: { accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
      });
    const foreign = await post('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect((await post('null')).status).toBe(403);
    expect((await post(baseUrl())).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect((await api('GET', '/api/mcp', { headers: { accept: 'text/event-stream' } })).status).toBe(405);
  });
});

// Runs once the buddy and chat endpoints (other issues) are in the contract: two people
// signed up over MCP, a buddy request, an accept with a first message, and a reply.
const flowTools = {
  sendRequest: toolIdFor('POST', '/api/v1/users/{slug}/buddy_request.json'),
  listRequests: toolIdFor('GET', '/api/v1/buddy_requests.json'),
  accept: toolIdFor('POST', '/api/v1/buddy_requests/{invitationId}/accept.json'),
  chats: toolIdFor('GET', '/api/v1/chats.json'),
  readMessages: toolIdFor('GET', '/api/v1/chats/{chatId}/messages.json'),
  sendMessage: toolIdFor('POST', '/api/v1/chats/{chatId}/messages.json'),
};

/** The first string value under a key matching `key` anywhere in a JSON value. */
function findString(value: unknown, key: RegExp): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findString(item, key);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (key.test(k) && typeof v === 'string') return v;
    for (const v of Object.values(value)) {
      const found = findString(v, key);
      if (found) return found;
    }
  }
  return undefined;
}

describe.skipIf(Object.values(flowTools).some((id) => id === undefined))(
  'a message flow between two people over MCP',
  () => {
    it('requests, accepts with a first message and replies', async () => {
      const [a, b] = [await registerUser({ displayName: 'Ana' }), await registerUser({ displayName: 'Ben' })];
      const ana = await mcpClient({ token: a.token });
      const ben = await mcpClient({ token: b.token });
      const sent = await call(ana, flowTools.sendRequest!, { slug: b.slug, message: 'Hike on Saturday?' });
      expect(sent.isError ?? false, text(sent)).toBe(false);
      const requests = await call(ben, flowTools.listRequests!);
      const invitationId = findString(JSON.parse(text(requests)), /^(invitationId|id)$/);
      expect(invitationId).toBeTruthy();
      const accepted = await call(ben, flowTools.accept!, { invitationId, firstMessage: 'Yes, let us go!' });
      expect(accepted.isError ?? false, text(accepted)).toBe(false);
      const chats = await call(ana, flowTools.chats!);
      const chatId = findString(JSON.parse(text(chats)), /^(chatId|id)$/);
      expect(chatId).toBeTruthy();
      const reply = await call(ana, flowTools.sendMessage!, { chatId, text: 'Great, 9am at the trailhead.' });
      expect(reply.isError ?? false, text(reply)).toBe(false);
      const messages = await call(ben, flowTools.readMessages!, { chatId });
      expect(text(messages)).toContain('Yes, let us go!');
      expect(text(messages)).toContain('Great, 9am at the trailhead.');
    });
  },
);

describe('the guides', () => {
  it.each([
    ['/SIGNUP.md', 'text/markdown; charset=utf-8', /^# Sign a person up/],
    ['/AGENTS.md', 'text/markdown; charset=utf-8', /^# Acting for a person/],
    ['/llms.txt', 'text/plain; charset=utf-8', /^# Buddy Match\n\n> /],
  ])('serves %s as %s with absolute links to this server', async (path, type, start) => {
    const res = await api('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toMatch(start);
    expect(res.body).toContain(`${baseUrl()}/`);
    expect(res.body).not.toMatch(/localhost:3000/);
  });

  it('mentions every endpoint path in AGENTS.md or llms.txt, and every error code in AGENTS.md', async () => {
    const agents = (await api('GET', '/AGENTS.md')).body as string;
    const llms = (await api('GET', '/llms.txt')).body as string;
    for (const spec of endpoints) expect(agents.includes(spec.path) || llms.includes(spec.path), spec.path).toBe(true);
    for (const code of Object.keys((await import('@/lib/http/error-response')).ERROR_STATUS))
      expect(agents).toContain(`\`${code}\``);
  });
});

describe('GET /docs', () => {
  it('renders the reference page for people from the contract, with no external assets', async () => {
    const res = await api('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = res.body as string;
    // Paths carry <wbr> after their slashes so they wrap well on a phone.
    const text = html.replace(/<wbr\/?>/g, '');
    for (const spec of endpoints) expect(text).toContain(spec.path.replace(/&/g, '&amp;'));
    expect(html).toContain(baseUrl());
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="https?:\/\//);
  });
});

describe('unknown API paths', () => {
  it('answer a JSON not_found envelope with a hint, not an HTML page', async () => {
    const res = await api('POST', '/api/v1/no/such/thing.json', { body: {} });
    expect(res.status).toBe(404);
    const envelope = errorEnvelopeSchema.parse(res.body);
    expect(envelope.error.code).toBe('not_found');
    expect(envelope.error.hint).toMatch(/index\.json/);
  });

  it('every API error envelope carries a hint', async () => {
    const error = await refused(getPublicProfile, { params: { slug: 'no-such-person-anywhere' } }, 'not_found');
    expect(error.hint).toBeTruthy();
  });
});
