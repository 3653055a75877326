// The app-only tool behind a person's tap (issue 32 §2), and the prepare step of the
// actions that reach another human: a buddy request, the first message in a chat, accepting
// a plan. MCP Apps hosts hide an app-only tool (`_meta.ui.visibility: ["app"]`) from the
// model and let only the view call it; the server does not rely on that: the tool needs a
// token that only the view was given, bound to the caller, the kind and the exact payload.
import { sql } from 'kysely';
import { getDb } from '@/db';
import { authenticate } from '../http/route';
import { ApiError } from '../core/errors';
import { config } from '../config';
import { apiErrorResult, callRoute, type IncomingCall, type LoadRouteHandler, type ToolResult } from './call';
import {
  CONFIRMATION_META_KEY,
  type ConfirmAction,
  declaresUi,
  prepareConfirmation,
  spendConfirmation,
} from './person-confirm';
import type { ToolDefinition } from './tools';

/** What each kind needs: its payload's required fields and the token scope of the action itself. */
export const CONFIRMABLE: Readonly<Record<ConfirmAction, { required: readonly string[]; scope: string }>> = {
  send_buddy_request: { required: ['slug'], scope: 'buddy:write' },
  send_message: { required: ['chatId', 'text'], scope: 'message:write' },
  accept_plan: { required: ['planId'], scope: 'buddy:write' },
};

export const isConfirmable = (name: string): name is ConfirmAction => Object.hasOwn(CONFIRMABLE, name);

export const CONFIRM_TOOL = {
  name: 'confirm_action',
  title: 'Confirm an action',
  description: "Does a prepared action on a person's tap.",
  // Open: the view sends back the prepared payload whole; the token binds it.
  inputSchema: {
    type: 'object',
    properties: { kind: { type: 'string' }, token: { type: 'string' } },
    required: ['kind', 'token'],
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  _meta: { ui: { visibility: ['app'] } },
} as const;

/** The argument the confirmable tools take over MCP only: the REST endpoints are unchanged. */
export const CONFIRM_ARGUMENT = { type: 'string', enum: ['person'], description: "Wait for the person's tap" };

/**
 * Whether the operator's rule asks this host for a person's tap: the host renders views and
 * MCP_REQUIRE_PERSON_CONFIRM is ui-hosts. (`confirm: "person"` asks for it in any host.)
 */
export function needsPerson(confirm: unknown, requestCapabilities: unknown): boolean {
  if (confirm === 'person') return true;
  return config().mcpRequirePersonConfirm === 'ui-hosts' && declaresUi(requestCapabilities);
}

/** The caller of a tool call; with no MCP request there is no Authorization either, so the usual 401. */
function caller(incoming: IncomingCall | undefined, scope: string) {
  return authenticate(getDb(), incoming?.request ?? { method: 'POST', headers: new Headers(), url: '' }, scope);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether the caller has sent nothing in this chat yet (their first message needs the tap).
 * A chat that is not theirs is no first message here: the route answers it with 404.
 */
async function isFirstMessage(incoming: IncomingCall | undefined, chatId: unknown): Promise<boolean> {
  if (typeof chatId !== 'string' || !UUID.test(chatId)) return false;
  const { userId } = await caller(incoming, CONFIRMABLE.send_message.scope);
  const row = await getDb()
    .selectFrom('chat_members')
    .select(
      sql<boolean>`exists (select 1 from messages m where m.chat_id = chat_members.chat_id and m.sender_id = ${userId})`.as(
        'sent',
      ),
    )
    .where('chat_id', '=', chatId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined && !row.sent;
}

/** Whether this call of a confirmable tool waits for a person. */
export async function waitsForPerson(
  kind: ConfirmAction,
  confirm: unknown,
  capabilities: unknown,
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
): Promise<boolean> {
  if (!needsPerson(confirm, capabilities)) return false;
  if (confirm === 'person' || kind !== 'send_message') return true;
  return isFirstMessage(incoming, args.chatId);
}

const WAITING: Record<ConfirmAction, string> = {
  send_buddy_request: 'Not sent yet: the person sees this request in the view and taps Send or edits it.',
  send_message: 'Not sent yet: the person sees this message in the view and taps Send or edits it.',
  accept_plan: 'Not accepted yet: the person sees this plan in the view and taps Accept.',
};

/**
 * A confirmable tool with a person to confirm: nothing happens; the view gets the token.
 * `shown` is what the view shows beside the payload (accept_plan: the plan itself).
 */
export async function prepareAction(
  kind: ConfirmAction,
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
  shown?: Record<string, unknown>,
): Promise<ToolResult> {
  try {
    const missing = CONFIRMABLE[kind].required.filter((key) => typeof args[key] !== 'string' || args[key] === '');
    if (missing.length)
      throw new ApiError('validation_failed', `${missing.join(', ')} required`, {
        fields: Object.fromEntries(missing.map((key) => [key, 'Required'])),
      });
    const { userId } = await caller(incoming, CONFIRMABLE[kind].scope);
    const { token, expiresAt } = await prepareConfirmation(getDb(), userId, kind, args);
    const expires_at = expiresAt.toISOString();
    return {
      content: [
        { type: 'text', text: `${WAITING[kind]} Do not do it again.` },
        { type: 'text', text: JSON.stringify({ status: 'awaiting_person', kind, payload: args, expires_at }) },
      ],
      _meta: { [CONFIRMATION_META_KEY]: { kind, token, expires_at, payload: args, ...shown } },
    };
  } catch (error) {
    return apiErrorResult(error);
  }
}

/** The person's tap: spends the confirmation for exactly this kind and payload, then acts through the route. */
export async function confirmAction(
  tools: ReadonlyMap<string, { tool: ToolDefinition; loadHandler: LoadRouteHandler }>,
  args: Record<string, unknown>,
  incoming: IncomingCall | undefined,
  baseUrl: string,
): Promise<ToolResult> {
  try {
    const { kind, token, ...payload } = args;
    const target = typeof kind === 'string' && isConfirmable(kind) ? tools.get(kind) : undefined;
    const scope = target ? CONFIRMABLE[kind as ConfirmAction].scope : 'buddy:write';
    const { userId } = await caller(incoming, scope);
    const spent =
      target !== undefined &&
      typeof token === 'string' &&
      (await spendConfirmation(getDb(), userId, kind as ConfirmAction, token, payload));
    if (!spent || !target)
      throw new ApiError('forbidden', 'No confirmation for this action: it was used, expired, or changed', {
        hint: 'Only the person can confirm it, in the view; prepare it again with confirm: "person".',
      });
    return await callRoute(target.tool, target.loadHandler, payload, incoming, baseUrl);
  } catch (error) {
    return apiErrorResult(error);
  }
}
