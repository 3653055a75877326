// The three agent guides, built from the contract and the running configuration.
import { config } from '../config';
import { endpoints } from '../contract';
import { advertisedTools } from '../mcp/server';
import { agentsGuide } from './agents';
import { llmsTxt } from './llms';
import { signupGuide, type GuideContext } from './signup';

let measured: number | undefined;
/** tools/list's size, measured once per process (the list is fixed at build). */
function toolListBytes(): number {
  measured ??= Buffer.byteLength(JSON.stringify({ tools: advertisedTools(endpoints) }));
  return measured;
}

export function guideContext(): GuideContext {
  const cfg = config();
  return {
    baseUrl: cfg.publicBaseUrl,
    limits: cfg.limits,
    requirePersonConsent: cfg.requirePersonConsent,
    toolListBytes: toolListBytes(),
  };
}

export const renderSignupGuide = () => signupGuide(guideContext());
export const renderAgentsGuide = () => agentsGuide(endpoints, guideContext());
export const renderLlmsTxt = () => llmsTxt(endpoints, config().publicBaseUrl);
