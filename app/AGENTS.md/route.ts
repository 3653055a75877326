import { publicDocument, publicOptions } from '@/lib/docs/serve';
import { renderAgentsGuide } from '@/lib/guides';

// GET /AGENTS.md – everything after signup, for agents, generated from the contract
export function GET(): Response {
  return publicDocument(renderAgentsGuide(), 'text/markdown');
}

// OPTIONS /AGENTS.md – CORS preflight
export const OPTIONS = publicOptions;
