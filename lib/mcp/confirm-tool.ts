// The app-only tool behind a person's Send tap (issue 32 §2), and the prepare step of
// send_buddy_request. MCP Apps hosts hide an app-only tool (`_meta.ui.visibility: ["app"]`)
// from the model and let only the view call it; the server does not rely on that: the tool
// needs a token that only the view was given, bound to the caller and the exact payload.
import { getDb } from '@/db';
import { authenticate } from '../http/route';
import { ApiError } from '../http/errors';
import { config } from '../config';
import { apiErrorResult, callRoute, type IncomingCall, type RouteHandler, type ToolResult } from './call';
import { CONFIRMATION_META_KEY, declaresUi, prepareConfirmation, spendConfirmation } from './person-confirm';
import type { ToolDefinition } from './tools';
import { viewOfTool } from './views/registry';

export const SEND_TOOL = 'send_buddy_request';

export const CONFIRM_TOOL = {
  name: 'confirm_buddy_request',
  description: "Sends a prepared buddy request on a person's tap.",
  // Open: the view sends back the prepared payload whole (slug, message, activityIds); the token binds it.
  inputSchema: {
    type: 'object',
    properties: { token: { type: 'string' }, slug: { type: 'string' } },
    required: ['token'],
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  _meta: { ui: { resourceUri: viewOfTool(SEND_TOOL)?.uri ?? '', visibility: ['app'] } },
} as const;

/** The argument send_buddy_request takes over MCP only: the REST endpoint is unchanged. */
export const CONFIRM_ARGUMENT = { type: 'string', enum: ['person'], description: 'A person taps Send' };

/** Whether this call must wait for a person: asked for, or the host renders views and the operator requires it. */
export function needsPerson(confirm: unknown, requestCapabilities: unknown): boolean {
  if (confirm === 'person') return true;
  return config().mcpRequirePersonConfirm === 'ui-hosts' && declaresUi(requestCapabilities);
}

async function callerId(incoming: IncomingCall | undefined): Promise<string> {
  // No MCP request: no Authorization either, so authenticate answers the usual 401.
  const caller = await authenticate(
    getDb(),
    incoming?.request ?? { method: 'POST', headers: new Headers(), url: '' },
    'buddy:write',
  );
  return caller.userId;
}

/** send_buddy_request with a person to confirm: nothing is sent; the view gets the token. */
export async function prepareSend(
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
): Promise<ToolResult> {
  try {
    if (typeof args.slug !== 'string' || args.slug === '')
      throw new ApiError('validation_failed', 'slug is required', { fields: { slug: 'Required' } });
    const userId = await callerId(incoming);
    const { token, expiresAt } = await prepareConfirmation(getDb(), userId, SEND_TOOL, args);
    const summary = {
      status: 'awaiting_person',
      payload: args,
      expires_at: expiresAt.toISOString(),
    };
    return {
      content: [
        {
          type: 'text',
          text: 'Not sent yet: the person sees this request in the view and taps Send or edits it. Do not send it again.',
        },
        { type: 'text', text: JSON.stringify(summary) },
      ],
      _meta: { [CONFIRMATION_META_KEY]: { token, expires_at: summary.expires_at, payload: args } },
    };
  } catch (error) {
    return apiErrorResult(error);
  }
}

/** The person's tap: spends the confirmation for exactly this payload, then sends through the route. */
export async function confirmSend(
  sendTool: ToolDefinition,
  handler: RouteHandler,
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
  baseUrl: string,
): Promise<ToolResult> {
  try {
    const { token, ...payload } = args;
    const userId = await callerId(incoming);
    const spent = typeof token === 'string' && (await spendConfirmation(getDb(), userId, SEND_TOOL, token, payload));
    if (!spent)
      throw new ApiError('forbidden', 'No confirmation for this request: it was used, expired, or changed', {
        hint: 'Only the person can send it, with Send in the view; prepare it again with confirm: "person".',
      });
    return await callRoute(sendTool, handler, payload, incoming, baseUrl);
  } catch (error) {
    return apiErrorResult(error);
  }
}
