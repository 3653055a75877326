// Runs an MCP tool call through the endpoint's own route handler, so a tool gets exactly
// what the HTTP API gives: the same auth, zod parsing, error envelope, rate limits and
// domain call. The tool builds the Request the HTTP client would have sent.
import type { ErrorEnvelope } from '../contract/errors';
import { wellFormed } from '../contract/text';
import { CLIENT_IP_HEADERS } from '../http/ip';
import type { JsonAnswer } from '../http/route';
import type { ToolDefinition } from './tools';
import type { HostLocation } from '../profiles/host-location';
import { connectText } from '../guides/connecting';
import { contractCall, errorResponse, toApiError } from '../http/route';

/** A Next.js App Router route handler, as exported by app/api/v1/**\/route.ts. */
export type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** The route handler, loaded on the first call (the route modules are imported lazily: app/api/route-modules.ts). */
export type LoadRouteHandler = () => Promise<RouteHandler>;

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Headers of the MCP request that the inner API request inherits. */
const FORWARDED_HEADERS = ['authorization', ...CLIENT_IP_HEADERS, 'user-agent'];

function queryValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The HTTP request the tool's arguments stand for. */
export function buildRouteRequest(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  incoming: Request | undefined,
  baseUrl: string,
) {
  const { params, query, body } = placeArguments(tool, args);
  // The URL is for show (the handler reads `params`, where the contract refuses a lone
  // surrogate by name); encodeURIComponent would throw on one.
  const path = tool.spec.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(wellFormed(params[name] ?? '')),
  );
  const origin = incoming ? new URL(incoming.url).origin : baseUrl;
  const search = query.toString();
  const url = `${origin}${path}${search ? `?${search}` : ''}`;
  const headers = forwardedHeaders(incoming);
  const init: RequestInit = { method: tool.spec.method, headers };
  if (body !== undefined) {
    headers.set('content-type', 'application/json');
    init.body = JSON.stringify(body);
  }
  return { request: new Request(url, init), params };
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** The error envelope as words an agent can act on, plus the envelope itself as JSON. */
function errorResult(status: number, envelope: ErrorEnvelope, retryAfter: string | null | undefined): ToolResult {
  const { code, message, hint, fields } = envelope.error;
  const lines = [`Error ${status} ${code}: ${message}`];
  if (hint) lines.push(`What to do: ${hint}`);
  for (const [field, problem] of Object.entries(fields ?? {})) lines.push(`- ${field}: ${problem}`);
  if (retryAfter) lines.push(`Retry after ${retryAfter} seconds.`);
  return {
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(envelope) },
    ],
    isError: true,
  };
}

/** A tool's arguments where its endpoint takes them: path, query and body. */
function placeArguments(tool: ToolDefinition, args: Record<string, unknown>) {
  const params: Record<string, string> = {};
  const query = new URLSearchParams();
  let wholeBody: unknown;
  const bodyFields: Array<[string, unknown]> = [];
  const hasBody = tool.spec.body !== undefined;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    // Undeclared arguments go where the HTTP route would see them: a strict body rejects them by name.
    const place = tool.places.get(name) ?? (hasBody ? 'body' : 'query');
    if (place === 'path') params[name] = String(value);
    else if (place === 'query') {
      if (value !== null) query.set(name, queryValue(value));
    } else if (tool.bodyAsArgument && name === 'body') wholeBody = value;
    else bodyFields.push([name, value]);
  }
  // fromEntries defines each name as its own property, as JSON.parse does over HTTP: an
  // argument named "__proto__" is an unknown field the route names, not a new prototype (issue 41).
  const body = tool.bodyAsArgument && wholeBody !== undefined ? wholeBody : Object.fromEntries(bodyFields);
  return { params, query, body: hasBody ? body : undefined };
}

