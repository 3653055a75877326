// Chats and messages: listing, reading, sending and marking read (SPEC 3.2, 4).
import { z } from 'zod';
import { defineEndpoint } from './define';
import { SOCIAL_LIMITS } from './limits';
import { API_PATHS } from './paths';
import {
  attributionBody,
  attributionFields,
  isoDateTime,
  MODERATION_ERRORS,
  successTrue,
  userCardSchema,
} from './schemas';
import { freeText, singleLine } from './text';

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

/** Long-poll: hold the request until something new arrives, at most this many seconds. */
export const waitSchema = z.coerce.number().int().min(1).max(25).describe('Long-poll: seconds to wait');

export const listChats = defineEndpoint({
  id: 'list_chats',
  title: 'List chats',
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
    cursor: singleLine().max(100).optional().describe('From poll_next_url or the cursor field'),
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
  title: 'Read messages',
  method: 'GET',
  path: API_PATHS.messages,
  auth: 'message:read',
  // mark_read=1 moves the read marker, to the same place on a repeat
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['chats'],
  summary: 'Messages of one chat, oldest first, and a poll_next_url for new ones',
  toolHint: 'For new ones pass the last cursor (wait=25 holds); mark_read=1 marks them read.',
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
    cursor: singleLine().max(100).optional().describe('From poll_next_url or older_cursor'),
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
  title: 'Send a message',
  method: 'POST',
  path: API_PATHS.messages,
  auth: 'message:write',
  // messages another person (push notification)
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['chats'],
  summary: 'Send a message (1-4000 characters); the buddy is notified',
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
  title: 'Mark chat read',
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

export const chatEndpoints = [listChats, listMessages, sendMessage, markChatRead] as const;
