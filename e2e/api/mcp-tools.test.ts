// The MCP tool list as an assistant sees it (issue 16), through the official SDK
// client: its size, the guide tool, unknown-tool suggestions, and the whole happy
// path driven only by what tools/list says. Every call's arguments are built from the
// advertised input schema and a table of facts about the person, so a tool list that
// drops a field or a constraint a model needs makes this test fail.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { makeImage } from '@/e2e/support/photos/test-images';
import { testDb, uniqueEmail } from './client';
import { closeMcpClients, connectMcp } from './mcp-client';

type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];
type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};
type Result = { isError?: boolean; content: Array<{ type: string; text?: string }> };

afterAll(closeMcpClients);

const connect = (token?: string) => connectMcp('mcp-tools-test', token);

/** A value fits an advertised schema: type, enum and the limits a model must respect. */
function fits(value: unknown, schema: Schema): boolean {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const typeOf = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (types.length && !types.some((t) => t === typeOf || (t === 'number' && typeOf === 'integer'))) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (typeof value === 'string' && schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (typeof value === 'number' && ((schema.minimum ?? -Infinity) > value || (schema.maximum ?? Infinity) < value))
    return false;
  if (Array.isArray(value) && schema.maxItems !== undefined && value.length > schema.maxItems) return false;
  return true;
}

/**
 * The arguments a model would build: each advertised property the facts know, if the
 * value fits the advertised schema. A required property without a fitting fact fails.
 */
function argumentsFor(tool: Tool, facts: Record<string, unknown>): Record<string, unknown> {
  const schema = tool.inputSchema as Schema;
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!(name in facts)) continue;
    expect(
      fits(facts[name], property),
      `${tool.name}.${name} = ${JSON.stringify(facts[name])} against ${JSON.stringify(property)}`,
    ).toBe(true);
    args[name] = facts[name];
  }
  for (const name of schema.required ?? []) expect(args, `${tool.name} needs ${name}`).toHaveProperty(name);
  return args;
}

async function use(client: Client, tools: Tool[], name: string, facts: Record<string, unknown>): Promise<any> {
  const tool = tools.find((t) => t.name === name);
  expect(tool, `tools/list has ${name}`).toBeDefined();
  const result = (await client.callTool({ name, arguments: argumentsFor(tool!, facts) })) as Result;
  const text = result.content.map((c) => c.text ?? '').join('\n');
  expect(result.isError ?? false, `${name}: ${text}`).toBe(false);
  // The endpoint's JSON is the first content; register adds how to connect as a second.
  return JSON.parse(result.content[0]!.text!);
}

describe('tools/list over the SDK client', () => {
  it('is under 27,000 bytes and 6,750 tokens (raised by issues 29 and 45), with the guide tool', async () => {
    const { tools } = await (await connect()).listTools();
    const json = JSON.stringify({ tools });
    expect(Buffer.byteLength(json)).toBeLessThan(27_000);
    expect(encode(json).length).toBeLessThan(6_750);
    expect(tools.find((t) => t.name === 'get_guide')?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    // Issue 47: a title for people on every tool.
    for (const tool of tools) expect(tool.title, tool.name).toMatch(/^[A-Z]/);
  });

  it('serves the guides through get_guide', async () => {
    const client = await connect();
    const agents = (await client.callTool({ name: 'get_guide', arguments: { name: 'agents' } })) as Result;
    expect(agents.content[0]!.text).toMatch(/^# /);
    expect(agents.content[0]!.text).toContain('Polling rhythm');
    const bad = (await client.callTool({ name: 'get_guide', arguments: { name: 'everything' } })) as Result;
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toMatch(/signup, agents, overview/);
  });

  it.each([
    ['get_messages', 'list_messages'],
    ['send_request', 'send_buddy_request'],
    ['inbox', 'get_inbox'],
  ])('answers an unknown tool %s with the closest names (%s first)', async (wrong, right) => {
    const client = await connect();
    const error = await client.callTool({ name: wrong, arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toMatch(new RegExp(`Unknown tool: ${wrong}\\. Did you mean ${right}\\b`));
  });
});

describe('the happy path, from tools/list alone', () => {
  it('register → photo → discover → buddy request → inbox → accept → message → messages', async () => {
    const anonymous = await connect();
    const { tools } = await anonymous.listTools();
    const photo = (await makeImage('jpeg', { width: 400, height: 400, colour: '#4a7a4a' })).toString('base64');
    const agent = { agentName: 'HappyPathAgent' };
    const person = (name: string) => ({
      email: uniqueEmail(name.toLowerCase()),
      displayName: name,
      aboutMe: `${name} likes long walks and early starts.`,
      gender: 'female',
      birthday: '1990-03-03',
      location: 'Lisbon, Portugal',
      activities: ['hiking', 'bouldering'],
      availability_text: 'weekends and weekday evenings after 6',
      agentName: 'HappyPathAgent',
    });

    const ana = await use(anonymous, tools, 'register', person('Ana'));
    const ben = await use(anonymous, tools, 'register', person('Ben'));
    const anaClient = await connect(ana.auth.token);
    const benClient = await connect(ben.auth.token);
    for (const [client, who] of [
      [anaClient, ana],
      [benClient, ben],
    ] as const) {
      const uploaded = await use(client, tools, 'upload_photo', { photo, mimeType: 'image/jpeg' });
      expect(uploaded.photo.photoURL).toMatch(/^http/);
      const row = await testDb()
        .selectFrom('users')
        .select('photo_url')
        .where('id', '=', who.user.id)
        .executeTakeFirstOrThrow();
      expect(row.photo_url).toBeTruthy();
    }

    const found = await use(anaClient, tools, 'discover', { radius_km: 50 });
    const match = found.results.find((r: { user: { slug: string } }) => r.user.slug === ben.user.slug);
    expect(match, JSON.stringify(found).slice(0, 500)).toBeDefined();

    const request = await use(anaClient, tools, 'send_buddy_request', {
      ...agent,
      slug: ben.user.slug,
      message: 'Hike on Saturday?',
      activityIds: ['hiking'],
    });
    const inbox = await use(benClient, tools, 'get_inbox', {});
    const invitation = inbox.pending_requests.find((r: { id: string }) => r.id === request.request.id);
    expect(invitation?.message).toBe('Hike on Saturday?');

    const accepted = await use(benClient, tools, 'accept_buddy_request', {
      ...agent,
      invitationId: invitation.id,
      firstMessage: 'Yes! 9am?',
    });
    const chatId = accepted.chat.chatId as string;
    await use(anaClient, tools, 'send_message', { ...agent, chatId, text: '9am at the trailhead.' });
    const messages = await use(benClient, tools, 'list_messages', { chatId });
    expect(messages.messages.map((m: { text: string }) => m.text)).toEqual(['Yes! 9am?', '9am at the trailhead.']);
    const stored = await testDb()
      .selectFrom('messages')
      .select(['text', 'agent_name'])
      .where('chat_id', '=', chatId)
      .orderBy('id')
      .execute();
    expect(stored).toEqual([
      { text: 'Yes! 9am?', agent_name: 'HappyPathAgent' },
      { text: '9am at the trailhead.', agent_name: 'HappyPathAgent' },
    ]);
  });
});
