import { publicDocument, publicOptions } from '@/lib/docs/serve';
import { renderAgentsGuide } from '@/lib/guides';
import { toolListBytes } from '@/lib/mcp/server';

// GET /AGENTS.md – everything after signup, for agents, generated from the contract
export function GET(): Response {
  return publicDocument(renderAgentsGuide({ toolListBytes: toolListBytes() }), 'text/markdown');
}

// OPTIONS /AGENTS.md – CORS preflight
export const OPTIONS = publicOptions;
