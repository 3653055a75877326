// Property-based fuzzing of the whole contract against the real server: for every
// endpoint, valid requests generated from its schemas (e2e/support/contract/arbitraries.ts), then
// mutated (wrong types, boundary lengths, NUL and control characters, lone surrogates,
// huge numbers, extra and missing fields, bad path segments and percent-encoding, broken
// bodies, bad Authorization headers), sent over HTTP with a valid bearer token and
// without. Every answer must be < 500 and, when >= 400, the error envelope with a code
// from lib/http/error-response.ts (e2e/support/fuzz.ts: answerProblem). The MCP endpoint gets
// the same treatment through tools/call.
//
// Then the dictionary word by word: every string parameter of every endpoint set to each of
// Object.prototype's property names (constructor, __proto__, toString, …), and each as an
// extra parameter or field name (issue 41: "constructor" made Discover answer 500).
//
// In `npm test` it runs a fixed seed and FUZZ_RUNS (default 30) requests per endpoint.
// `npm run fuzz` runs it long with a random seed (or FUZZ_SEED), printing the seed so a
// failure can be replayed: FUZZ_SEED=<seed> FUZZ_RUNS=<n> npm run fuzz.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointSpec } from '@/lib/contract';
import { arbitraryFromJsonSchema, STATIC_HINTS, TINY_PNG_BASE64 } from '@/e2e/support/contract/arbitraries';
import { mintAccessToken } from '@/lib/accounts/tokens';
import { ERROR_STATUS } from '@/lib/http/error-response';
import { toolDefinitions } from '@/lib/mcp/tools';
import {
  answerProblem,
  BAD_QUERIES,
  BAD_SEGMENTS,
  closeAgent,
  dictionaryRequests,
  encodeComponent,
  endpointFuzzer,
  HOSTILE_STRINGS,
  hostileValue,
  mutateValue,
  OVERSIZE_STRINGS,
  send,
  valueMutationArbitrary,
  type WireRequest,
} from '../support/fuzz';
import { api, baseUrl, freshIp, registerUser, testDb, uniqueEmail } from './client';
import { makeBuddies, requestBuddy, send as sendMessage, type TestUser } from './social-helpers';
import { pathOf, WebClient } from './web-client';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const MCP_RUNS = Number(process.env.FUZZ_MCP_RUNS ?? Math.max(2, Math.round(RUNS / 4)));
const LONG = process.env.FUZZ_LONG === '1';
const PER_ENDPOINT_TIMEOUT = LONG ? 60 * 60_000 : 60_000;

console.log(
  `fuzz: seed ${SEED}, ${RUNS} requests per endpoint, ${MCP_RUNS} MCP calls per tool (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm run fuzz)`,
);

const PASSWORD = 'fuzz-password-1';
const PORTLAND = { latitude: 45.52, longitude: -122.68 };

/** A complete profile near Portland: in each other's Discover. */
async function completeUser(name: string, offsetKm: number): Promise<TestUser> {
  return registerUser({
    email: uniqueEmail('fuzz'),
    displayName: name,
    password: PASSWORD,
    aboutMe: `${name} likes hiking.`,
    location: 'Portland, OR',
    coords: { latitude: PORTLAND.latitude + offsetKm / 111, longitude: PORTLAND.longitude },
    gender: 'female',
    birthday: '1990-06-15',
    activities: ['hiking', 'coffee', 'tennis'],
    availability_text: 'weekends and weekday evenings',
    photo: TINY_PNG_BASE64,
  });
}

interface World {
  actor: TestUser;
  hints: Required<NonNullable<Parameters<typeof endpointFuzzer>[1]>>;
}

let world: World;

