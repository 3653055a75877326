// GET /.well-known/openapi.json: the OpenAPI 3.0.3 document, generated from the
// contract table on every request (never hand-written), so a new endpoint appears
// here the moment it is declared.
import { SCOPES, type EndpointSpec } from '../contract/define';
import { ERROR_CODES, errorEnvelopeSchema, exampleError } from '../contract/errors';
import { TEXT_RULE_IN_WORDS } from '../contract/text';
import type { ErrorCode } from '../core/errors';
import { ERROR_STATUS } from '../http/error-response';
import { API_NAME, API_VERSION } from './index-document';
import { shareParameters, shareRequestBodies, shareSchemas } from './openapi-components';
import { toJsonSchema, type JsonSchema } from './json-schema';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.0.3';
  paths: Record<string, Record<string, OpenApiOperation>>;
};
export type OpenApiOperation = Record<string, unknown> & {
  operationId: string;
  responses: Record<string, unknown>;
};

export const SCOPE_DESCRIPTIONS: Record<(typeof SCOPES)[number], string> = {
  'profile:read': 'Read your own profile and onboarding status',
  'profile:write': 'Change your own profile',
  'photo:write': 'Upload your profile photo',
  'buddy:read': 'See buddy requests',
  'buddy:write': 'Send, accept and decline buddy requests',
  'message:read': 'Read chats and messages',
  'message:write': 'Send messages and mark chats read',
};

const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'Discovery: the endpoint index, the activity catalog, health',
  accounts: 'Sign up in one call',
  profile: 'Your profile, onboarding and public profiles',
};

/**
 * The error codes an endpoint can answer with: the ones its declaration documents plus
 * the ones the shared route wrapper produces for it (auth, parsing, body limits, 500).
 */
export function errorCodesFor(spec: EndpointSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(spec.errors ?? []);
  if (spec.auth !== 'none') {
    codes.add('unauthorized');
    codes.add('insufficient_scope');
  }
  if (spec.params || spec.query || spec.body) codes.add('validation_failed');
  if (spec.rateLimit) codes.add('rate_limited');
  if (spec.body) {
    codes.add('invalid_json');
    codes.add('unsupported_media_type');
    codes.add('payload_too_large');
  }
  codes.add('internal_error');
  return ERROR_CODES.filter((code) => codes.has(code));
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
};

/** The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-09) every limited endpoint sends. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description:
      'The quota, e.g. `"discover";q=60;w=3600`: q calls per w seconds (draft-ietf-httpapi-ratelimit-headers-09)',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left, e.g. `"discover";r=59;t=3540`: r calls remain, the window resets in t seconds',
    schema: { type: 'string' },
  },
};

/** Every POST takes it (lib/http/idempotency.ts); one shared parameter. */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A new random key per action: a retry with the same key and request within 24 hours gets the first success ' +
    'again, with no second effect (AGENTS.md, Safe retries).',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const IDEMPOTENCY_KEY_REF = { $ref: '#/components/parameters/IdempotencyKey' };

/** Endpoints whose limit their domain counts (the wrapper counts `spec.rateLimit`): operation id → policy. */
export const DOMAIN_RATE_LIMITS: Record<string, string> = {
  register: 'registrations',
  send_message: 'messages',
  update_my_profile: 'location_change, photo_upload',
};

/** Error codes the HTTP layer adds to every POST (Idempotency-Key); MCP tools never see them. */
export function httpOnlyErrorCodes(spec: EndpointSpec): ErrorCode[] {
  // validation_failed: a malformed Idempotency-Key header. Its 429 for too many new keys
  // (rarely met) is told in AGENTS.md's limits table: listed on every POST, it outgrew 100 KB.
  return spec.method === 'POST' ? ['validation_failed', 'idempotency_key_in_use', 'idempotency_key_reused'] : [];
}

/**
 * Codes the shared route wrapper answers with for any endpoint of a kind (authentication,
 * parsing, body limits, Idempotency-Key, 500): their statuses are the operation's `default`
 * response, the `Error` component, which lists them once. Listed on every operation they were
 * about 200 references, a tenth of the document. Rate limits stay explicit: their 429 has headers.
 */
export const WRAPPER_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'invalid_json',
  'validation_failed',
  'unauthorized',
  'insufficient_scope',
  'idempotency_key_in_use',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'internal_error',
]);

/**
 * An operation's error responses: its own codes (`spec.errors`, rate limits) under their
 * statuses, and `default` for the wrapper's. Each status's response lives once in
 * components.responses and holds every code any operation answers with under that status
 * (an operation with its own 409 answers the wrapper's 409 there too); which codes are an
 * operation's own is `errorCodesFor`, which /docs lists per endpoint.
 */
