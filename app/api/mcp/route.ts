import { createMcpHandler } from 'mcp-handler';
import { endpoints } from '@/lib/contract';
import { config } from '@/lib/config';
import { MCP_SERVER_NAME, MCP_VERSION, registerTools, serverInstructions } from '@/lib/mcp/server';
import { rejectForeignOrigin } from '@/lib/mcp/origin';
import { mcpAuthChallenge } from '@/lib/mcp/auth-challenge';
import { GUIDE_TOOL } from '@/lib/mcp/guide-tool';
import { CONFIRM_TOOL } from '@/lib/mcp/confirm-tool';
import { toolDefinitions } from '@/lib/mcp/tools';
import { unknownToolAnswer } from '@/lib/mcp/unknown-tool';
import { readBodyWithin } from '@/lib/http/body-limit';
import { ApiError } from '@/lib/http/errors';
import { errorResponse } from '@/lib/http/route';
import { MCP_MAX_BODY_BYTES } from '@/lib/mcp/body-limit';
import { ROUTE_HANDLERS } from './handlers';

const tools = toolDefinitions(endpoints);
const toolNames = [GUIDE_TOOL.name, ...tools.map((tool) => tool.name), CONFIRM_TOOL.name];

/**
 * The request with its body read in full, at most MCP_MAX_BODY_BYTES (counted as it
 * streams), or the HTTP 413 envelope: nothing is parsed or authenticated before. A body
 * that large is not JSON-RPC the server could answer in kind, so it gets the same HTTP
 * error every other endpoint gives (lib/mcp/body-limit.ts).
 */
async function withinLimit(request: Request): Promise<Request | Response> {
  if (request.method !== 'POST') return request;
  let body: Buffer;
  try {
    body = await readBodyWithin(request, MCP_MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(request.url, { method: request.method, headers, body: new Uint8Array(body) });
}

// POST/GET/DELETE /api/mcp – the MCP server (Streamable HTTP, stateless)
async function handle(incoming: Request): Promise<Response> {
  const request = await withinLimit(incoming);
  if (request instanceof Response) return request;
  const baseUrl = config().publicBaseUrl;
  const rejected = rejectForeignOrigin(request, baseUrl);
  if (rejected) return rejected;
  const challenge = await mcpAuthChallenge(request, tools, baseUrl);
  if (challenge) return challenge;
  const unknownTool = await unknownToolAnswer(request, toolNames);
  if (unknownTool) return unknownTool;
  // A server per request (stateless), closed over this request so each tool call
  // carries the caller's Authorization and client address into the route handler.
  const handler = createMcpHandler((server) => registerTools(server, tools, ROUTE_HANDLERS, request, baseUrl), {
    serverInfo: { name: MCP_SERVER_NAME, version: MCP_VERSION },
    instructions: serverInstructions(baseUrl),
    telemetry: false,
  });
  return handler(request);
}

export { handle as DELETE, handle as GET, handle as POST };
