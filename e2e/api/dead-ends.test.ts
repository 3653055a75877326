// Issue 30 §3 and §4 against the real server: every dead end an agent met on its second
// day now says the way out (the home page, a lost token, a guessed path, a report in plain
// words), and the MCP tools publish input schemas a validating host lets the forgiven slips through.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import * as safety from '@/lib/contract/safety';
import { api, baseUrl, freshIp, registerUser, testDb, uniqueEmail } from './client';
import { call } from './contract-client';

describe('the home page for agents', () => {
  it('says where the agents’ version is within the first 2 KB, before the stylesheet, and in a Link header', async () => {
    const res = await fetch(`${baseUrl()}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe('</llms.txt>; rel="alternate"; type="text/markdown"');
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    const html = await res.text();
    const first2k = Buffer.from(html).subarray(0, 2048).toString();
    expect(first2k).toMatch(
      /<!-- For AI agents: this page in Markdown is \/llms\.txt \(or send Accept: text\/markdown\)/,
    );
    expect(first2k).toMatch(/<link rel="alternate" type="text\/markdown" href="\/llms.txt"\/>/);
    expect(html.indexOf('/llms.txt')).toBeLessThan(html.indexOf('<style'));
    expect(html.length).toBeGreaterThan(20_000); // the stylesheet is still inline for people
  });

  it('answers Accept: text/markdown with llms.txt, and a browser’s Accept with the page', async () => {
    const llms = await (await fetch(`${baseUrl()}/llms.txt`)).text();
    for (const accept of ['text/markdown', 'text/markdown, text/html;q=0.9', 'text/x-markdown']) {
      const res = await fetch(`${baseUrl()}/`, { headers: { accept } });
      expect(res.headers.get('content-type'), accept).toBe('text/markdown; charset=utf-8');
      expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
      expect(await res.text()).toBe(llms);
    }
    for (const accept of [
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      '*/*',
      'text/html, text/markdown;q=0.5',
    ]) {
      const res = await fetch(`${baseUrl()}/`, { headers: { accept } });
      expect(res.headers.get('content-type'), accept).toBe('text/html; charset=utf-8');
    }
  });
});

describe('a lost token', () => {
  it('is answered first with how to get a new one for the existing account, then with registration', async () => {
    const res = await api('GET', '/api/v1/me.json');
    expect(res.status).toBe(401);
    const hint: string = res.body.error.hint;
    expect(hint).toMatch(/device sign-in/);
    expect(hint.indexOf('/oauth/device/auth')).toBeLessThan(hint.indexOf('/api/v1/register.json'));
    expect(hint).toMatch(/Do not register again/);
  });
});

describe('a guessed path', () => {
  it.each([
    ['POST', '/api/v1/signup', 'POST /api/v1/register.json'],
    ['POST', '/api/v1/users', 'POST /api/v1/register.json'],
    ['GET', '/api/v1/profile.json', 'GET /api/v1/me.json'],
    ['GET', '/api/v1/messages', 'GET /api/v1/chats.json'],
    ['GET', '/api/v1/friends.json', 'GET /api/v1/buddy_requests.json'],
  ])('%s %s is told “did you mean %s”', async (method, path, meant) => {
    const res = await api(method, path, method === 'POST' ? { body: {} } : {});
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.body.error.message).toContain(`Did you mean \`${meant}\``);
  });
});

describe('a report in plain words', () => {
  it('is read as the reason it names, said back in warnings, and stored as that reason', async () => {
    const [a, b] = [await registerUser(), await registerUser()];
    const res = await call(safety.reportUser, {
      params: { slug: b.slug },
      token: a.token,
      body: { reason: 'Their profile looks fake' },
    });
    expect(res.warnings?.normalized).toEqual(['reason: "Their profile looks fake" was read as fake_profile']);
    const row = await testDb()
      .selectFrom('reports')
      .select('reason')
      .where('id', '=', res.reportId)
      .executeTakeFirstOrThrow();
    expect(row.reason).toBe('fake_profile');
    // The enum itself: no note.
    const plain = await call(safety.reportUser, { params: { slug: b.slug }, token: a.token, body: { reason: 'spam' } });
    expect(plain.warnings).toBeUndefined();
  });
});

// §4: a host that validates arguments against tools/list before calling (as some do).
describe('MCP input schemas a validating host lets the forgiven slips through', () => {
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
  });
  async function mcp(token?: string) {
    const headers: Record<string, string> = { 'x-forwarded-for': freshIp() };
    if (token) headers.authorization = `Bearer ${token}`;
    const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } });
    const client = new Client({ name: 'validating-host', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  /** What a validating host does: check the arguments against tools/list, then call. */
  async function validatedCall(client: Client, name: string, args: Record<string, unknown>) {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === name)!;
    const validate = ajv.compile(tool.inputSchema);
    const valid = validate(args);
    expect(validate.errors ?? [], `${name} ${JSON.stringify(args)}`).toEqual([]);
    expect(valid).toBe(true);
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
    };
    // The endpoint's JSON comes first (register adds how to connect as a second text).
    const text = result.content[0]?.text ?? '';
    expect(result.isError, text).toBeFalsy();
    return JSON.parse(text);
  }

  it('accepts slip-shaped register, update_my_profile and report_user arguments, and the server reads them', async () => {
    const host = await mcp();
    const registered = await validatedCall(host, 'register', {
      email: uniqueEmail('slips'),
      displayName: 'Slip Shape',
      gender: 'woman',
      birthday: '3 March 1990',
      activities: 'hiking, board games',
      coords: '38.72,-9.14',
      availability: 'weekends', // deprecated, left out of tools/list, still taken
    });
    const notes: string[] = registered.warnings.normalized;
    expect(notes.join('\n')).toMatch(/gender: "woman" was read as female/);
    expect(notes.join('\n')).toMatch(/birthday: "3 March 1990" was read as 1990-03-03/);
    expect(notes.join('\n')).toMatch(/activities: the text "hiking, board games"/);

    const signedIn = await mcp(registered.auth.token);
    const updated = await validatedCall(signedIn, 'update_my_profile', {
      gender: 'man',
      birthday: 'March 4 1991',
      activities: 'chess; coffee',
      aboutMe: null,
    });
    expect(updated.profile).toMatchObject({ gender: 'male', birthday: '1991-03-04', aboutMe: null });

    const other = await registerUser();
    const report = await validatedCall(signedIn, 'report_user', {
      slug: other.slug,
      reason: 'Their profile looks fake',
    });
    expect(report.warnings.normalized).toEqual(['reason: "Their profile looks fake" was read as fake_profile']);
  });

  it('still refuses, in the schema, what the server would refuse for its type (the check can fail)', async () => {
    const { tools } = await (await mcp()).listTools();
    const register = ajv.compile(tools.find((t) => t.name === 'register')!.inputSchema);
    expect(register({ email: uniqueEmail(), displayName: 'X', gender: 42 })).toBe(false);
    expect(register({ email: uniqueEmail(), displayName: 'X', activities: { hiking: true } })).toBe(false);
    expect(register({ displayName: 'X' })).toBe(false);
  });
});
