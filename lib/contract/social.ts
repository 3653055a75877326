// Buddy requests, chats, messages, the inbox, blocks, reports and push tokens
// (SPEC 2.5, 2.6, 3.2, 4, 6, 7, 8).
import { z } from 'zod';
import { defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { BUDDY_REQUEST_STATES, SOCIAL_LIMITS } from './limits';
import { activityListSchema, reportReasonInputSchema } from './forgiving';
import { activityIdsSchema, attributionFields, isoDateTime, userCardSchema } from './schemas';
import { planSchema } from './plans';
import { freeText, singleLine } from './text';

export { BUDDY_REQUEST_STATES, REPORT_REASONS, SOCIAL_LIMITS } from './limits';

// ---------------------------------------------------------------------------
// Records

export { userCardSchema, type UserCard } from './schemas';

export const buddyRequestSchema = z.object({
  id: z.string().describe('The invitationId'),
  invitationId: z.string(),
  state: z.enum(BUDDY_REQUEST_STATES),
  direction: z.enum(['sent', 'received']).describe('From the caller’s point of view'),
  message: z.string().nullable(),
  activityIds: activityIdsSchema,
  created_at: isoDateTime,
  responded_at: isoDateTime.nullable(),
  user: userCardSchema.describe('The other person: the recipient of a sent request, the sender of a received one'),
  chatId: z.string().nullable().describe('Set once accepted'),
});
export type BuddyRequestRecord = z.infer<typeof buddyRequestSchema>;

export const messageSchema = z.object({
  id: z.string().describe('Increases with every message in a chat'),
  chatId: z.string(),
  sender_id: z.string(),
  from_me: z.boolean(),
  text: z.string(),
  created_at: isoDateTime,
  created_at_ms: z
    .number()
    .int()
    .describe('created_at in milliseconds since the epoch (what `since` compares against)'),
  agent_name: z.string().nullable(),
});
export type MessageRecord = z.infer<typeof messageSchema>;

export const chatSchema = z.object({
  chatId: z.string(),
  buddy: userCardSchema,
  last_message: messageSchema.nullable(),
  unread_count: z.number().int(),
  created_at: isoDateTime,
  last_activity_at: isoDateTime,
  messages_url: z.string(),
});
export type ChatRecord = z.infer<typeof chatSchema>;

// ---------------------------------------------------------------------------
// Shared parameter schemas

const slugParams = z.object({ slug: singleLine().min(1).max(80) });
const invitationParams = z.object({ invitationId: singleLine().min(1).max(80) });
const chatParams = z.object({ chatId: singleLine().min(1).max(80) });

/** Query flags: 1/true/yes or 0/false/no. */
const queryFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'], { message: 'must be 1 or 0' })
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

/** Milliseconds since the epoch, or an ISO 8601 date-time: "only items newer than this". */
export const sinceSchema = singleLine()
  .max(40)
  .transform((value, ctx) => {
    const ms = /^\d{1,15}$/.test(value) ? Number(value) : Date.parse(value);
    if (!Number.isFinite(ms) || !/^\d{1,15}$|^\d{4}-\d{2}-\d{2}/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be milliseconds since the epoch or an ISO 8601 date-time' });
      return z.NEVER;
    }
    return new Date(ms);
  });

const successTrue = z.literal(true);

/** A moderated text (request message, first message, chat message) refused by one of the rules. */
const MODERATION_ERRORS = [
  'message_blocked_profanity',
  'message_blocked_threat',
  'message_blocked_solicitation',
  'message_blocked_shouting',
  'message_blocked_spam',
] as const;

// ---------------------------------------------------------------------------
// Buddy requests

export const buddyRequestBodySchema = z.strictObject({
  message: freeText().trim().max(SOCIAL_LIMITS.requestMessage).nullish(),
  activityIds: activityListSchema({
    field: 'activityIds',
    form: 'body',
    max: SOCIAL_LIMITS.activityIds,
    allowEmpty: true,
    describe: 'What you would do together: activity ids or plain English ("bouldering")',
  }).nullish(),
  ...attributionFields,
});
export type BuddyRequestBody = z.infer<typeof buddyRequestBodySchema>;

export const sendBuddyRequest = defineEndpoint({
  id: 'send_buddy_request',
  method: 'POST',
  path: API_PATHS.buddyRequest,
  auth: 'buddy:write',
  // reaches another person
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['buddies'],
  summary: 'Ask someone (slug or user id) to be buddies',
  toolHint: 'Only when the person asked you to.',
  description:
    'Creates a pending request the other person sees in their inbox ("created"). ' +
    'Sent again while pending: the same request ("already_pending"). ' +
    'If they already asked you, accepts theirs instead: the chat is created and `message` is your first message ("accepted_reverse"). ' +
    'Already buddies → 409 already_buddies; yourself → 400 cannot_target_self. The message is moderated.',
  params: slugParams,
  body: buddyRequestBodySchema,
  bodyOptional: true,
  response: z.object({
    success: successTrue,
    outcome: z.enum(['created', 'already_pending', 'accepted_reverse']),
    request: buddyRequestSchema,
    chat: chatSchema.nullable(),
  }),
  status: 201,
  alsoOk: { status: 200, when: 'Not created (outcome already_pending or accepted_reverse)' },
  errors: [
    'validation_failed',
    'not_found',
    'cannot_target_self',
    'already_buddies',
    'request_declined',
    'recipient_unavailable',
    ...MODERATION_ERRORS,
  ],
  requestExample: {
    message: 'Hi! Saw you like hiking too. Up for a Saturday morning trail?',
    activityIds: ['hiking'],
    agentName: 'ExampleAgent',
  },
});

export const listBuddyRequests = defineEndpoint({
  id: 'list_buddy_requests',
  method: 'GET',
  path: API_PATHS.buddyRequests,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['buddies'],
  summary: 'Your sent and received buddy requests',
  description: 'Newest first, at most 100 of each; `state` filters both lists.',
  query: z.object({ state: z.enum(BUDDY_REQUEST_STATES).optional() }),
  response: z.object({ sent: z.array(buddyRequestSchema), received: z.array(buddyRequestSchema) }),
});

export const acceptBodySchema = z.strictObject({
  firstMessage: freeText().trim().max(SOCIAL_LIMITS.firstMessage).nullish(),
  ...attributionFields,
});
export type AcceptBody = z.infer<typeof acceptBodySchema>;

const respondErrors = ['not_found', 'forbidden', 'request_not_pending', 'recipient_unavailable'] as const;

export const acceptBuddyRequest = defineEndpoint({
  id: 'accept_buddy_request',
  method: 'POST',
  path: API_PATHS.acceptRequest,
  auth: 'buddy:write',
  // opens a chat with another person and may message them
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['buddies'],
  summary: 'Accept a request sent to you: creates the connection and the chat',
  toolHint: "Only as the person decides; firstMessage (optional) is the person's own words.",
  description:
    'Only the recipient may accept. In one transaction the buddy connection and chat are created ' +
    'and firstMessage (if given, moderated) is sent. A request that is no longer pending → 409 request_not_pending.',
  params: invitationParams,
  body: acceptBodySchema,
  bodyOptional: true,
  response: z.object({
    success: successTrue,
    request: buddyRequestSchema,
    chat: chatSchema,
    first_message: messageSchema.nullable(),
  }),
  errors: [...respondErrors, ...MODERATION_ERRORS],
  requestExample: { firstMessage: 'Yes! Saturday 9am at the north trailhead?' },
});

const attributionBody = z.strictObject({ ...attributionFields });

export const declineBuddyRequest = defineEndpoint({
  id: 'decline_buddy_request',
  method: 'POST',
  path: API_PATHS.declineRequest,
  auth: 'buddy:write',
  // answers another person's request for good
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['buddies'],
  summary: 'Decline a request sent to you (no chat is created)',
  toolHint: 'Only as the person decides; the sender may not ask again for 30 days.',
  params: invitationParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({ success: successTrue, request: buddyRequestSchema }),
  errors: [...respondErrors],
});

export const cancelBuddyRequest = defineEndpoint({
  id: 'cancel_buddy_request',
  method: 'POST',
  path: API_PATHS.cancelRequest,
  auth: 'buddy:write',
  // withdraws a request from another person's inbox for good
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['buddies'],
  summary: 'Withdraw a pending request you sent',
  params: invitationParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({ success: successTrue, request: buddyRequestSchema }),
  errors: [...respondErrors],
});

// ---------------------------------------------------------------------------
// Chats and messages

/** Long-poll: hold the request until something new arrives, at most this many seconds. */
const waitSchema = z.coerce.number().int().min(1).max(25).describe('Long-poll: seconds to hold for something new');

export const listChats = defineEndpoint({
  id: 'list_chats',
  method: 'GET',
  path: API_PATHS.chats,
  auth: 'message:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['chats'],
  summary: 'Your chats, one per buddy, with last_message and unread_count',
  description:
    'Most recently active first; unread_only=1 keeps chats with unread messages. ' +
    'poll_next_url with wait=25 holds until a chat changes.',
  query: z.object({
    unread_only: queryFlag.optional(),
    limit: z.coerce.number().int().min(1).max(500).optional(),
    cursor: singleLine().max(100).optional().describe('Opaque; copy it from poll_next_url (or the cursor field)'),
    wait: waitSchema.optional(),
  }),
  response: z.object({
    chats: z.array(chatSchema),
    total_unread: z.number().int(),
    cursor: z.string().describe('Pass it back with wait=25 to hold until something changes'),
    poll_next_url: z.string(),
  }),
});

export const listMessages = defineEndpoint({
  id: 'list_messages',
  method: 'GET',
  path: API_PATHS.messages,
  auth: 'message:read',
  // mark_read=1 moves the read marker, to the same place on a repeat
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['chats'],
  summary: 'Messages of one chat, oldest first, and a poll_next_url for new ones',
  toolHint: 'For new ones pass the last cursor (wait=25 holds for the next); mark_read=1 marks what you read.',
  description:
    'Without since/cursor: the latest `limit`; with since (ms or ISO): those after it, oldest first; ' +
    'cursor=older_cursor: the page before. ' +
    'poll_next_url yields each message exactly once. buddy_last_read_message_id: their read marker; ' +
    'mark_read=1 moves yours to the last message returned. ' +
    'wait=25 (with cursor or since) long-polls for the next message.',
  params: chatParams,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(SOCIAL_LIMITS.messagesPageMax).optional(),
    since: sinceSchema.optional(),
    cursor: singleLine().max(100).optional().describe('Opaque; from poll_next_url or older_cursor'),
    mark_read: queryFlag.optional(),
    wait: waitSchema.optional(),
  }),
  response: z.object({
    chatId: z.string(),
    messages: z.array(messageSchema),
    unread_count: z.number().int(),
    buddy_last_read_message_id: z.string().nullable(),
    has_more: z.boolean().describe('More messages follow this page already: fetch poll_next_url now'),
    older_cursor: z.string().nullable().describe('Pass as cursor for the page before this one; null if none is older'),
    poll_next_url: z.string(),
  }),
  errors: ['not_found', 'validation_failed'],
});

