// get_guide: the long guidance (limits, every error code, etiquette, the signup
// checklist) as a tool, so tools/list can stay short and a model reads a guide only
// when it needs one. The same documents as /SIGNUP.md, /AGENTS.md and /llms.txt.
import { renderAgentsGuide, renderLlmsTxt, renderSignupGuide } from '../guides';
import type { ToolResult } from './call';

/** What the server measured for the guides (they state tools/list's size; lib/guides cannot import lib/mcp). */
export interface GuideMeasures {
  toolListBytes?: number;
}

export const GUIDES = {
  signup: { render: (_measured: GuideMeasures) => renderSignupGuide(), about: 'what to ask, how to register' },
  agents: {
    render: (measured: GuideMeasures) => renderAgentsGuide(measured),
    about: 'polling, plans, confirmations, limits, errors',
  },
  overview: { render: (_measured: GuideMeasures) => renderLlmsTxt(), about: 'the service in brief' },
} as const;
export type GuideName = keyof typeof GUIDES;

export const GUIDE_TOOL = {
  name: 'get_guide',
  title: 'Read a guide',
  description:
    'Read a guide when unsure (no token needed): ' +
    Object.entries(GUIDES)
      .map(([name, guide]) => `${name} (${guide.about})`)
      .join(', ') +
    '.',
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', enum: Object.keys(GUIDES) } },
    required: ['name'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
} as const;

export function guideResult(args: Record<string, unknown>, measured: GuideMeasures = {}): ToolResult {
  const name = args.name;
  // Own names only: `in` would also find "constructor" and "toString" on the prototype (issue 41).
  if (typeof name !== 'string' || !Object.hasOwn(GUIDES, name)) {
    const names = Object.keys(GUIDES).join(', ');
    const envelope = {
      error: {
        code: 'validation_failed',
        message: `name must be one of: ${names}`,
        fields: { name: `one of ${names}` },
      },
    };
    return {
      content: [
        { type: 'text', text: `Error 400 validation_failed: name must be one of ${names}` },
        { type: 'text', text: JSON.stringify(envelope) },
      ],
      isError: true,
    };
  }
  return { content: [{ type: 'text', text: GUIDES[name as GuideName].render(measured) }] };
}
