import { publicDocument, publicOptions } from '@/lib/docs/serve';
import { renderSignupGuide } from '@/lib/guides';

// GET /SIGNUP.md – the signup walkthrough for agents, generated from the contract
export function GET(): Response {
  return publicDocument(renderSignupGuide(), 'text/markdown');
}

// OPTIONS /SIGNUP.md – CORS preflight
export const OPTIONS = publicOptions;