export const sendMessageBodySchema = z.strictObject({
  text: freeText()
    .trim()
    .min(1, 'must not be empty')
    .max(SOCIAL_LIMITS.messageText, `must be at most ${SOCIAL_LIMITS.messageText} characters`),
  ...attributionFields,
});
export type SendMessageBody = z.infer<typeof sendMessageBodySchema>;

export const sendMessage = defineEndpoint({
  id: 'send_message',
  method: 'POST',
  path: API_PATHS.messages,
  auth: 'message:write',
  // messages another person (push notification)
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['chats'],
  summary: 'Send a message (1-4000 characters); the other person gets a push notification',
  toolHint: 'Send only what the person wrote or approved.',
  description:
    'Moderated (slurs, threats, sexual solicitation, shouting, repeated-character spam → 422 naming the rule; the message is not stored). ' +
    'At most MESSAGE_LIMIT_PER_10_MIN (default 20) messages per sender per chat in any rolling 10 minutes → 429 with Retry-After.',
  params: chatParams,
  body: sendMessageBodySchema,
  response: z.object({ success: successTrue, message: messageSchema }),
  status: 201,
  errors: ['validation_failed', 'not_found', 'chat_unavailable', 'rate_limited', ...MODERATION_ERRORS],
  requestExample: { text: 'See you at 9 by the north trailhead!' },
});