beforeAll(async () => {
  const [actor, buddy, asker, asked, stranger, other] = await Promise.all([
    completeUser('Fuzz Actor', 0),
    completeUser('Fuzz Buddy', 2),
    completeUser('Fuzz Asker', 3),
    completeUser('Fuzz Asked', 4),
    completeUser('Fuzz Stranger', 5),
    completeUser('Fuzz Other', 6),
  ]);
  expect(actor.onboarding.complete).toBe(true);
  const chatId = await makeBuddies(actor, buddy, 'Hello from the fuzzer');
  for (const text of ['one', 'two', 'three']) expect((await sendMessage(buddy, chatId, text)).status).toBe(201);
  const received = await requestBuddy(asker, actor, { message: 'Hike?' });
  const sent = await requestBuddy(actor, asked);
  const page = await api('GET', `/api/v1/chats/${chatId}/messages.json?limit=1`, { token: actor.token });
  const chatCursor = new URL(page.body.poll_next_url as string).searchParams.get('cursor')!;
  const discovered = await api('GET', '/api/v1/discover.json?limit=1', { token: actor.token });
  expect(discovered.status, JSON.stringify(discovered.body)).toBe(200);
  const discoverCursor = discovered.body.next_cursor as string | null;
  // Another person's token id: revoking it must be a 404 for the actor. The actor's own token is never offered.
  const decoyToken = await testDb()
    .selectFrom('access_tokens')
    .select('id')
    .where('user_id', '=', other.id)
    .executeTakeFirstOrThrow();

  const people = [buddy, asker, asked, stranger, other];
  world = {
    actor,
    hints: {
      params: {
        slug: fc.constantFrom(...people.map((p) => p.slug), stranger.id, actor.slug),
        chatId: fc.constant(chatId),
        invitationId: fc.constantFrom(received.body.request.id as string, sent.body.request.id as string),
        tokenId: fc.constant(decoyToken.id),
      },
      // Real cursors, but mostly none: a cursor only pages the search it came from.
      query: {
        cursor: fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom(...[chatCursor, discoverCursor].filter((c): c is string => !!c)) },
        ),
      },
      body: { currentPassword: fc.constant(PASSWORD), chatId: fc.constant(chatId) },
    },
  };
}, 120_000);

/** Answers by status per endpoint, printed at the end: shows how deep the valid requests got. */
const statuses = new Map<string, Map<number, number>>();
function count(name: string, status: number): void {
  const byStatus = statuses.get(name) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  statuses.set(name, byStatus);
}

