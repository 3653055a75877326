import { createMcpHandler, isJsonContentType, McpServer } from '@modelcontextprotocol/server';
import { endpoints } from '@/lib/contract';
import { config } from '@/lib/config';
import { MCP_SERVER_NAME, MCP_VERSION, prepareTools, registerTools, serverInstructions } from '@/lib/mcp/server';
import type { IncomingCall } from '@/lib/mcp/call';
import { rejectForeignOrigin } from '@/lib/mcp/origin';
import { mcpAuthChallenge } from '@/lib/mcp/auth-challenge';
import { GUIDE_TOOL } from '@/lib/mcp/guide-tool';
import { CONFIRM_TOOL } from '@/lib/mcp/confirm-tool';
import { toolDefinitions } from '@/lib/mcp/tools';
import { unknownToolAnswer } from '@/lib/mcp/unknown-tool';
import { readBodyWithin } from '@/lib/http/body-limit';
import { ApiError } from '@/lib/core/errors';
import { errorResponse } from '@/lib/http/route';
import { MCP_MAX_BODY_BYTES } from '@/lib/mcp/body-limit';
import { ROUTE_MODULES, SUFFIXED_ROUTE_MODULES } from '../route-modules';

const tools = toolDefinitions(endpoints);
const toolNames = [GUIDE_TOOL.name, ...tools.map((tool) => tool.name), CONFIRM_TOOL.name];

// Each tool answers through its own route's handler (a plan by id's is a suffixed path).
const preparedTools = prepareTools(tools, { ...ROUTE_MODULES, ...SUFFIXED_ROUTE_MODULES });

/** What each request's exchange needs to know of it (by the request the SDK is given): its body size, and the tool it calls. */
const exchanges = new WeakMap<Request, { bodyBytes: number; calls?: string }>();
const instructions = serverInstructions(config().publicBaseUrl);

/**
 * The MCP handler, made once per process: the SDK builds a fresh McpServer for each
 * exchange (stateless), from tool registrations prepared here once (lib/mcp/server.ts).
 */
const mcpHandler = createMcpHandler(
  ({ requestInfo }) => {
    const server = new McpServer({ name: MCP_SERVER_NAME, version: MCP_VERSION }, { instructions });
    const exchange = requestInfo && exchanges.get(requestInfo);
    const incoming: IncomingCall | undefined = requestInfo && {
      request: requestInfo,
      bodyBytes: exchange?.bodyBytes ?? Number.POSITIVE_INFINITY,
    };
    registerTools(server, preparedTools, incoming, config().publicBaseUrl, exchange?.calls);
    return server;
  },
  { legacy: 'stateless' },
);

/**
 * The body read in full, at most MCP_MAX_BODY_BYTES (counted as it streams), or the HTTP
 * 413 envelope: nothing is parsed or authenticated before. A body that large is not
 * JSON-RPC the server could answer in kind, so it gets the same HTTP error every other
 * endpoint gives (lib/mcp/body-limit.ts).
 */
async function bodyWithinLimit(request: Request): Promise<Buffer | Response> {
  try {
    return await readBodyWithin(request, MCP_MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

/** The JSON-RPC message, parsed once for every check here and for the SDK; undefined when it is not JSON. */
function parsedMessage(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined; // The SDK answers malformed JSON itself.
  }
}

/** The tool a single tools/call names: its exchange's server needs that tool alone. */
function calledTool(message: unknown): string | undefined {
  const call = message as { method?: unknown; params?: { name?: unknown } } | undefined;
  return call?.method === 'tools/call' && typeof call.params?.name === 'string' ? call.params.name : undefined;
}

// POST/GET/DELETE /api/mcp – the MCP server (Streamable HTTP, stateless)
async function handle(incoming: Request): Promise<Response> {
  let request = incoming;
  let message: unknown;
  let bodyBytes = 0;
  if (incoming.method === 'POST') {
    const body = await bodyWithinLimit(incoming);
    if (body instanceof Response) return body;
    bodyBytes = body.length;
    // Only a JSON body is parsed: the SDK refuses any other type itself (415).
    if (isJsonContentType(incoming.headers.get('content-type'))) message = parsedMessage(body);
    const headers = new Headers(incoming.headers);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    // The SDK reads the message from parsedBody; the body is passed on only when it is not JSON.
    request = new Request(incoming.url, {
      method: 'POST',
      headers,
      ...(message === undefined ? { body: new Uint8Array(body) } : {}),
    });
  }
  const baseUrl = config().publicBaseUrl;
  const rejected = rejectForeignOrigin(request, baseUrl);
  if (rejected) return rejected;
  const challenge = await mcpAuthChallenge(request, message, tools, baseUrl);
  if (challenge) return challenge;
  const unknownTool = unknownToolAnswer(message, toolNames);
  if (unknownTool) return unknownTool;
  exchanges.set(request, { bodyBytes, calls: calledTool(message) });
  return mcpHandler.fetch(request, message === undefined ? {} : { parsedBody: message });
}

export { handle as DELETE, handle as GET, handle as POST };