function errorResponses(spec: EndpointSpec, components: Components): Record<string, unknown> {
  const codes = new Set([...errorCodesFor(spec), ...httpOnlyErrorCodes(spec)]);
  const explicit = new Set([...codes].filter((code) => !WRAPPER_ERROR_CODES.has(code)).map((c) => ERROR_STATUS[c]));
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    const key = explicit.has(status) ? status : 'default';
    components.codesByStatus.set(key, new Set([...(components.codesByStatus.get(key) ?? []), code]));
  }
  return {
    ...Object.fromEntries(
      [...explicit]
        .sort((a, b) => a - b)
        .map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
    ),
    default: { $ref: '#/components/responses/Error' },
  };
}

/** "400 invalid_json, validation_failed; 401 unauthorized": which status each code comes with. */
function statusesInWords(codes: readonly ErrorCode[]): string {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return [...byStatus].map(([status, list]) => `${status} ${list.join(', ')}`).join('; ');
}

/**
 * The shared error responses. A code in more than one (the wrapper's, under `default` and
 * an operation's own status) has its example once in components.examples.
 */
function sharedErrorResponses(components: Components): Pick<OpenApiComponents, 'responses' | 'examples'> {
  const keys = [...components.codesByStatus.keys()].sort((a, b) =>
    a === 'default' ? 1 : b === 'default' ? -1 : a - b,
  );
  const uses = new Map<ErrorCode, number>();
  for (const codes of components.codesByStatus.values())
    for (const code of codes) uses.set(code, (uses.get(code) ?? 0) + 1);
  const responses: Record<string, unknown> = {};
  const examples: Record<string, unknown> = {};
  for (const key of keys) {
    const codes = ERROR_CODES.filter((code) => components.codesByStatus.get(key)!.has(code));
    const example = (code: ErrorCode) => {
      if ((uses.get(code) ?? 0) < 2) return { value: exampleError(code) };
      examples[code] = { value: exampleError(code) };
      return { $ref: `#/components/examples/${code}` };
    };
    responses[key === 'default' ? 'Error' : `Error${key}`] = {
      description:
        key === 'default'
          ? `Any other error the route wrapper answers for any operation: ${statusesInWords(codes)}`
          : (STATUS_TEXT[key] ?? 'Error'),
      ...(key === 429
        ? { headers: sharedHeaders(['Retry-After', ...Object.keys(RATE_LIMIT_HEADERS)]) }
        : key === 503
          ? { headers: sharedHeaders(['Retry-After']) }
          : {}),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          examples: Object.fromEntries(codes.map((code) => [code, example(code)])),
        },
      },
    };
  }
  return { responses, examples };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

const sharedHeaders = (names: string[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

type OpenApiComponents = { responses: Record<string, unknown>; examples: Record<string, unknown> };

interface Components {
  codesByStatus: Map<number | 'default', Set<ErrorCode>>;
}

/**
 * zod bounds every integer by Number.MAX_SAFE_INTEGER; in the document that range says
 * nothing a client can use, so it is left out (smaller schemas, the same meaning).
 */
function withoutSafeIntegerBounds<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out as T;
}

/**
 * A response may gain fields in a later version, so its schema does not forbid unknown
 * ones (a client validating answers with additionalProperties: false would break on
 * the first new field); requests stay strict.
 */
function forResponses(schema: JsonSchema): JsonSchema {
  const open = <T>(node: T): T => {
    if (Array.isArray(node)) return node.map(open) as T;
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'additionalProperties' && value === false) continue;
      out[key] = open(value);
    }
    return nullableObjectAsOneOf(out) as T;
  };
  return open(withoutSafeIntegerBounds(schema));
}

/** The null branch of a nullable object: OpenAPI 3.0.3's way to allow null beside a $ref. */
const NULL_OBJECT = { type: 'object', nullable: true, enum: [null] };

/**
 * A nullable object (a plan, or null) as `oneOf: [the object, null]`, so the object itself
 * is the same schema as where it is never null and is shared as one component (3.0.3 lets
 * `nullable` widen only the `type` beside it, so a $ref cannot be made nullable otherwise).
 */
function nullableObjectAsOneOf(node: Record<string, unknown>): Record<string, unknown> {
  if (node.type !== 'object' || node.nullable !== true || !node.properties) return node;
  const { nullable: _nullable, description, ...object } = node;
  return { ...(description === undefined ? {} : { description }), oneOf: [object, NULL_OBJECT] };
}

function parameters(spec: EndpointSpec): unknown[] {
  const out: unknown[] = [];
  for (const [where, schema] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(schema, 'input');
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...propertySchema } = property;
      out.push({
        name,
        in: where,
        // Optional is the default (OpenAPI 3.0), so only required parameters say so.
        ...(where === 'path' || required.has(name) ? { required: true } : {}),
        ...(typeof description === 'string' ? { description } : {}),
        schema: withoutSafeIntegerBounds(propertySchema),
      });
    }
  }
  return out;
}

