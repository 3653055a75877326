import { publicDocument, publicOptions } from '@/lib/docs/serve';
import { renderLlmsTxt } from '@/lib/guides';

// GET /llms.txt – the llmstxt.org entry point for agents
export function GET(): Response {
  return publicDocument(renderLlmsTxt(), 'text/plain');
}

// OPTIONS /llms.txt – CORS preflight
export const OPTIONS = publicOptions;