export const markChatRead = defineEndpoint({
  id: 'mark_chat_read',
  method: 'POST',
  path: API_PATHS.read,
  auth: 'message:write',
  // only the caller's read marker
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['chats'],
  summary: 'Mark everything in the chat as read (idempotent)',
  params: chatParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({
    success: successTrue,
    chatId: z.string(),
    last_read_message_id: z.string().nullable(),
    unread_count: z.number().int(),
  }),
  errors: ['not_found'],
});

// ---------------------------------------------------------------------------
// The inbox

export const inboxChatSchema = chatSchema.extend({
  new_messages: z
    .array(messageSchema)
    .describe(
      `Newest unread messages after the cursor or since (at most ${SOCIAL_LIMITS.inboxMessagesPerChat}), oldest first`,
    ),
  unread_url: z.string().describe('Messages from your read marker on: follow it to read every unread message'),
});

export const getInbox = defineEndpoint({
  id: 'get_inbox',
  method: 'GET',
  path: API_PATHS.inbox,
  auth: 'message:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['chats'],
  summary: 'Everything new in one call: pending requests, accepted requests, unread chats with their new messages',
  toolHint: 'Long-poll: pass the last cursor and wait=25, then call again; each new message and request comes once.',
  description:
    'Long-poll: follow poll_next_url with wait=25 (AGENTS.md, Polling rhythm); each new message and request comes once. ' +
    `pending_requests: awaiting your answer (newest ${SOCIAL_LIMITS.inboxItems}). ` +
    `accepted_requests: yours accepted after since (default: ${SOCIAL_LIMITS.inboxAcceptedDays} days). ` +
    'chats: unread ones, with their newest unread messages; unread lasts until you read the chat. ' +
    'plans_to_answer, next_plan: see list_plans; a plan change wakes the poll.',
  query: z.object({
    since: sinceSchema.optional(),
    cursor: singleLine()
      .max(8000) // a snapshot lists the transactions in progress: bounded by connections
      .optional()
      .describe('Opaque, from poll_next_url or the last answer'),
    wait: waitSchema.optional(),
  }),
  response: z.object({
    pending_requests: z.array(buddyRequestSchema),
    pending_requests_count: z.number().int(),
    accepted_requests: z.array(buddyRequestSchema),
    chats: z.array(inboxChatSchema),
    unread_chats_count: z.number().int(),
    unread_messages_count: z.number().int(),
    plans_to_answer: z.array(planSchema).describe('Proposals waiting for your answer, soonest first'),
    next_plan: planSchema.nullable().describe('Your next confirmed plan not yet over'),
    since: isoDateTime,
    server_time: isoDateTime.describe('Not part of the ETag'),
    cursor: z.string().describe('What this answer has shown you: pass it back (with wait=25) for what comes next'),
    poll_next_url: z.string().describe('The next poll (cursor and since)'),
    next_poll_url: z.string().describe('Deprecated alias of poll_next_url (same URL), kept through API v1'),
    poll_interval_seconds: z.number().int(),
  }),
});

