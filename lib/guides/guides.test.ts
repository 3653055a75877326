import { describe, expect, it } from 'vitest';
import { endpoints } from '../contract';
import { registerBodySchema } from '../contract/accounts';
import { warningsSchema } from '../contract/profiles';
import { LIMITS } from '../contract/schemas';
import { ERROR_ADVICE } from '../core/errors';
import { ERROR_STATUS } from '../http/error-response';
import { SIGNUP_LINK_PARAMS } from '../signup-link';
import { agentsGuide } from './agents';
import { HAPPY_PATH, llmsTxt } from './llms';
import { toJsonSchema, type JsonSchema } from '../docs/json-schema';
import { signupGuide } from './signup';
import { limitsFromEnv } from '../limits/rules';

// Read through the limits table from an environment, as the running configuration is.
const ctx = {
  baseUrl: 'https://buddy.example',
  limits: limitsFromEnv({
    REGISTRATION_LIMIT_PER_HOUR: '7',
    MESSAGE_LIMIT_PER_10_MIN: '11',
    DISCOVER_LIMIT_PER_HOUR: '130',
    LOCATION_CHANGE_LIMIT_PER_DAY: '9',
    PHOTO_UPLOAD_LIMIT_PER_HOUR: '13',
    EVENTS_LIMIT_PER_MINUTE: '17',
    AVAILABILITY_PARSE_LIMIT_PER_MINUTE: '19',
    IDEMPOTENCY_KEY_LIMIT_PER_HOUR: '23',
    PLAN_CONTACT_MAIL_LIMIT_PER_DAY: '2',
  }),
};

describe('AGENTS.md', () => {
  const text = agentsGuide(endpoints, ctx);

  it('lists every contract endpoint and documents every error code with its advice', () => {
    for (const spec of endpoints) expect(text).toContain(`[${spec.path}](${ctx.baseUrl}${spec.path})`);
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(text).toContain(`| \`${code}\` | ${status} | ${ERROR_ADVICE[code as keyof typeof ERROR_STATUS]} |`);
    }
  });

  it('covers polling rhythm, request and chat flows, limits from the configuration and etiquette', () => {
    expect(text).toMatch(/every \*\*30-60 seconds\*\*/);
    expect(text).toContain('/api/v1/buddy_requests/{invitationId}/accept.json');
    expect(text).toContain('/api/v1/chats/{chatId}/messages.json');
    expect(text).toContain('7 per hour per IP address');
    expect(text).toContain('11 per 10 minutes per chat');
    expect(text).toContain('13 per hour per account (uploads and new photoURLs)');
    expect(text).toContain('17 per minute per client address');
    expect(text).toContain(`| \`aboutMe\` | at most ${LIMITS.aboutMe} chars |`);
    expect(text).toMatch(/Never invent a response/);
    expect(text).toMatch(/never give the person a shell command/i);
    expect(text).toMatch(/Never hand .* to another agent, server or service/);
  });

  it('states the location privacy promise and the limits that protect it, from the configuration', () => {
    expect(text).toContain('## Location privacy');
    expect(text).toMatch(/exact coordinates \(`coords`\) are private/);
    expect(text).toContain(
      'moved 0.7-1.3 km in a direction drawn for the person and the ~1 km area they are in, and kept secret',
    );
    expect(text).toContain('| Discover searches | 130 per hour per person |');
    expect(text).toContain('| Changes of the coordinates | 9 per day per person (unchanged values do not count) |');
    expect(text).toMatch(/429 `rate_limited` with `Retry-After`, `error.fields` names `coords` or `location`/);
    expect(text).toMatch(/`openai\/userLocation`\) fills a `register` without `location` or `coords`/);
  });

  it('explains safe retries, the RateLimit fields (with the configured numbers) and the JSON 405/404s', () => {
    expect(text).toContain('## Safe retries and visible limits');
    expect(text).toContain('`Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header-06)');
    expect(text).toContain('422 `idempotency_key_reused`');
    expect(text).toContain('`Idempotent-Replayed: true`');
    expect(text).toContain('`RateLimit-Policy: "messages";q=11;w=600`');
    expect(text).toContain('draft-ietf-httpapi-ratelimit-headers-09');
    expect(text).toContain('405 `method_not_allowed` with an `Allow` header');
    expect(text).toContain('"Did you mean `GET /api/v1/inbox.json`?"');
  });

  it('names the MCP tool beside an endpoint the contract has', () => {
    expect(text).toContain('`PATCH /api/v1/me.json` (MCP tool `update_my_profile`)');
  });
});

describe('the guides on REQUIRE_PERSON_CONSENT (issue 41 §2)', () => {
  it('document awaiting_person_consent, that only the person can say yes, and whether this service asks for it', () => {
    for (const render of [(c: typeof ctx) => agentsGuide(endpoints, c), signupGuide]) {
      const off = render(ctx);
      const on = render({ ...ctx, requirePersonConsent: true });
      for (const text of [off, on]) {
        expect(text).toContain('`onboarding.awaiting_person_consent`');
        expect(text).toContain('"Yes, show me to people nearby"');
        expect(text).toMatch(/no token can, yours included \(403\)/);
      }
      expect(off).toContain('(it is off here)');
      expect(on).toContain('On this service a profile you make stays out of sight');
    }
  });
});

