// The coarse location an assistant's host sends with every tools/call (issue 47): ChatGPT puts
// {city, region, country, timezone, latitude, longitude} in `_meta["openai/userLocation"]`.
// Registration over MCP uses it where the person gave no place or zone, saying so in
// warnings.normalized; the person's own input always wins; REST never reads it; odd shapes
// are ignored; Discover does not search from it (it needs the person's own, stored place).
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { api, baseUrl, freshIp, registerUser, uniqueEmail } from './client';
import { closeMcpClients, connectMcp } from './mcp-client';

const HINT_KEY = 'openai/userLocation';
/** Where the host puts the person; the point is off Lisbon's centre so a stored copy of it would show. */
const LISBON = { city: 'Lisbon', country: 'PT', timezone: 'Europe/Lisbon', latitude: 38.7, longitude: -9.2 };
const GAZETTEER_LISBON = { latitude: 38.71667, longitude: -9.13333 };

type Result = { isError?: boolean; content: Array<{ type: string; text?: string }> };
afterAll(closeMcpClients);

/** A client of its own address: registrations are limited per address. */
const connect = (token?: string) => connectMcp('mcp-host-location-test', token);

/** register over MCP with `_meta` as given (cast: the odd shapes are what a careless host might send). */
async function registerOverMcp(args: Record<string, unknown>, meta: unknown): Promise<any> {
  const client = await connect();
  const result = (await client.callTool({
    name: 'register',
    arguments: { email: uniqueEmail('hostloc'), displayName: 'Host Hint', ...args },
    _meta: meta as Record<string, unknown>,
  })) as Result;
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  return JSON.parse(result.content[0]!.text!);
}

const profileOf = async (token: string) => (await api('GET', '/api/v1/me.json', { token })).body.profile;
const hostNotes = (answer: { warnings?: { normalized?: string[] } }) =>
  (answer.warnings?.normalized ?? []).filter((note) => note.includes("assistant's host"));

describe('register over MCP with the host’s coarse location', () => {
  it('places a person who gave no location in the host’s city and zone, and says so', async () => {
    const answer = await registerOverMcp({}, { [HINT_KEY]: LISBON });
    const me = await profileOf(answer.auth.token);
    expect(me.location).toBe('Lisbon, PT');
    expect(me.public_location).toBe('Lisbon, PT');
    // Placed by the gazetteer from the city, as a typed location is: never the host's point.
    expect(me.coords_source).toBe('gazetteer');
    expect(me.coords).toEqual(GAZETTEER_LISBON);
    expect(me.timezone).toBe('Europe/Lisbon');
    expect(me.timezone_source).toBe('coords');
    const notes = hostNotes(answer);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^location: .*"Lisbon, PT".*can change it/);
  });

  it('takes the zone alone when the hint names no city', async () => {
    const answer = await registerOverMcp({}, { [HINT_KEY]: { country: 'PT', timezone: 'Europe/Lisbon' } });
    const me = await profileOf(answer.auth.token);
    expect(me.location).toBeNull();
    expect(me.coords).toBeNull();
    expect(me.timezone).toBe('Europe/Lisbon');
    const notes = hostNotes(answer);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^timezone: .*"Europe\/Lisbon".*can change it/);
  });

  it('lets the person’s own location win, with no host note', async () => {
    const answer = await registerOverMcp({ location: 'Porto' }, { [HINT_KEY]: LISBON });
    const me = await profileOf(answer.auth.token);
    expect(me.location).toBe('Porto');
    expect(me.public_location).toBe('Porto, PT');
    expect(me.timezone).toBe('Europe/Lisbon'); // Porto's own zone, from its place
    expect(hostNotes(answer)).toEqual([]);
  });

  it('lets the person’s own coords and zone win, with no host note', async () => {
    const answer = await registerOverMcp(
      { coords: { latitude: 40.4168, longitude: -3.7038 }, timezone: 'Europe/Madrid' },
      { [HINT_KEY]: LISBON },
    );
    const me = await profileOf(answer.auth.token);
    expect(me.location).toBeNull();
    expect(me.coords_source).toBe('client');
    expect(me.public_location).toBe('Madrid, ES');
    expect(me.timezone).toBe('Europe/Madrid');
    expect(hostNotes(answer)).toEqual([]);
  });

  it('keeps the person’s zone when the host fills only the location', async () => {
    const answer = await registerOverMcp({ timezone: 'America/New_York' }, { [HINT_KEY]: LISBON });
    const me = await profileOf(answer.auth.token);
    expect(me.location).toBe('Lisbon, PT');
    expect(me.timezone).toBe('America/New_York');
    expect(me.timezone_source).toBe('person');
    expect(hostNotes(answer)).toHaveLength(1);
  });

  it('reads the hint from a 2026-07-28 request too, whose _meta also carries the envelope', async () => {
    const client = new ModernClient(
      { name: 'mcp-host-location-2026', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new ModernTransport(new URL(`${baseUrl()}/api/mcp`), {
        requestInit: { headers: { 'x-forwarded-for': freshIp() } },
      }),
    );
    onTestFinished(() => client.close().catch(() => {}));
    const result = (await client.callTool({
      name: 'register',
      arguments: { email: uniqueEmail('hostloc'), displayName: 'Host Hint' },
      _meta: { [HINT_KEY]: LISBON },
    })) as Result;
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    const answer = JSON.parse(result.content[0]!.text!);
    expect((await profileOf(answer.auth.token)).location).toBe('Lisbon, PT');
    expect(hostNotes(answer)).toHaveLength(1);
  });
});

