import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../contract';
import { CLIENT_IP_HEADER, CLIENT_IP_PROOF_HEADER } from '../http/ip';
import { annotationsFor } from './annotations';
import { buildRouteRequest } from './call';
import type { JsonSchema } from '../docs/json-schema';
import { isAllowedOrigin } from './origin';
import { isMcpTool } from '../contract/define';
import { toolDefinition, toolDefinitions } from './tools';

describe('MCP tools from the contract', () => {
  it('makes every contract endpoint a tool, but those whose entry says why not', () => {
    const left = endpoints.filter((spec) => !isMcpTool(spec));
    expect(left.map((spec) => spec.id).sort()).toEqual([
      'decline_meetup_join',
      'delete_my_account',
      'export_my_data',
      'get_health',
      'get_index',
      'meetup_attendance',
      'read_plan_time',
    ]);
    for (const spec of left) expect(spec.mcp?.why, spec.id).toMatch(/\w+ \w+ \w+/);
    expect(toolDefinitions(endpoints).map((t) => t.name)).toEqual(endpoints.filter(isMcpTool).map((e) => e.id));
    // Where each tool's route handler comes from: scripts/route-modules.test.ts (lib/ does not import app/).
  });

  it('merges path params, query and body into one input schema and remembers where each goes', () => {
    const profile = toolDefinition(endpoints.find((e) => e.id === 'get_public_profile')!);
    expect(profile.inputSchema()).toMatchObject({
      type: 'object',
      properties: { slug: { type: 'string' } },
      required: ['slug'],
    });
    expect(Object.fromEntries(profile.places)).toEqual({ slug: 'path' });

    const register = toolDefinition(endpoints.find((e) => e.id === 'register')!);
    const input = register.inputSchema() as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties?: boolean;
    };
    expect(input.required).toEqual(['email', 'displayName']);
    // Open: the fields left out below are still taken, and a host that validates must let them through.
    expect(input.additionalProperties).toBeUndefined();
    expect(Object.keys(input.properties)).toEqual(
      expect.arrayContaining(['email', 'displayName', 'activities', 'availability_text', 'photo', 'agentName']),
    );
    // Deprecated fields and the HTTP-only ones are left out of tools/list (the route still takes them).
    for (const gone of ['city', 'availability', 'schedule', 'agentSessionId'])
      expect(input.properties).not.toHaveProperty(gone);
    // A model is told the format; the long regex zod derives from it is the route's business.
    expect(input.properties.email).toEqual({ type: 'string', minLength: 1, maxLength: 254, format: 'email' });
    expect(register.description).toMatch(
      /^Create an account and get a bearer token \(no token needed\)\. Ask the person/,
    );
  });

  it('keeps every constraint a model needs and says null only where it clears a field', () => {
    const update = toolDefinition(endpoints.find((e) => e.id === 'update_my_profile')!).inputSchema() as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(update.properties.aboutMe).toEqual({ type: ['string', 'null'], maxLength: 600 });
    // Forgiving fields: the documented form first, then the text the route also reads (issue 30 §4).
    expect(update.properties.gender).toEqual({
      anyOf: [
        { type: 'string', enum: ['male', 'female', 'non_binary', 'prefer_not_to_say'] },
        { type: 'string', maxLength: 40 },
        { type: 'null' },
      ],
    });
    const register = toolDefinition(endpoints.find((e) => e.id === 'register')!).inputSchema() as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(register.properties.aboutMe).toEqual({ type: 'string', maxLength: 600 });
    expect(register.properties.coords?.anyOf).toEqual([
      expect.objectContaining({
        type: 'object',
        required: ['latitude', 'longitude'],
        properties: expect.objectContaining({ latitude: { type: 'number', minimum: -90, maximum: 90 } }),
      }),
      { type: 'string', maxLength: 60 },
    ]);
    const discover = toolDefinition(endpoints.find((e) => e.id === 'discover')!).inputSchema() as {
      properties: Record<string, Record<string, unknown>>;
    };
    // A description that says what the name, default and bounds say is not sent (issue 47's titles paid with it).
    expect(discover.properties.limit).toEqual({
      default: 20,
      type: 'integer',
      minimum: 1,
      maximum: 50,
    });
  });

  it("leaves out update_my_profile's copies of register's field descriptions, keeping its own", () => {
    const tools = toolDefinitions(endpoints);
    const schemaOf = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema() as { properties: Record<string, { description?: string }> };
    const update = schemaOf('update_my_profile').properties;
    const register = schemaOf('register').properties;
    for (const field of ['coords', 'timezone', 'birthday', 'activities', 'availability_text']) {
      expect(register[field]?.description, field).toBeTruthy();
      expect(update[field], field).toBeDefined();
      expect(update[field]?.description, field).toBeUndefined();
    }
    expect(update.photoURL?.description).toMatch(/null removes it/);
    expect(tools.find((t) => t.name === 'update_my_profile')!.description).toContain('described in register');
  });

  it('refuses a contract where a query and a body field share a name', () => {
    const withClash = {
      ...endpoints.find((e) => e.id === 'update_my_profile')!,
      query: z.object({ aboutMe: z.string() }),
    };
    expect(() => toolDefinition(withClash)).toThrow(/aboutMe/);
  });

  it('describes each tool in one to three sentences, saying which need no token', () => {
    for (const tool of toolDefinitions(endpoints)) {
      const sentences = tool.description.split(/(?<=[.!?])\s+(?=[A-Z])/);
      expect(sentences.length, tool.description).toBeLessThanOrEqual(3);
      expect(tool.description.includes('(no token needed)'), tool.name).toBe(tool.spec.auth === 'none');
    }
  });
});

