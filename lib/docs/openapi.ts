// GET /.well-known/openapi.json: the OpenAPI 3.0.3 document, generated from the
// contract table on every request (never hand-written), so a new endpoint appears
// here the moment it is declared.
import { SCOPES, type EndpointSpec } from '../contract/define';
import { ERROR_CODES, errorEnvelopeSchema, exampleError } from '../contract/errors';
import { TEXT_RULE_IN_WORDS } from '../contract/text';
import { ERROR_ADVICE, ERROR_STATUS, type ErrorCode } from '../http/errors';
import { API_NAME, API_VERSION } from './index-document';
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

function errorResponses(spec: EndpointSpec): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(spec)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples = Object.fromEntries(codes.map((code) => [code, { summary: code, value: exampleError(code) }]));
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_ADVICE[code]}`).join('\n\n'),
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, examples } },
    };
  }
  return responses;
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
        required: where === 'path' ? true : required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  return out;
}

export function operationFor(spec: EndpointSpec): OpenApiOperation {
  const status = String(spec.status ?? 200);
  const authNote =
    spec.auth === 'none'
      ? 'No authentication.'
      : `Needs \`Authorization: Bearer <token>\` (from POST /api/v1/register.json) carrying the \`${spec.auth}\` scope.`;
  const params = parameters(spec);
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: [spec.description, authNote].filter(Boolean).join('\n\n'),
    tags: [...spec.tags],
    ...(params.length ? { parameters: params } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.bodyOptional,
            content: {
              'application/json': {
                schema: toJsonSchema(spec.body, 'input'),
                ...(spec.requestExample !== undefined ? { example: spec.requestExample } : {}),
              },
            },
          },
        }
      : {}),
    responses: {
      [status]: {
        description: spec.summary,
        content: {
          'application/json': {
            schema: toJsonSchema(spec.response, 'output'),
            ...(spec.example !== undefined ? { example: spec.example } : {}),
          },
        },
      },
      ...errorResponses(spec),
    },
    security: spec.auth === 'none' ? [] : [{ bearerAuth: [] }],
    ...(spec.auth === 'none' ? {} : { 'x-required-scope': spec.auth }),
  };
}

export function buildOpenApi(endpoints: readonly EndpointSpec[], baseUrl: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const spec of endpoints) {
    paths[spec.path] ??= {};
    paths[spec.path]![spec.method.toLowerCase()] = operationFor(spec);
  }
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
        'Sign a person up to a buddy-finding app and act for them: profile, photo, buddy requests, inbox and chats.',
        `Start with the guides: [SIGNUP.md](${baseUrl}/SIGNUP.md) and [AGENTS.md](${baseUrl}/AGENTS.md). ` +
          `The same functions are MCP tools at ${baseUrl}/api/mcp ([manifest](${baseUrl}/.well-known/mcp.json)).`,
        'Every error is `{"error":{"code","message","hint","fields?"}}`; branch on `error.code`.',
        TEXT_RULE_IN_WORDS,
      ].join('\n\n'),
    },
    servers: [{ url: baseUrl }],
    tags,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The token from `auth.token` of POST /api/v1/register.json, sent as `Authorization: Bearer <token>`. ' +
            'Each operation names the scope it needs in `x-required-scope` (OpenAPI 3.0 lists scopes only for OAuth schemes). ' +
            `Scopes: ${SCOPES.map((s) => `\`${s}\` (${SCOPE_DESCRIPTIONS[s]})`).join(', ')}. A registration token carries all seven.`,
          'x-scopes': SCOPE_DESCRIPTIONS,
        },
      },
      schemas: { ErrorEnvelope: toJsonSchema(errorEnvelopeSchema, 'output') },
    },
  };
}