afterAll(() => {
  closeAgent();
  const lines = [...statuses].map(([name, byStatus]) => {
    const counts = [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    return `  ${name}: ${counts.join(' ')}`;
  });
  console.log(`fuzz: answers by status (seed ${SEED})\n${lines.join('\n')}`);
});

// Writes that change what later endpoints can see run last, in this order.
const LAST = [
  'send_buddy_request',
  'accept_buddy_request',
  'decline_buddy_request',
  'cancel_buddy_request',
  'report_user',
  'block_user',
  'unblock_user',
  'update_my_profile',
  'upload_photo',
  'change_password',
  'revoke_access_token',
];
const rank = (spec: EndpointSpec) =>
  LAST.includes(spec.id) ? 100 + LAST.indexOf(spec.id) : spec.method === 'GET' ? 0 : 1;
const ordered = [...endpoints].sort((a, b) => rank(a) - rank(b));

/**
 * Endpoints that end the actor's access (revoking all its tokens, say) would turn every
 * later property into a run of 401s: each property starts with a working token, minted
 * directly when the last one stopped working.
 */
async function ensureActorToken(): Promise<void> {
  const me = await api('GET', '/api/v1/me.json', { token: world.actor.token });
  if (me.status === 200) return;
  world.actor.token = (await mintAccessToken(testDb(), world.actor.id, { label: 'fuzz' })).token;
}

/** Per-request headers: a fresh client address (so per-IP limits do not pile up), the token most of the time. */
function headersFor(withToken: boolean): Record<string, string> {
  return { 'x-forwarded-for': freshIp(), ...(withToken ? { authorization: `Bearer ${world.actor.token}` } : {}) };
}

const failureMessage = (request: WireRequest, withToken: boolean, problem: string) =>
  `${problem}\n  request: ${request.method} ${request.target.slice(0, 300)}\n  mutation: ${request.mutation}\n  token: ${withToken}\n` +
  `  body: ${(request.body ?? '').slice(0, 300)}\n  replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm run fuzz`;

// Pages first: the password change fuzzed below signs out every other web session.
describe('fuzzing the pages (path segments and query strings)', () => {
  let sessionCookie = '';
  beforeAll(async () => {
    const web = new WebClient();
    const signedIn = await web.signInWithPassword(world.actor.user.email, PASSWORD);
    expect(pathOf(signedIn.location)).toBe('/account');
    sessionCookie = web.cookieHeader();
  });

  const value = fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.constantFrom(...OVERSIZE_STRINGS.filter((text) => text.length < 6_000)),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 10 }),
  );
  const page = fc.oneof(
    value.map((v) => `/u/${encodeComponent(v)}`),
    fc.constantFrom(...BAD_SEGMENTS).map((segment) => `/u/${segment}`),
    value.map((v) => `/account/chats/${encodeComponent(v)}`),
    fc.constantFrom(...BAD_SEGMENTS).map((segment) => `/account/chats/${segment}`),
    value.map((v) => `/signin/link?token=${encodeComponent(v)}`),
    fc
      .tuple(value, value)
      .map(([callback, error]) => `/signin?callbackUrl=${encodeComponent(callback)}&error=${encodeComponent(error)}`),
    fc
      .tuple(value, value, value)
      .map(
        ([email, name, photo]) =>
          `/signup-with-ai?email=${encodeComponent(email)}&name=${encodeComponent(name)}&activities=${encodeComponent(name)}&photo=${encodeComponent(photo)}`,
      ),
    fc.constantFrom(
      '/',
      '/docs',
      '/account',
      '/account/profile',
      '/account/requests',
      '/account/discover',
      '/account/tokens',
      '/account/agents',
      '/account/settings',
      '/account/password',
      '/signin/check-email',
    ),
  );
  const target = fc
    .tuple(page, fc.option(fc.constantFrom(...BAD_QUERIES), { freq: 4 }))
    .map(([path, query]) => (query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path));

  it(
    'the token revoke form (a server action) never answers 5xx, whatever tokenId it carries',
    async () => {
      const page = await send(
        baseUrl(),
        { method: 'GET', target: '/account/agents', headers: {}, mutation: 'none' },
        { cookie: sessionCookie },
      );
      const actionField = page.text
        .split('<form')
        .find((form) => form.includes('>Disconnect</button>'))
        ?.match(/name="(\$ACTION_ID_[0-9a-f]+)"/)?.[1];
      expect(actionField, 'the revoke form names its server action').toBeDefined();
      await fc.assert(
        fc.asyncProperty(fc.oneof(value, fc.uuid()), async (tokenId) => {
          const form = new FormData();
          form.set(actionField!, '');
          form.set('tokenId', tokenId);
          const res = await fetch(`${baseUrl()}/account/agents`, {
            method: 'POST',
            headers: { cookie: sessionCookie, origin: baseUrl(), 'x-forwarded-for': freshIp() },
            body: form,
            redirect: 'manual',
          });
          await res.arrayBuffer();
          count('pages: revoke form', res.status);
          if (res.status >= 500) throw new Error(`status ${res.status} for tokenId ${JSON.stringify(tokenId)}`);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: !LONG },
      );
    },
    PER_ENDPOINT_TIMEOUT,
  );

  it(
    'never answers 5xx, signed in or not, and redirects stay on the site',
    async () => {
      await fc.assert(
        fc.asyncProperty(target, fc.boolean(), async (path, signedIn) => {
          const request: WireRequest = { method: 'GET', target: path, headers: {}, mutation: 'page' };
          const response = await send(baseUrl(), request, {
            'x-forwarded-for': freshIp(),
            ...(signedIn ? { cookie: sessionCookie } : {}),
          });
          count('pages', response.status);
          const problem = answerProblem(response, baseUrl(), path);
          if (problem) throw new Error(failureMessage(request, signedIn, problem));
        }),
        { seed: SEED, numRuns: RUNS * 3, endOnFailure: !LONG },
      );
    },
    PER_ENDPOINT_TIMEOUT,
  );
});

describe('fuzzing every endpoint over HTTP', () => {
  it.each(ordered.map((spec) => [`${spec.method} ${spec.path}`, spec] as const))(
    '%s never answers 5xx, and every error is the envelope',
    async (_name, spec) => {
      await ensureActorToken();
      const fuzzer = endpointFuzzer(spec, world.hints);
      const withToken = fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      );
      await fc.assert(
        fc.asyncProperty(fuzzer.requests, withToken, async (request, token) => {
          const response = await send(baseUrl(), request, headersFor(token));
          count(`${spec.method} ${spec.path}`, response.status);
          const problem = answerProblem(response, baseUrl(), request.target);
          if (problem) throw new Error(failureMessage(request, token, problem));
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: !LONG, verbose: 1 },
      );
    },
    PER_ENDPOINT_TIMEOUT,
  );
});

