// The inbox: everything new in one call, long-polled (SPEC 4).
import { z } from 'zod';
import { buddyRequestSchema } from './buddies';
import { chatSchema, messageSchema, sinceSchema, waitSchema } from './chats';
import { defineEndpoint } from './define';
import { SOCIAL_LIMITS } from './limits';
import { API_PATHS } from './paths';
import { meetupPersonSchema, meetupSchema } from './meetups';
import { planSchema, planUpdateSchema } from './plans';
import { isoDateTime } from './schemas';
import { singleLine } from './text';

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
  title: 'Check inbox',
  method: 'GET',
  path: API_PATHS.inbox,
  auth: 'message:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['chats'],
  summary: 'Everything new in one call: requests, accepted requests, unread chats with new messages',
  toolHint: 'Long-poll: pass the last cursor and wait=25, then call again; each new message and request comes once.',
  description:
    'Long-poll: follow poll_next_url with wait=25 (AGENTS.md, Polling rhythm); each new message and request comes once. ' +
    `pending_requests: awaiting your answer (newest ${SOCIAL_LIMITS.inboxItems}). ` +
    `accepted_requests: yours accepted after since (default: ${SOCIAL_LIMITS.inboxAcceptedDays} days). ` +
    'chats: unread ones, with their newest unread messages; unread lasts until you read the chat. ' +
    'plans_to_answer, next_plan: see list_plans. plan_updates: every plan change since the cursor (proposed, countered, accepted, declined, cancelled, expired), once, with who acted; it wakes the poll.',
  query: z.object({
    since: sinceSchema.optional(),
    cursor: singleLine()
      .max(8000) // a snapshot lists the transactions in progress: bounded by connections
      .optional()
      .describe('From poll_next_url or the last answer'),
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
    plan_updates: z
      .array(planUpdateSchema)
      .describe('Plan changes since the cursor, oldest first, each once; yours too'),
    meetups_to_answer: z
      .array(
        z.object({
          what: z.enum(['approve_join', 'take_seat']),
          meetup: meetupSchema,
          person: meetupPersonSchema.nullable().describe('approve_join: who asks'),
        }),
      )
      .describe('Joins to approve (host: approve_meetup_join), seats offered to you (join to take)'),
    meetup_updates: z
      .array(
        z.object({
          what: z.enum(['promoted', 'approved', 'declined', 'seat_missed', 'cancelled']),
          meetup: meetupSchema,
        }),
      )
      .describe('Changes to your meetup places since the cursor'),
    meetup_chats: z
      .array(
        z.object({
          chatId: z.string(),
          meetup_id: z.string(),
          activity: z.string(),
          unread_count: z.number().int(),
          new_messages: z.array(messageSchema),
          unread_url: z.string(),
        }),
      )
      .describe('Meetup group chats with unread messages'),
    since: isoDateTime,
    server_time: isoDateTime.describe('Not part of the ETag'),
    cursor: z.string().describe('What this answer has shown you: pass it back (with wait=25) for what comes next'),
    poll_next_url: z.string().describe('The next poll (cursor and since)'),
    next_poll_url: z.string().describe('Deprecated alias of poll_next_url (same URL), kept through API v1'),
    poll_interval_seconds: z.number().int(),
  }),
});

export const inboxEndpoints = [getInbox] as const;
