import { config } from '@/lib/config';
import { publicJson, publicOptions } from '@/lib/docs/serve';
import { buildRegistryEntry } from '@/lib/mcp/registry/entry';

// GET /server.json – this service's MCP Registry entry (server.json, schema 2025-12-11)
export function GET(): Response {
  return publicJson(buildRegistryEntry(config().publicBaseUrl));
}

// OPTIONS /server.json – CORS preflight
export const OPTIONS = publicOptions;