describe("the dictionary, word by word: Object.prototype's property names in every string parameter (issue 41)", () => {
  it.each(ordered.map((spec) => [`${spec.method} ${spec.path}`, spec] as const))(
    '%s never answers 5xx to constructor, __proto__, toString, hasOwnProperty or valueOf',
    async (_name, spec) => {
      await ensureActorToken();
      const [shape] = fc.sample(endpointFuzzer(spec, world.hints).valid, { seed: SEED, numRuns: 1 });
      for (const request of dictionaryRequests(spec, shape!)) {
        const response = await send(baseUrl(), request, headersFor(true));
        count(`dictionary ${spec.method} ${spec.path}`, response.status);
        const problem = answerProblem(response, baseUrl(), request.target);
        if (problem) throw new Error(failureMessage(request, true, problem));
      }
    },
    PER_ENDPOINT_TIMEOUT,
  );
});

describe('fuzzing the MCP tools (POST /api/mcp tools/call)', () => {
  const tools = toolDefinitions(endpoints).sort((a, b) => rank(a.spec) - rank(b.spec));
  let client: Client;

  beforeAll(async () => {
    await ensureActorToken();
    const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${world.actor.token}`, 'x-forwarded-for': freshIp() } },
    });
    client = new Client({ name: 'fuzz', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(() => client?.close());

  it(
    'answers every mutated tool call with a result or an error envelope, never an internal error',
    async () => {
      for (const tool of tools) {
        const hints = {
          ...STATIC_HINTS.body,
          ...STATIC_HINTS.query,
          ...world.hints.query,
          ...world.hints.body,
          ...world.hints.params,
        };
        // Query `activities` is a comma list, body `activities` an array: take the one this tool declares.
        if (tool.places.get('activities') === 'query') hints.activities = STATIC_HINTS.query.activities!;
        if (tool.places.get('activities') === 'body') hints.activities = STATIC_HINTS.body.activities!;
        const args = arbitraryFromJsonSchema(tool.inputSchema('draft-2020-12'), { hints });
        await fc.assert(
          fc.asyncProperty(args, valueMutationArbitrary, async (valid, mutation) => {
            const { value, note } = mutateValue(valid, mutation, 'arguments', false);
            const label = `${tool.name} (${note}) ${JSON.stringify(value)?.slice(0, 300)}`;
            let result: { isError?: boolean; content?: Array<{ type: string; text?: string }> };
            try {
              result = (await client.callTool({
                name: tool.name,
                arguments: value as Record<string, unknown>,
              })) as typeof result;
            } catch (error) {
              // The protocol's own answer to arguments that are not an object: JSON-RPC invalid params (HTTP 200).
              if (error instanceof McpError && error.code === ErrorCode.InvalidParams)
                return count(`MCP ${tool.name}`, 400);
              throw new Error(`tools/call threw for ${label}: ${String(error)}`);
            }
            if (!result.isError) return count(`MCP ${tool.name}`, 200);
            const envelope = (result.content ?? [])
              .map((c) => {
                try {
                  return JSON.parse(c.text ?? '') as { error?: { code?: string; message?: string } };
                } catch {
                  return null;
                }
              })
              .find((parsed) => parsed?.error?.code);
            const code = envelope?.error?.code as keyof typeof ERROR_STATUS | undefined;
            if (!code || !Object.hasOwn(ERROR_STATUS, code))
              throw new Error(
                `error without an envelope for ${label}: ${JSON.stringify(result.content)?.slice(0, 300)}`,
              );
            count(`MCP ${tool.name}`, ERROR_STATUS[code]);
            if (ERROR_STATUS[code] >= 500) throw new Error(`${code} for ${label}: ${envelope?.error?.message}`);
          }),
          { seed: SEED, numRuns: MCP_RUNS, endOnFailure: !LONG },
        );
      }
    },
    LONG ? 4 * 60 * 60_000 : 120_000,
  );
});

describe('fuzzing /api/mcp with tool names that do not exist (issue 28: a 4 MB name stalled the server)', () => {
  const name = fc.oneof(
    fc.constantFrom(...HOSTILE_STRINGS),
    fc.constantFrom(...OVERSIZE_STRINGS),
    fc.string({ maxLength: 40 }),
    fc.constant(`get_inbox${'x'.repeat(1_000_000)}`),
  );

  it(
    'answers every tools/call with a bounded JSON-RPC error (or the 413 envelope), signed in or not',
    async () => {
      await ensureActorToken();
      await fc.assert(
        fc.asyncProperty(name, hostileValue, fc.boolean(), async (toolName, args, withToken) => {
          const body = JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: toolName, arguments: args },
          });
          const request: WireRequest = {
            method: 'POST',
            target: '/api/mcp',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body,
            mutation: `tool name of ${toolName.length} characters`,
          };
          const response = await send(baseUrl(), request, headersFor(withToken));
          count('MCP unknown tools', response.status);
          const problem = answerProblem(response, baseUrl(), request.target);
          if (problem) throw new Error(failureMessage(request, withToken, problem));
          // Never the name echoed whole: at most a short quote of it.
          if (response.text.length > 4_000)
            throw new Error(failureMessage(request, withToken, `an answer of ${response.text.length} characters`));
        }),
        { seed: SEED, numRuns: MCP_RUNS * 4, endOnFailure: !LONG },
      );
    },
    PER_ENDPOINT_TIMEOUT,
  );
});

describe('fuzzing the OAuth endpoints and the sign-in form (oidc-provider and Auth.js, outside the contract)', () => {
  const realistic = fc.constantFrom(
    'buddy-match-device',
    'authorization_code',
    'refresh_token',
    'urn:ietf:params:oauth:grant-type:device_code',
    'code',
    'S256',
    'https://app.example/cb',
    'profile:read message:read',
  );
  const field = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom(...OVERSIZE_STRINGS) },
    { weight: 2, arbitrary: realistic },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
  const FORMS: Record<string, readonly string[]> = {
    '/oauth/token': [
      'grant_type',
      'code',
      'redirect_uri',
      'client_id',
      'code_verifier',
      'refresh_token',
      'device_code',
    ],
    '/oauth/device/auth': ['client_id', 'scope', 'resource'],
    '/oauth/revoke': ['token', 'token_type_hint', 'client_id'],
    '/oauth/device': ['xsrf', 'user_code', 'confirm', 'abort'],
    '/auth/callback/credentials': ['email', 'password', 'csrfToken', 'callbackUrl'],
  };
  const REGISTRATION = ['client_name', 'redirect_uris', 'grant_types', 'response_types', 'client_uri', 'scope'];
  const AUTHORIZE = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'resource'];

  const someOf = (names: readonly string[], values: fc.Arbitrary<unknown>) =>
    fc
      .uniqueArray(fc.constantFrom(...names), { minLength: 1 })
      .chain((chosen) => fc.tuple(...chosen.map((name) => values.map((value) => [name, value] as const))));
  const stringOf = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

  const request: fc.Arbitrary<WireRequest> = fc.oneof(
    fc
      .constantFrom(...Object.keys(FORMS))
      .chain((path) => someOf(FORMS[path]!, field).map((pairs) => ({ path, pairs })))
      .map(({ path, pairs }) => ({
        method: 'POST',
        target: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(pairs.map(([k, v]) => [k, stringOf(v)])).toString(),
        mutation: `form ${pairs.map(([k, v]) => `${k}(${stringOf(v).length})`).join(' ')}`,
      })),
    someOf(REGISTRATION, fc.oneof(field, hostileValue, fc.array(field, { maxLength: 3 }))).map((pairs) => ({
      method: 'POST',
      target: '/oauth/register',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(pairs)),
      mutation: `registration ${pairs.map(([k]) => k).join(' ')}`,
    })),
    someOf(AUTHORIZE, field).map((pairs) => ({
      method: 'GET',
      target: `/oauth/authorize?${new URLSearchParams(pairs.map(([k, v]) => [k, stringOf(v)])).toString()}`,
      headers: {},
      mutation: 'authorize query',
    })),
  );

  it(
    'never answers 5xx, and redirects stay on the site',
    async () => {
      await fc.assert(
        fc.asyncProperty(request, async (wire) => {
          const response = await send(baseUrl(), wire, { 'x-forwarded-for': freshIp(), origin: baseUrl() });
          count(`OAuth ${wire.method} ${wire.target.split('?')[0]}`, response.status);
          const problem = answerProblem(response, baseUrl(), wire.target);
          if (problem) throw new Error(failureMessage(wire, false, problem));
        }),
        { seed: SEED, numRuns: RUNS * 4, endOnFailure: !LONG },
      );
    },
    PER_ENDPOINT_TIMEOUT,
  );
});