// ---------------------------------------------------------------------------
// Blocks and reports

export const blockUser = defineEndpoint({
  id: 'block_user',
  method: 'POST',
  path: API_PATHS.block,
  auth: 'buddy:write',
  // cuts off another person
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['safety'],
  summary: 'Block someone: no requests or messages either way; they vanish from your lists',
  toolHint: 'Only when the person asks.',
  description: 'Idempotent. They are not told. Existing chats stay stored but hidden from you until you unblock.',
  params: slugParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({ success: successTrue, blocked: z.boolean(), user: userCardSchema }),
  errors: ['not_found', 'cannot_target_self'],
});

export const unblockUser = defineEndpoint({
  id: 'unblock_user',
  method: 'DELETE',
  path: API_PATHS.block,
  auth: 'buddy:write',
  // removes the block: another person can reach you again
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['safety'],
  summary: 'Unblock someone (idempotent)',
  params: slugParams,
  body: attributionBody,
  bodyOptional: true,
  response: z.object({ success: successTrue, blocked: z.boolean(), user: userCardSchema }),
  errors: ['not_found', 'cannot_target_self'],
});

export const listBlocks = defineEndpoint({
  id: 'list_blocks',
  method: 'GET',
  path: API_PATHS.blocks,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['safety'],
  summary: 'The people you have blocked',
  response: z.object({ blocked: z.array(userCardSchema.extend({ blocked_at: isoDateTime })) }),
});

