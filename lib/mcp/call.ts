// Runs an MCP tool call through the endpoint's own route handler, so a tool gets exactly
// what the HTTP API gives: the same auth, zod parsing, error envelope, rate limits and
// domain call. The tool builds the Request the HTTP client would have sent.
import type { ErrorEnvelope } from '../contract/errors';
import { wellFormed } from '../contract/text';
import { CLIENT_IP_HEADERS } from '../http/ip';
import type { ToolDefinition } from './tools';
import { connectText } from '../guides/connecting';
import { errorResponse, toApiError } from '../http/route';

/** A Next.js App Router route handler, as exported by app/api/v1/**\/route.ts. */
export type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

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
  const params: Record<string, string> = {};
  const query = new URLSearchParams();
  let body: Record<string, unknown> | unknown = {};
  const hasBody = tool.spec.body !== undefined;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    // Undeclared arguments go where the HTTP route would see them: a strict body rejects them by name.
    const place = tool.places[name] ?? (hasBody ? 'body' : 'query');
    if (place === 'path') params[name] = String(value);
    else if (place === 'query') {
      if (value !== null) query.set(name, queryValue(value));
    } else if (tool.bodyAsArgument && name === 'body') body = value;
    else (body as Record<string, unknown>)[name] = value;
  }
  // The URL is for show (the handler reads `params`, where the contract refuses a lone
  // surrogate by name); encodeURIComponent would throw on one.
  const path = tool.spec.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(wellFormed(params[name] ?? '')),
  );
  const origin = incoming ? new URL(incoming.url).origin : baseUrl;
  const search = query.toString();
  const url = `${origin}${path}${search ? `?${search}` : ''}`;

  const headers = new Headers({ accept: 'application/json' });
  for (const name of FORWARDED_HEADERS) {
    const value = incoming?.headers.get(name);
    if (value) headers.set(name, value);
  }
  const init: RequestInit = { method: tool.spec.method, headers };
  if (hasBody) {
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
function errorResult(status: number, envelope: ErrorEnvelope, response: Response): ToolResult {
  const { code, message, hint, fields } = envelope.error;
  const lines = [`Error ${status} ${code}: ${message}`];
  if (hint) lines.push(`What to do: ${hint}`);
  for (const [field, problem] of Object.entries(fields ?? {})) lines.push(`- ${field}: ${problem}`);
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter) lines.push(`Retry after ${retryAfter} seconds.`);
  return {
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(envelope) },
    ],
    isError: true,
  };
}

/** A failure outside a route handler (the MCP-only confirm steps) as the same tool error a route's gives. */
export async function apiErrorResult(error: unknown): Promise<ToolResult> {
  return resultOfResponse(undefined, errorResponse(toApiError(error)), '');
}

export async function callRoute(
  tool: ToolDefinition,
  handler: RouteHandler,
  args: Record<string, unknown>,
  incoming: Request | undefined,
  baseUrl: string,
): Promise<ToolResult> {
  const { request, params } = buildRouteRequest(tool, args, incoming, baseUrl);
  const response = await handler(request, { params: Promise.resolve(params) });
  return resultOfResponse(tool, response, baseUrl);
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
    return errorResult(response.status, envelope, response);
  }
  const content: ToolResult['content'] = [{ type: 'text', text: text || 'null' }];
  // A new account: how this host goes on acting for the person depends on the host.
  if (tool?.spec.id === 'register')
    content.push({
      type: 'text',
      text: `Next, connect to the new account the way your host can:\n${connectText(baseUrl)}`,
    });
  return { content };
}
