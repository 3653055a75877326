// MCP 2026-07-28 (stateless: every request carries its version and the host's capabilities in
// `_meta`, `server/discover`, no sessions) next to 2025-06-18 and 2025-11-25, served by two
// instances on one database behind a round-robin proxy written here: it sends each request to
// the other instance than the one before, with no stickiness, so every step of a conversation
// lands on a process that never saw the step before it. The 2026-07-28 client is the official
// SDK's (@modelcontextprotocol/client 2, pinned to the revision); the 2025 one is SDK 1's.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, freshIp } from './client';
import { users } from './social-helpers';
import { startServerProcess, type ServerProcess } from '../support/stack';

const MODERN = '2026-07-28';
const UI = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

interface Hop {
  /** Which request this was, in the order they reached the round-robin. */
  seq: number;
  backend: number;
  method: string;
  status: number;
  sessionHeader: boolean;
}

/**
 * Sends each request to the next backend in turn, whoever sends it (no stickiness), and records
 * who answered which JSON-RPC method. `backends` is read at each request (filled in beforeAll).
 */
function roundRobin(backends: readonly string[]) {
  const hops: Hop[] = [];
  let next = 0;
  let arrived = 0;
  const proxy = http.createServer(async (req, res) => {
    const backend = next;
    next = (next + 1) % backends.length;
    // The order requests reached the round-robin: a client's GET for a stream races its next
    // POST, and their answers can come back in either order.
    const seq = arrived++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let method = req.method ?? '';
    try {
      method = String(JSON.parse(body.toString('utf8')).method ?? method);
    } catch {}
    const target = new URL(req.url ?? '/', backends[backend]);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const sessionHeader = Boolean(req.headers['mcp-session-id'] ?? answer.headers['mcp-session-id']);
        hops.push({ seq, backend, method, status: answer.statusCode ?? 0, sessionHeader });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    upstream.end(body);
  });
  return { proxy, hops };
}