export const reportBodySchema = z.strictObject({
  reason: reportReasonInputSchema.describe('One of the listed reasons, or plain words read as one (noted)'),
  text: freeText().trim().max(SOCIAL_LIMITS.reportText).nullish().describe('What happened, in the user’s words'),
  chatId: singleLine().max(80).nullish().describe('The chat it happened in, if any'),
  block: z.boolean().nullish().describe('Also block them (default false)'),
  ...attributionFields,
});
export type ReportBody = z.infer<typeof reportBodySchema>;

export const reportUser = defineEndpoint({
  id: 'report_user',
  method: 'POST',
  path: API_PATHS.report,
  auth: 'buddy:write',
  // adds a report for moderators
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  tags: ['safety'],
  summary: 'Report someone to the moderators (optionally blocking them too)',
  toolHint: 'Only when the person asks.',
  params: slugParams,
  body: reportBodySchema,
  response: z.object({
    success: successTrue,
    reportId: z.string(),
    blocked: z.boolean(),
    warnings: z
      .object({ normalized: z.array(z.string()) })
      .optional()
      .describe('Present when the reason was given in plain words: how it was read'),
  }),
  status: 201,
  errors: ['validation_failed', 'not_found', 'cannot_target_self'],
  requestExample: { reason: 'harassment', text: 'Kept messaging after I said no.', block: true },
});

// ---------------------------------------------------------------------------
// Push tokens

export const pushTokenBodySchema = z.strictObject({
  token: singleLine()
    .trim()
    .min(1)
    .max(SOCIAL_LIMITS.pushToken)
    .describe('Expo push token, e.g. ExponentPushToken[xxxxxxxx]'),
  platform: z.enum(['ios', 'android', 'web']).nullish(),
  ...attributionFields,
});
export type PushTokenBody = z.infer<typeof pushTokenBodySchema>;

export const registerPushToken = defineEndpoint({
  id: 'register_push_token',
  method: 'POST',
  path: API_PATHS.pushTokens,
  auth: 'profile:write',
  // registering the same token again changes nothing
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['notifications'],
  summary: "Register this device's Expo push token for notifications",
  description:
    'Idempotent: created: true for a new token, false for one already registered. ' +
    'A token registered by another account moves to this one (one signed-in user per device).',
  body: pushTokenBodySchema,
  response: z.object({
    success: successTrue,
    token: z.string(),
    platform: z.string().nullable(),
    created: z.boolean(),
  }),
  status: 201,
  alsoOk: { status: 200, when: 'Already registered' },
  errors: ['validation_failed'],
});

export const deletePushToken = defineEndpoint({
  id: 'delete_push_token',
  method: 'DELETE',
  path: API_PATHS.pushTokens,
  auth: 'profile:write',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  tags: ['notifications'],
  summary: 'Stop notifications to a device (idempotent)',
  body: z.strictObject({ token: singleLine().trim().min(1).max(SOCIAL_LIMITS.pushToken), ...attributionFields }),
  response: z.object({ success: successTrue, removed: z.boolean() }),
  errors: ['validation_failed'],
});

export const socialEndpoints = [
  sendBuddyRequest,
  listBuddyRequests,
  acceptBuddyRequest,
  declineBuddyRequest,
  cancelBuddyRequest,
  getInbox,
  listChats,
  listMessages,
  sendMessage,
  markChatRead,
  blockUser,
  unblockUser,
  listBlocks,
  reportUser,
  registerPushToken,
  deletePushToken,
] as const;
