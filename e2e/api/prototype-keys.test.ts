// Issue 41 §3: words that name Object.prototype's properties are words like any other.
// `GET /api/v1/discover.json?activities=constructor` answered 500 ("close.join is not a
// function"): the caller's word was looked up in a plain object and found Object. Each
// case here sends each of the words where a caller's text is looked up (activities, time
// zones, genders, places, report reasons, field and parameter names, endpoint paths, tool
// and guide names) and requires the answer an unknown word gets: the same status, error
// code and fields as for a made-up word, never a 5xx.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOTYPE_WORDS } from '@/e2e/support/contract/arbitraries';
import { api, baseUrl, freshIp, registerUser, TINY_PNG_BASE64, testDb, uniqueEmail } from './client';
import type { TestUser } from './social-helpers';

/** A word nothing knows, to compare with: its answer is what an unknown word gets. */
const MADE_UP = 'qzxwvk';

let person: TestUser;
let other: TestUser;

beforeAll(async () => {
  const complete = (name: string) =>
    registerUser({
      email: uniqueEmail('proto'),
      displayName: name,
      aboutMe: 'Hikes on weekends.',
      location: 'Portland, OR',
      gender: 'female',
      birthday: '1990-06-15',
      activities: ['hiking'],
      availability_text: 'weekends',
      photo: TINY_PNG_BASE64,
    });
  [person, other] = await Promise.all([complete('Proto Person'), complete('Proto Other')]);
});

interface Case {
  method: 'GET' | 'POST' | 'PATCH';
  /** The request for a word: its path (and query), and body. */
  path: (word: string) => string;
  body?: (word: string) => unknown;
  auth: boolean;
}

const q = encodeURIComponent;
/** Shape of an answer that does not depend on the word itself. */
const shapeOf = (res: { status: number; body: any }, word: string) => ({
  status: res.status,
  code: res.body?.error?.code ?? null,
  fields: Object.keys(res.body?.error?.fields ?? {})
    .map((name) => (name === word ? '<word>' : name))
    .sort(),
});

const send = (c: Case, word: string) =>
  api(c.method, c.path(word), {
    ...(c.auth ? { token: person.token } : {}),
    ...(c.body ? { body: c.body(word) } : {}),
  });