export function operationFor(
  spec: EndpointSpec,
  components: Components = { codesByStatus: new Map() },
): OpenApiOperation {
  const status = String(spec.status ?? 200);
  // Who may call it is structured data (security, x-required-scope), not repeated in prose.
  const params = parameters(spec);
  return {
    operationId: spec.id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [...spec.tags],
    ...(params.length || spec.method === 'POST'
      ? { parameters: [...params, ...(spec.method === 'POST' ? [{ ...IDEMPOTENCY_KEY_REF }] : [])] }
      : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.bodyOptional,
            content: {
              'application/json': {
                schema: withoutSafeIntegerBounds(toJsonSchema(spec.body, 'input')),
                ...(spec.requestExample !== undefined ? { example: spec.requestExample } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [status]: {
        // The summary is the operation's own; the success needs only its status's meaning.
        description: status === '201' ? 'Created' : 'OK',
        ...(spec.rateLimit || DOMAIN_RATE_LIMITS[spec.id]
          ? { headers: sharedHeaders(Object.keys(RATE_LIMIT_HEADERS)) }
          : {}),
        content: {
          'application/json': {
            // The answer's example is on /docs (app/(web)/docs): every field is described here,
            // and the examples were 4 KB of a document kept under 100 KB. Request examples stay.
            schema: forResponses(toJsonSchema(spec.response, 'output')),
          },
        },
      },
      ...(spec.alsoOk
        ? {
            [String(spec.alsoOk.status)]: {
              description: spec.alsoOk.when,
              content: { 'application/json': { schema: forResponses(toJsonSchema(spec.response, 'output')) } },
            },
          }
        : {}),
      ...errorResponses(spec, components),
    },
    // The bearer requirement is the document's default (top-level security); public
    // operations override it with none.
    ...(spec.auth === 'none' ? { security: [] } : { 'x-required-scope': spec.auth }),
  };
}

export function buildOpenApi(endpoints: readonly EndpointSpec[], baseUrl: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const shared: Components = { codesByStatus: new Map() };
  for (const spec of endpoints) {
    paths[spec.path] ??= {};
    paths[spec.path]![spec.method.toLowerCase()] = operationFor(spec, shared);
  }
  const schemas: Record<string, JsonSchema> = { ErrorEnvelope: toJsonSchema(errorEnvelopeSchema, 'output') };
  const sharedParameters: Record<string, Record<string, unknown>> = { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER };
  shareSchemas(paths, schemas);
  shareParameters(paths, sharedParameters);
  const requestBodies: Record<string, Record<string, unknown>> = {};
  shareRequestBodies(paths, requestBodies);
  const tags = [...new Set(endpoints.flatMap((e) => e.tags))].map((name) => ({
    name,
    ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}),
  }));
  return {
    openapi: '3.0.3',
    info: {
      title: API_NAME,
      version: API_VERSION,
      description: [
        'Sign a person up to a buddy-finding app and act for them: profile, photo, buddy requests, inbox, chats, plans to meet and group meetups.',
        `Start with the guides: [SIGNUP.md](${baseUrl}/SIGNUP.md) and [AGENTS.md](${baseUrl}/AGENTS.md). ` +
          `The same functions are MCP tools at ${baseUrl}/api/mcp ([manifest](${baseUrl}/.well-known/mcp.json)).`,
        'Every error is `{"error":{"code","message","hint","fields?"}}`; branch on `error.code`.',
        TEXT_RULE_IN_WORDS,
      ].join('\n\n'),
    },
    servers: [{ url: baseUrl }],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token from `auth.token` of POST /api/v1/register.json, sent as `Authorization: Bearer <token>`. ' +
            'Each operation names the scope it needs in `x-required-scope`, and `x-scopes` lists them. ' +
            `A registration token carries all ${SCOPES.length}.`,
          'x-scopes': SCOPE_DESCRIPTIONS,
        },
      },
      schemas,
      parameters: sharedParameters,
      requestBodies,
      ...sharedErrorResponses(shared),
      headers: { ...RETRY_AFTER, ...RATE_LIMIT_HEADERS },
    },
  };
}

const servedDocuments = ((globalThis as { __buddyOpenApiJson?: Map<string, string> }).__buddyOpenApiJson ??= new Map());

/**
 * The served document as compact JSON, built once per base URL: the contract cannot
 * change while the process runs, and building (sharing components) takes a few hundred ms.
 */
export function openApiJson(endpoints: readonly EndpointSpec[], baseUrl: string): string {
  let text = servedDocuments.get(baseUrl);
  if (text === undefined) {
    text = JSON.stringify(buildOpenApi(endpoints, baseUrl));
    servedDocuments.set(baseUrl, text);
  }
  return text;
}
