import { createMcpHandler } from 'mcp-handler';
import { endpoints } from '@/lib/contract';
import { config } from '@/lib/config';
import { MCP_SERVER_NAME, MCP_VERSION, registerTools, serverInstructions } from '@/lib/mcp/server';
import { rejectForeignOrigin } from '@/lib/mcp/origin';
import { mcpAuthChallenge } from '@/lib/mcp/auth-challenge';
import { GUIDE_TOOL } from '@/lib/mcp/guide-tool';
import { toolDefinitions } from '@/lib/mcp/tools';
import { unknownToolAnswer } from '@/lib/mcp/unknown-tool';
import { ROUTE_HANDLERS } from './handlers';

const tools = toolDefinitions(endpoints);
const toolNames = [GUIDE_TOOL.name, ...tools.map((tool) => tool.name)];

// POST/GET/DELETE /api/mcp – the MCP server (Streamable HTTP, stateless)
async function handle(request: Request): Promise<Response> {
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