const CASES: Record<string, Case> = {
  'Discover activities': { method: 'GET', path: (w) => `/api/v1/discover.json?activities=${q(w)}`, auth: true },
  'Discover activities among known ones': {
    method: 'GET',
    path: (w) => `/api/v1/discover.json?activities=hiking,${q(w)}`,
    auth: true,
  },
  'Discover free time': { method: 'GET', path: (w) => `/api/v1/discover.json?when=${q(w)}`, auth: true },
  'Discover gender': { method: 'GET', path: (w) => `/api/v1/discover.json?gender=${q(w)}`, auth: true },
  'Discover parameter name': { method: 'GET', path: (w) => `/api/v1/discover.json?${q(w)}=1`, auth: true },
  'events activities': { method: 'GET', path: (w) => `/api/v1/events.json?activities=${q(w)}`, auth: false },
  'events city': { method: 'GET', path: (w) => `/api/v1/events.json?city=${q(w)}`, auth: false },
  'events region': { method: 'GET', path: (w) => `/api/v1/events.json?region=${q(w)}`, auth: false },
  'events sources': { method: 'GET', path: (w) => `/api/v1/events.json?sources=${q(w)}`, auth: false },
  'events sort': { method: 'GET', path: (w) => `/api/v1/events.json?sort=${q(w)}`, auth: false },
  'events search': { method: 'GET', path: (w) => `/api/v1/events.json?q=${q(w)}`, auth: false },
  'plans view': { method: 'GET', path: (w) => `/api/v1/plans.json?view=${q(w)}`, auth: true },
  'buddy requests state': { method: 'GET', path: (w) => `/api/v1/buddy_requests.json?state=${q(w)}`, auth: true },
  'plan options activity': {
    method: 'GET',
    path: (w) => `/api/v1/users/${other.slug}/plan_options.json?activity=${q(w)}`,
    auth: true,
  },
  'a profile by slug': { method: 'GET', path: (w) => `/api/v1/users/${q(w)}/profile.json`, auth: true },
  'an endpoint path': { method: 'GET', path: (w) => `/api/v1/${q(w)}.json`, auth: false },
  'an endpoint path without .json': { method: 'POST', path: (w) => `/api/v1/${q(w)}`, auth: false },
  'availability text': {
    method: 'POST',
    path: () => '/api/v1/availability/parse.json',
    body: (w) => ({ text: `${w} evenings` }),
    auth: false,
  },
  'profile time zone': { method: 'PATCH', path: () => '/api/v1/me.json', body: (w) => ({ timezone: w }), auth: true },
  'profile gender': { method: 'PATCH', path: () => '/api/v1/me.json', body: (w) => ({ gender: w }), auth: true },
  'profile field name': {
    method: 'PATCH',
    path: () => '/api/v1/me.json',
    body: (w) => JSON.parse(`{${JSON.stringify(w)}: 1}`),
    auth: true,
  },
  'report reason': {
    method: 'POST',
    path: () => `/api/v1/users/${other.slug}/report.json`,
    body: (w) => ({ reason: w }),
    auth: true,
  },
  'registration gender': {
    method: 'POST',
    path: () => '/api/v1/register.json',
    body: (w) => ({ email: uniqueEmail('proto'), displayName: 'Sam', gender: w }),
    auth: false,
  },
  'registration time zone': {
    method: 'POST',
    path: () => '/api/v1/register.json',
    body: (w) => ({ email: uniqueEmail('proto'), displayName: 'Sam', timezone: w }),
    auth: false,
  },
};