/** The headers of the MCP request the tool's call carries into the route (auth, client address). */
function forwardedHeaders(incoming: Request | undefined): Headers {
  const headers = new Headers({ accept: 'application/json' });
  for (const name of FORWARDED_HEADERS) {
    const value = incoming?.headers.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}

/** What a tool call needs of its MCP request: the request itself, the size of its body, and the host's hints. */
export interface IncomingCall {
  request: Request;
  bodyBytes: number;
  /** The coarse location the host sent in this call's `_meta` (lib/mcp/server.ts), for the route. */
  hostLocation?: HostLocation;
}

/**
 * Calls the tool's route with its arguments as they are: the route's own checks (auth,
 * limits, the byte limit, zod parsing) run on them, with no Request built and no JSON
 * serialised and parsed again in between. A handler that is not a contract route (a plan
 * by id, which picks JSON or iCalendar) is called over a Request as before.
 */
async function answerOf(
  tool: ToolDefinition,
  handler: RouteHandler,
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
  baseUrl: string,
): Promise<Response | JsonAnswer> {
  // A plan by id's handler is a plain function.
  const direct = contractCall(handler);
  if (!direct) {
    const { request, params } = buildRouteRequest(tool, args, incoming?.request, baseUrl);
    return handler(request, { params: Promise.resolve(params) });
  }
  const { params, query, body } = placeArguments(tool, args);
  // Read by the route only for an Idempotency-Key, which a tool call never forwards.
  const request = {
    method: tool.spec.method,
    headers: forwardedHeaders(incoming?.request),
    url: baseUrl + tool.spec.path,
  };
  if (body !== undefined) request.headers.set('content-type', 'application/json');
  return direct({
    request,
    query,
    params: async () => params,
    // The arguments came inside the MCP body: its size bounds theirs.
    body: { parsed: body, bytesAtMost: incoming?.bodyBytes ?? Number.POSITIVE_INFINITY },
    hostLocation: incoming?.hostLocation,
  });
}

/** A failure outside a route handler (the MCP-only confirm steps) as the same tool error a route's gives. */
export async function apiErrorResult(error: unknown): Promise<ToolResult> {
  return resultOfResponse(undefined, errorResponse(toApiError(error)), '');
}

export async function callRoute(
  tool: ToolDefinition,
  loadHandler: LoadRouteHandler,
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
  baseUrl: string,
): Promise<ToolResult> {
  const answer = await answerOf(tool, await loadHandler(), args, incoming, baseUrl);
  if (!(answer instanceof Response)) return resultOf(tool, answer, baseUrl);
  return resultOfResponse(tool, answer, baseUrl);
}

async function resultOfResponse(
  tool: ToolDefinition | undefined,
  response: Response,
  baseUrl: string,
): Promise<ToolResult> {
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const envelope = isEnvelope(parsed)
      ? parsed
      : ({
          error: { code: 'internal_error', message: `Unexpected ${response.status} response` },
        } satisfies ErrorEnvelope);
    return errorResult(response.status, envelope, response.headers.get('retry-after'));
  }
  return successResult(tool, text || 'null', baseUrl);
}

/** A route's answer as a tool result, serialised once. */
function resultOf(tool: ToolDefinition, answer: JsonAnswer, baseUrl: string): ToolResult {
  if (answer.status < 200 || answer.status > 299) {
    const envelope = isEnvelope(answer.value)
      ? answer.value
      : ({
          error: { code: 'internal_error', message: `Unexpected ${answer.status} response` },
        } satisfies ErrorEnvelope);
    return errorResult(answer.status, envelope, answer.headers['retry-after']);
  }
  return successResult(tool, answer.value === undefined ? 'null' : JSON.stringify(answer.value), baseUrl);
}

function successResult(tool: ToolDefinition | undefined, text: string, baseUrl: string): ToolResult {
  const content: ToolResult['content'] = [{ type: 'text', text }];
  // A new account: how this host goes on acting for the person depends on the host.
  if (tool?.spec.id === 'register')
    content.push({
      type: 'text',
      text: `Next, connect to the new account the way your host can:\n${connectText(baseUrl)}`,
    });
  return { content };
}