describe('a host hint anywhere else does nothing', () => {
  it('is refused as an unknown field in a REST body, not used', async () => {
    const res = await api('POST', '/api/v1/register.json', {
      body: { email: uniqueEmail('hostloc'), displayName: 'Rest Hint', _meta: { [HINT_KEY]: LISBON } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toHaveProperty('_meta');
  });

  it('is ignored in REST headers', async () => {
    const res = await api('POST', '/api/v1/register.json', {
      body: { email: uniqueEmail('hostloc'), displayName: 'Rest Hint' },
      headers: { 'openai-userlocation': JSON.stringify(LISBON), 'x-openai-user-location': JSON.stringify(LISBON) },
    });
    expect(res.status).toBe(201);
    expect(res.body.warnings?.normalized ?? []).toEqual([]);
    const me = await profileOf(res.body.auth.token);
    expect(me.location).toBeNull();
    expect(me.timezone).toBeNull();
  });

  it('is not read from a tool’s arguments', async () => {
    const client = await connect();
    const result = (await client.callTool({
      name: 'register',
      arguments: { email: uniqueEmail('hostloc'), displayName: 'Arg Hint', [HINT_KEY]: LISBON },
    })) as Result;
    // An unknown argument is named by the route, as over HTTP.
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain(HINT_KEY);
  });
});

describe('odd hint shapes are ignored, never an error', () => {
  it.each<[string, unknown]>([
    ['a string', 'Lisbon, PT'],
    ['a number', 42],
    ['null', null],
    ['an array', ['Lisbon', 'PT', 'Europe/Lisbon']],
    ['names that are not strings', { city: 7, region: ['Lisboa'], country: { code: 'PT' }, timezone: true }],
    ['a huge city', { city: 'L'.repeat(200_000), timezone: 'Europe/Nowhere' }],
    ['control characters', { city: 'Lis\u0000bon', country: 'P\u001bT' }],
    ['only coordinates', { latitude: 38.72, longitude: -9.14 }],
    ['only unknown keys', { town: 'Lisbon', zone: 'Europe/Lisbon' }],
    ['an offset for a zone', { timezone: '+01:00' }],
  ])('%s', async (_name, hint) => {
    const answer = await registerOverMcp({}, { [HINT_KEY]: hint });
    expect(hostNotes(answer)).toEqual([]);
    const me = await profileOf(answer.auth.token);
    expect(me.location).toBeNull();
    expect(me.coords).toBeNull();
    expect(me.timezone).toBeNull();
  });

  it.each<[string, unknown]>([
    ['_meta as a string', 'openai/userLocation=Lisbon'],
    ['_meta as an array', [{ [HINT_KEY]: LISBON }]],
  ])('%s: refused by the protocol or ignored, never a server error', async (_name, meta) => {
    const client = await connect();
    const outcome = await client
      .callTool({
        name: 'register',
        arguments: { email: uniqueEmail('hostloc'), displayName: 'Odd Meta' },
        _meta: meta as Record<string, unknown>,
      })
      .then(
        (result) => ({ result: result as Result }),
        (error: unknown) => ({ error }),
      );
    if ('error' in outcome) {
      // A JSON-RPC error other than an internal one, or an HTTP 4xx from the transport.
      const code = (outcome.error as { code?: number }).code ?? 0;
      const refused = outcome.error instanceof McpError ? code !== -32603 : code >= 400 && code < 500;
      expect(refused, String(outcome.error)).toBe(true);
      return;
    }
    expect(outcome.result.isError ?? false, outcome.result.content[0]?.text).toBe(false);
    const answer = JSON.parse(outcome.result.content[0]!.text!);
    expect(hostNotes(answer)).toEqual([]);
    expect((await profileOf(answer.auth.token)).location).toBeNull();
  });
});

describe('Discover and the host hint', () => {
  it('does not search from the hint: a person with no place of their own is asked for one', async () => {
    const person = await registerUser({ displayName: 'No Place' });
    const client = await connect(person.token);
    const result = (await client.callTool({
      name: 'discover',
      arguments: {},
      _meta: { [HINT_KEY]: LISBON },
    })) as Result;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^Error 422 onboarding_incomplete/);
    expect(result.content[0]!.text).toMatch(/- location: required/);
    // A read stays a read: the hint wrote nothing.
    const me = await profileOf(person.token);
    expect(me.location).toBeNull();
    expect(me.timezone).toBeNull();
  });
});