describe("Object.prototype's property names get the answer any unknown word gets (issue 41 §3)", () => {
  const table = Object.entries(CASES).flatMap(([name, c]) => PROTOTYPE_WORDS.map((word) => [name, word, c] as const));

  it.each(table)('%s = %s', async (_name, word, c) => {
    const [res, control] = [await send(c, word), await send(c, MADE_UP)];
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(shapeOf(res, word), JSON.stringify(res.body)).toEqual(shapeOf(control, MADE_UP));
    if (res.status >= 400) expect(res.body.error.message).not.toMatch(/is not a function|\[object |native code/);
  });

  it.each(PROTOTYPE_WORDS)(
    'an activity filter of %s is refused as an unknown activity, named as sent',
    async (word) => {
      for (const path of [`/api/v1/discover.json?activities=${q(word)}`, `/api/v1/events.json?activities=${q(word)}`]) {
        const res = await api('GET', path, { token: person.token });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error.code).toBe('validation_failed');
        expect(res.body.error.fields.activities).toMatch(new RegExp(`^unknown activity: "${word}"[ ;]`));
      }
    },
  );

  it.each(PROTOTYPE_WORDS)('an unknown field or parameter named %s is named in error.fields', async (word) => {
    const body = await api('PATCH', '/api/v1/me.json', {
      token: person.token,
      rawBody: `{"${word}": 1}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(body.status).toBe(400);
    expect(Object.keys(body.body.error.fields)).toEqual([word]);
    expect(body.body.error.fields[word]).toMatch(/^unknown field/);
    const query = await api('GET', `/api/v1/discover.json?${q(word)}=1`, { token: person.token });
    expect(query.status).toBe(400);
    expect(Object.keys(query.body.error.fields)).toEqual([word]);
  });

  it.each(PROTOTYPE_WORDS)(
    'a profile with the activity %s keeps it as unmatched, and stores nothing of it',
    async (word) => {
      const res = await api('PATCH', '/api/v1/me.json', {
        token: person.token,
        body: { activities: ['hiking', word] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.warnings.activities_unmatched).toEqual([word]);
      const stored = await testDb()
        .selectFrom('users')
        .select('activities')
        .where('id', '=', person.id)
        .executeTakeFirstOrThrow();
      expect(stored.activities).toEqual(['hiking']);
    },
  );

  it.each(PROTOTYPE_WORDS)('the gender %s is refused at registration, as a made-up word is', async (word) => {
    const res = await api('POST', '/api/v1/register.json', {
      body: { email: uniqueEmail('proto'), displayName: 'Sam', gender: word },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toEqual(['gender']);
  });
});

describe("MCP: tool, guide and argument names that are Object.prototype's properties (issue 41 §3)", () => {
  const rpc = async (method: string, params: unknown) => {
    const res = await fetch(`${baseUrl()}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${person.token}`,
        'x-forwarded-for': freshIp(),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    expect(res.status).toBeLessThan(500);
    // One answer, as JSON or as the single event of a stream.
    const text = await res.text();
    const data = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]!;
    return JSON.parse(data) as {
      error?: { code: number; message: string };
      result?: { isError?: boolean; content: Array<{ text: string }> };
    };
  };
  const envelopeOf = (answer: Awaited<ReturnType<typeof rpc>>) =>
    answer
      .result!.content.map((c) => {
        try {
          return JSON.parse(c.text) as { error?: { code: string; fields?: Record<string, string> } };
        } catch {
          return {};
        }
      })
      .find((parsed) => parsed.error)?.error;

  it.each(PROTOTYPE_WORDS)('a tools/call of the tool %s is an unknown tool', async (word) => {
    const answer = await rpc('tools/call', { name: word, arguments: {} });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/^Unknown tool/);
  });

  it.each(PROTOTYPE_WORDS)('get_guide of %s is refused with the guides it has', async (word) => {
    const answer = await rpc('tools/call', { name: 'get_guide', arguments: { name: word } });
    expect(answer.result?.isError).toBe(true);
    expect(envelopeOf(answer)?.code).toBe('validation_failed');
  });

  it.each(PROTOTYPE_WORDS)('discover with activities %s is an unknown activity', async (word) => {
    const answer = await rpc('tools/call', { name: 'discover', arguments: { activities: word } });
    expect(answer.result?.isError).toBe(true);
    expect(envelopeOf(answer)?.fields?.activities).toMatch(new RegExp(`^unknown activity: "${word}"`));
  });

  it.each(PROTOTYPE_WORDS.filter((w) => w !== '__proto__'))(
    'an argument named %s is an unknown field, named as sent',
    async (word) => {
      const args = JSON.parse(`{"displayName": "Proto Person", ${JSON.stringify(word)}: {"slug": "x"}}`);
      const answer = await rpc('tools/call', { name: 'update_my_profile', arguments: args });
      expect(answer.result?.isError).toBe(true);
      const error = envelopeOf(answer);
      expect(error?.code).toBe('validation_failed');
      expect(Object.keys(error?.fields ?? {})).toEqual([word]);
    },
  );

  it('an argument named __proto__ never reaches the tool: the MCP SDK drops it, the call acts on the rest', async () => {
    // The SDK validates tools/call params with zod, whose records skip a "__proto__" key.
    const args = JSON.parse('{"displayName": "Proto Named", "__proto__": {"aboutMe": "from the prototype"}}');
    const answer = await rpc('tools/call', { name: 'update_my_profile', arguments: args });
    expect(answer.result?.isError, JSON.stringify(answer)).toBeFalsy();
    const stored = await testDb()
      .selectFrom('users')
      .select(['display_name', 'about_me'])
      .where('id', '=', person.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ display_name: 'Proto Named', about_me: 'Hikes on weekends.' });
  });
});

describe('pages that read a word from the link (issue 41 §3)', () => {
  it.each(PROTOTYPE_WORDS)('/signup-with-ai with gender and activities %s renders', async (word) => {
    const res = await fetch(
      `${baseUrl()}/signup-with-ai?name=Sam&gender=${q(word)}&activities=${q(word)}&location=${q(word)}`,
      { headers: { 'x-forwarded-for': freshIp() } },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('native code');
  });
});
