// The three agent guides, built from the contract and the running configuration.
import { config } from '../config';
import { endpoints } from '../contract';
import { agentsGuide } from './agents';
import { llmsTxt } from './llms';
import { signupGuide, type GuideContext } from './signup';

export function guideContext(): GuideContext {
  const cfg = config();
  return {
    baseUrl: cfg.publicBaseUrl,
    limits: cfg.limits,
    requirePersonConsent: cfg.requirePersonConsent,
  };
}

export const renderSignupGuide = () => signupGuide(guideContext());
/** `measured`: what the caller measured (tools/list's size, from lib/mcp, which the guides do not import). */
export const renderAgentsGuide = (measured: Pick<GuideContext, 'toolListBytes'> = {}) =>
  agentsGuide(endpoints, { ...guideContext(), ...measured });
export const renderLlmsTxt = () => llmsTxt(endpoints, config().publicBaseUrl);
