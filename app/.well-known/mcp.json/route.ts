import { config } from '@/lib/config';
import { endpoints } from '@/lib/contract';
import { publicJson, publicOptions } from '@/lib/docs/serve';
import { buildMcpManifest } from '@/lib/mcp/manifest';
import { toolDefinitions } from '@/lib/mcp/tools';

// GET /.well-known/mcp.json – the MCP server manifest: endpoint, transport, auth, tools
export function GET(): Response {
  return publicJson(buildMcpManifest(toolDefinitions(endpoints), config().publicBaseUrl));
}

// OPTIONS /.well-known/mcp.json – CORS preflight
export const OPTIONS = publicOptions;