describe('annotations (declared on each contract entry)', () => {
  const hints = (id: string) => endpoints.find((e) => e.id === id)!.hints;

  it('marks every GET read-only and idempotent, except reading messages that can mark them read', () => {
    const plainReads = endpoints.filter((e) => e.method === 'GET' && e.id !== 'list_messages');
    for (const spec of plainReads)
      expect(spec.hints, spec.id).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(hints('list_messages')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    // A POST that stores nothing is read-only too.
    expect(hints('parse_availability')).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it('marks what overwrites or ends something destructive, and what only adds not', () => {
    for (const id of [
      'update_my_profile',
      'delete_push_token',
      'revoke_access_token',
      'change_password',
      'upload_photo',
    ])
      expect(hints(id).destructiveHint, id).toBe(true);
    for (const id of ['register', 'send_message', 'send_buddy_request', 'propose_plan', 'report_user'])
      expect(hints(id), id).toMatchObject({ destructiveHint: false, idempotentHint: false });
    // Every write that is not read-only says whether a repeat does more.
    for (const spec of endpoints.filter((e) => e.method !== 'GET'))
      expect(typeof hints(spec.id).idempotentHint).toBe('boolean');
  });

  it('marks what reaches other people or upstreams as open-world, and the justified POSTs idempotent', () => {
    expect(hints('register')).toMatchObject({ openWorldHint: true, idempotentHint: false });
    expect(hints('send_buddy_request').openWorldHint).toBe(true);
    expect(hints('send_message').openWorldHint).toBe(true);
    expect(hints('list_events')).toMatchObject({ openWorldHint: true, readOnlyHint: true });
    expect(hints('mark_chat_read')).toMatchObject({ idempotentHint: true, openWorldHint: false });
    expect(hints('complete_onboarding').idempotentHint).toBe(true);
    expect(hints('decline_buddy_request')).toMatchObject({ destructiveHint: true, openWorldHint: true });
    // Plans reach the other person; accepting twice is the same confirmed plan; decline and cancel end it for good.
    expect(hints('propose_plan')).toMatchObject({ openWorldHint: true, idempotentHint: false });
    expect(hints('accept_plan')).toMatchObject({ idempotentHint: true, destructiveHint: false });
    for (const id of ['decline_plan', 'cancel_plan']) expect(hints(id)).toMatchObject({ destructiveHint: true });
    // Reading is closed-world: nothing leaves the service.
    for (const id of ['discover', 'get_inbox', 'get_public_profile', 'get_plan'])
      expect(hints(id).openWorldHint).toBe(false);
  });

  it('advertises idempotentHint only where the MCP schema gives it a meaning: on tools that write', () => {
    expect(annotationsFor({ hints: hints('get_inbox') })).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(annotationsFor({ hints: hints('mark_chat_read') })).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('advertises a query flag as a boolean, which the route reads as the word the call sends', () => {
    for (const [id, flag] of [
      ['list_chats', 'unread_only'],
      ['list_messages', 'mark_read'],
    ] as const) {
      const tool = toolDefinition(endpoints.find((e) => e.id === id)!);
      expect((tool.inputSchema() as { properties: Record<string, unknown> }).properties[flag]).toEqual({
        type: 'boolean',
      });
      expect(tool.spec.query!.safeParse({ [flag]: String(true) }).data, id).toMatchObject({ [flag]: true });
    }
  });

  it('leaves out agentName but on register, and no branch of anyOf repeats another or the field', () => {
    for (const tool of toolDefinitions(endpoints)) {
      const properties = (tool.inputSchema() as { properties: Record<string, JsonSchema> }).properties;
      expect('agentName' in properties, tool.name).toBe(tool.name === 'register');
      for (const [name, property] of Object.entries(properties)) {
        const branches = (property.anyOf ?? []) as JsonSchema[];
        expect(new Set(branches.map((b) => JSON.stringify(b))).size, `${tool.name}.${name}`).toBe(branches.length);
        if (property.description)
          for (const b of branches) expect(b.description, `${tool.name}.${name}`).toBeUndefined();
      }
    }
  });

  // Issue 44 §2: a plan's or a meetup's time may leave out the offset (read on the person's clock), so
  // it is not JSON Schema's date-time (RFC 3339 §5.6 requires one); the description says so, without
  // the long regex zod derives. The person's words are read too ("sat 10am").
  it('tells a model a time may be on the person’s clock, without a date-time format or a long regex', () => {
    for (const id of ['propose_plan', 'host_meetup']) {
      const tool = toolDefinition(endpoints.find((e) => e.id === id)!);
      const starts = (tool.inputSchema() as { properties: Record<string, Record<string, unknown>> }).properties
        .starts_at;
      expect(starts).toMatchObject({
        type: 'string',
        description: expect.stringMatching(/^Your clock: ISO or "sat 10am"/),
      });
      expect(starts).not.toHaveProperty('pattern');
      expect(starts).not.toHaveProperty('format');
    }
  });
});

describe('the request a tool call stands for', () => {
  const incoming = new Request('http://127.0.0.1:3000/api/mcp', {
    method: 'POST',
    headers: {
      authorization: 'Bearer bm_at_x',
      [CLIENT_IP_HEADER]: '10.1.2.3',
      [CLIENT_IP_PROOF_HEADER]: 'proof',
      origin: 'http://evil.example',
      cookie: 'a=b',
    },
  });

  it('puts path params in the path, body fields in a JSON body and copies only auth and client address', async () => {
    const update = toolDefinition(endpoints.find((e) => e.id === 'update_my_profile')!);
    const { request } = buildRouteRequest(
      update,
      { aboutMe: 'Hi', activities: ['hiking'], bogus: 1 },
      incoming,
      'http://unused',
    );
    expect(request.method).toBe('PATCH');
    expect(request.url).toBe('http://127.0.0.1:3000/api/v1/me.json');
    expect(request.headers.get('authorization')).toBe('Bearer bm_at_x');
    expect(request.headers.get(CLIENT_IP_HEADER)).toBe('10.1.2.3');
    // The proof travels with the address, so the inner call counts the same client (lib/http/ip.ts).
    expect(request.headers.get(CLIENT_IP_PROOF_HEADER)).toBe('proof');
    expect(request.headers.get('cookie')).toBeNull();
    expect(request.headers.get('origin')).toBeNull();
    expect(await request.json()).toEqual({ aboutMe: 'Hi', activities: ['hiking'], bogus: 1 });

    const profile = toolDefinition(endpoints.find((e) => e.id === 'get_public_profile')!);
    const built = buildRouteRequest(profile, { slug: 'a b/c', extra: 'x' }, incoming, 'http://unused');
    expect(built.request.url).toBe('http://127.0.0.1:3000/api/v1/users/a%20b%2Fc/profile.json?extra=x');
    expect(built.params).toEqual({ slug: 'a b/c' });
    expect(built.request.body).toBeNull();
  });

  it('builds the request for a lone surrogate in a path argument (encodeURIComponent threw: an internal error), leaving it for the contract to refuse', () => {
    const profile = toolDefinition(endpoints.find((e) => e.id === 'get_public_profile')!);
    const built = buildRouteRequest(profile, { slug: 'a\uD800b' }, incoming, 'http://unused');
    expect(built.request.url).toBe('http://127.0.0.1:3000/api/v1/users/a%EF%BF%BDb/profile.json');
    expect(built.params).toEqual({ slug: 'a\uD800b' });
    expect(profile.spec.params!.safeParse(built.params).success).toBe(false);
  });
});

describe('Origin validation', () => {
  it('allows no Origin and our own origin, rejects any other and opaque ones', () => {
    const base = 'https://buddy.example';
    expect(isAllowedOrigin(null, base)).toBe(true);
    expect(isAllowedOrigin('https://buddy.example', base)).toBe(true);
    expect(isAllowedOrigin('https://buddy.example:8443', base)).toBe(false);
    expect(isAllowedOrigin('http://buddy.example', base)).toBe(false);
    expect(isAllowedOrigin('https://evil.example', base)).toBe(false);
    expect(isAllowedOrigin('null', base)).toBe(false);
  });
});