let second: ServerProcess;
let proxyUrl: string;
const backends: string[] = [];
const { proxy, hops } = roundRobin(backends);
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  // The second instance claims the same public address as the first, as behind a real balancer.
  second = await startServerProcess({
    databaseUrl: inject('databaseUrl'),
    dataDir: inject('dataDir'),
    env: { PUBLIC_BASE_URL: baseUrl() },
    args: ['--role=web'],
    logName: 'server-mcp-2026.log',
  });
  backends.push(baseUrl(), second.baseUrl);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/mcp`;
}, 120_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => {})));
  await new Promise((resolve) => proxy.close(resolve));
  await second?.stop();
});

const headersFor = (token?: string) => ({
  'x-forwarded-for': freshIp(),
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

async function modern(token: string, capabilities: Record<string, unknown> = {}): Promise<ModernClient> {
  const client = new ModernClient(
    { name: 'mcp-2026-test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(new ModernTransport(new URL(proxyUrl), { requestInit: { headers: headersFor(token) } }));
  open.push(client);
  return client;
}

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }>; _meta?: Record<string, any> };
const call = async (client: ModernClient | LegacyClient, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as Result;
  expect(result.isError ?? false, result.content.map((c) => c.text).join('\n')).toBe(false);
  return result;
};
/** The result's JSON (a prepared request leads with a sentence for the model, then its JSON). */
const json = (result: Result) => JSON.parse(result.content.find((c) => c.text?.startsWith('{'))?.text ?? 'null');

/** A JSON-RPC POST through the round-robin, written by hand: for what a client library would not send. */
const rawPost = (body: unknown, headers: Record<string, string>) =>
  fetch(proxyUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': freshIp(),
      ...headers,
    },
    body: JSON.stringify(body),
  });

/**
 * The hops since `from`: each on the other instance than the one before, with no session, and
 * answered 2xx (a 2025 client's GET for a standing stream gets 405: this server keeps none).
 */
function expectAlternating(from: number): Hop[] {
  // In the order the requests arrived (each alternates with the one before), not the order answered.
  const taken = hops.slice(from).sort((a, b) => a.seq - b.seq);
  expect(taken.length).toBeGreaterThan(1);
  for (const [i, hop] of taken.entries()) {
    if (hop.method === 'GET') expect(hop.status, JSON.stringify(hop)).toBe(405);
    else expect(hop.status, JSON.stringify(hop)).toBeLessThan(300);
    expect(hop.sessionHeader, JSON.stringify(hop)).toBe(false);
    if (i > 0) expect(hop.backend, JSON.stringify(taken)).not.toBe(taken[i - 1]!.backend);
  }
  return taken;
}

describe(`MCP ${MODERN} through a round-robin of two instances`, () => {
  it('discover, tools/list, a read, a write and a person confirmation: each step on the other instance', async () => {
    const [asker, recipient, plain] = await users(3, 'Roundrobin');
    const from = hops.length;

    // A host that renders views (MCP Apps), declared on every request, not once per session.
    const host = await modern(asker.token, UI);
    const discovered = host.getDiscoverResult();
    expect(discovered?.supportedVersions).toContain(MODERN);
    expect(discovered?.capabilities.tools).toBeDefined();
    expect(discovered?._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'buddy-match' });
    expect(discovered?.instructions).toContain('Buddy Match');

    const { tools } = await host.listTools();
    expect(tools.length).toBeGreaterThan(30);
    for (const tool of tools) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'openWorldHint'] as const)
        expect(typeof tool.annotations?.[hint], `${tool.name}.${hint}`).toBe('boolean');
      expect(tool.title, tool.name).toBeTruthy();
    }

    const me = json(await call(host, 'get_my_profile', {}));
    expect(JSON.stringify(me)).toContain(asker.slug);

    // The default (MCP_REQUIRE_PERSON_CONFIRM=ui-hosts): this host declared views in the request's
    // envelope, so the buddy request waits for the person's tap, which reaches the other instance.
    const payload = { slug: recipient.slug, message: 'Bouldering on Sunday?' };
    const prepared = await call(host, 'send_buddy_request', payload);
    expect(json(prepared).status).toBe('awaiting_person');
    const confirmation = prepared._meta?.['buddy-match/confirmation'];
    expect(confirmation?.payload).toEqual(payload);
    const tapped = json(
      await call(host, 'confirm_action', { ...payload, kind: 'send_buddy_request', token: confirmation.token }),
    );
    expect(tapped.request.message).toBe(payload.message);

    // The recipient's host (no views) reads it and answers: a write on whichever instance comes up.
    const other = await modern(recipient.token);
    const listed = json(await call(other, 'list_buddy_requests', {}));
    const received = listed.received.find((r: { message: string }) => r.message === payload.message);
    expect(received).toBeDefined();
    const accepted = json(await call(other, 'accept_buddy_request', { invitationId: received.id }));
    expect(accepted.chat.chatId).toBeTruthy();

    // A host without views sends at once, as before.
    const plainHost = await modern(plain.token);
    const sent = json(await call(plainHost, 'send_buddy_request', { slug: recipient.slug }));
    expect(sent.request.state).toBe('pending');

    // The recipient in a host with views: their first message in the new chat waits for the tap
    // (no `confirm` asked for: the envelope declared views); the next one goes at once.
    const recipientHost = await modern(recipient.token, UI);
    const first = { chatId: accepted.chat.chatId, text: 'Sunday works, 10am at the wall?' };
    const waiting = await call(recipientHost, 'send_message', first);
    expect(json(waiting).status).toBe('awaiting_person');
    const messageToken = waiting._meta?.['buddy-match/confirmation']?.token;
    const firstSent = json(
      await call(recipientHost, 'confirm_action', { ...first, kind: 'send_message', token: messageToken }),
    );
    expect(firstSent.message.text).toBe(first.text);
    const next = json(await call(recipientHost, 'send_message', { chatId: first.chatId, text: 'Bring chalk.' }));
    expect(next.message.text).toBe('Bring chalk.');

    const taken = expectAlternating(from);
    expect(taken.map((h) => h.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
      'tools/call',
      'tools/call',
      'server/discover',
      'tools/call',
      'tools/call',
      'server/discover',
      'tools/call',
      'server/discover',
      'tools/call',
      'tools/call',
      'tools/call',
    ]);
    expect(new Set(taken.map((h) => h.backend))).toEqual(new Set([0, 1]));
  });

  it('answers per the schema what a client gets wrong: an unknown version, a missing envelope, GET', async () => {
    const post = async (body: unknown, headers: Record<string, string>) => {
      const res = await rawPost(body, headers);
      return { status: res.status, body: (await res.json()) as { error?: { code: number; data?: any } } };
    };
    const envelope = (version: string) => ({
      'io.modelcontextprotocol/protocolVersion': version,
      'io.modelcontextprotocol/clientCapabilities': {},
    });
    const unknown = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope('2099-01-01') } },
      { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: -32022, data: { requested: '2099-01-01' } });
    expect(unknown.body.error?.data.supported).toContain(MODERN);

    const bare = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
    );
    expect(bare.status).toBe(400);
    expect(bare.body.error?.code).toBe(-32602);

    // Mcp-Name must match the body (a balancer may route on the header).
    const mismatched = await post(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'list_activities', arguments: {}, _meta: envelope(MODERN) },
      },
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'register' },
    );
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error?.code).toBe(-32020);

    expect((await fetch(proxyUrl, { headers: { 'x-forwarded-for': freshIp() } })).status).toBe(405);
  });
});

describe('2025-06-18 and 2025-11-25 through the same round-robin', () => {
  it('2025-11-25: initialize on one instance, the calls after it on the other, statelessly', async () => {
    const [person] = await users(1, 'Legacy');
    const from = hops.length;
    const client = new LegacyClient({ name: 'mcp-2025-test', version: '1.0.0' });
    await client.connect(
      new LegacyTransport(new URL(proxyUrl), { requestInit: { headers: headersFor(person.token) } }),
    );
    open.push(client);
    expect(client.getServerVersion()?.name).toBe('buddy-match');
    expect((await client.listTools()).tools.length).toBeGreaterThan(30);
    expect(JSON.stringify(json(await call(client, 'get_my_profile', {})))).toContain(person.slug);
    const methods = expectAlternating(from).map((h) => h.method);
    expect(methods.filter((m) => m !== 'GET')).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
    ]);
  });

  it('2025-06-18: initialize answers that version, and a call with its header is served by the other instance', async () => {
    const from = hops.length;
    const rpc = async (body: unknown, version?: string) => {
      const res = await rawPost(body, version ? { 'mcp-protocol-version': version } : {});
      const text = await res.text();
      // Legacy answers may come as one SSE event.
      return JSON.parse(text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? 'null'));
    };
    const init = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.result.protocolVersion).toBe('2025-06-18');
    const listed = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, '2025-06-18');
    expect(listed.result.tools.length).toBeGreaterThan(30);
    expect(expectAlternating(from).map((h) => h.method)).toEqual(['initialize', 'tools/list']);
  });
});