describe('SIGNUP.md', () => {
  const text = signupGuide(ctx);

  it('says what to do with every warning key, that coords come from location, and which slips are forgiven', () => {
    for (const key of Object.keys(warningsSchema.shape))
      expect(text).toMatch(new RegExp(`\\| \`warnings\\.${key}\` \\| \\S`));
    expect(text).toMatch(/`coords` are derived from `location`/);
    for (const slip of [
      'availability',
      '"38.72,-9.14"',
      'woman',
      'March 3 1990',
      '03/04/1990',
      'mimeType',
      'availability/parse.json',
    ])
      expect(text).toContain(slip);
  });

  it('has a row for every registration field, with limits from the schema', () => {
    for (const name of Object.keys(registerBodySchema.shape)) expect(text).toContain(`| \`${name}\` |`);
    expect(text).toMatch(/\| `displayName` \| string \| yes \| 1-60 chars \|/);
    expect(text).toMatch(/\| `email` \| string \(email\) \| yes \|/);
  });

  it('sends the registration with an Idempotency-Key and says how to retry it', () => {
    expect(text).toContain('Idempotency-Key: <a new random UUID>');
    expect(text).toContain('send the very same request with the same `Idempotency-Key`');
    expect(text).toContain('| `idempotency_key_reused` | 422 |');
  });

  it('walks through asking, the one POST, what to show after and the browser fallback with absolute links', () => {
    expect(text).toContain(`POST ${ctx.baseUrl}/api/v1/register.json`);
    expect(text).toContain('auth.mobile_signin_url');
    expect(text).toContain('warnings.schedule_summary');
    expect(text).toContain('7 per hour');
    expect(text).toMatch(/`coords` are the person's exact coordinates: private/);
    for (const { param } of SIGNUP_LINK_PARAMS) expect(text).toContain(`| \`${param}\` |`);
    expect(text).toContain(`${ctx.baseUrl}/signup-with-ai?email=sam%40example.com&name=Sam`);
    expect(text).toMatch(/never a shell command/);
    expect(text).toContain(`${ctx.baseUrl}/AGENTS.md`);
  });
});

describe('llms.txt', () => {
  const text = llmsTxt(endpoints, ctx.baseUrl);

  it('follows the llmstxt.org shape: H1, blockquote summary, H2 sections of links', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Buddy Match');
    expect(lines[2]).toMatch(/^> \S/);
    expect(text.match(/^## /gm)).toHaveLength(4);
    expect(text).toMatch(/^## Optional$/m);
    for (const line of lines.filter((l) => l.startsWith('- ')))
      expect(line).toMatch(/^- \[[^\]]+\]\(https:\/\/buddy\.example\/[^)]*\)(: .+)?$/);
  });

  it('links the guides and every endpoint', () => {
    expect(text).toContain(`[SIGNUP.md](${ctx.baseUrl}/SIGNUP.md)`);
    expect(text).toContain(`[AGENTS.md](${ctx.baseUrl}/AGENTS.md)`);
    for (const spec of endpoints) expect(text).toContain(`](${ctx.baseUrl}${spec.path})`);
  });
});

describe('the happy path in llms.txt', () => {
  const text = llmsTxt(endpoints, ctx.baseUrl);

  /** Whether a dotted path ("results[].user.slug") names a field of the JSON Schema. */
  const hasField = (schema: JsonSchema, path: string): boolean =>
    path.split('.').every((part) => {
      const name = part.replace('[]', '');
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      let next = properties[name];
      if (!next) return false;
      const branches = (next.anyOf as JsonSchema[] | undefined)?.filter((b) => b.type !== 'null');
      if (branches?.length === 1) next = branches[0]!;
      if (part.endsWith('[]')) next = next.items as JsonSchema;
      schema = next;
      return true;
    });

  it('opens with register → photo → discover → buddy request → inbox long-poll → message, each a real endpoint and its real answer fields', () => {
    expect(HAPPY_PATH.map((s) => s.endpoint)).toEqual([
      'register',
      'upload_photo',
      'discover',
      'send_buddy_request',
      'get_inbox',
      'send_message',
    ]);
    for (const step of HAPPY_PATH) {
      const spec = endpoints.find((e) => e.id === step.endpoint)!;
      expect(spec.method, step.endpoint).toBe(step.method);
      expect(step.path.split('?')[0], step.endpoint).toBe(spec.path);
      expect(step.auth, step.endpoint).toBe(spec.auth !== 'none');
      if (step.body !== undefined) expect(spec.body!.safeParse(step.body).success, step.endpoint).toBe(true);
      const answer = toJsonSchema(spec.response, 'output', 'draft-2020-12');
      for (const field of step.fields) expect(hasField(answer, field), `${step.endpoint}: ${field}`).toBe(true);
      expect(text.indexOf(`${ctx.baseUrl}${step.path}`)).toBeLessThan(text.indexOf('## Guides'));
    }
    expect(text).toContain('inbox.json?wait=25');
  });
});
