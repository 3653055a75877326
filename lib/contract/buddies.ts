// Buddy requests: asking, listing, accepting, declining and withdrawing (SPEC 2.5, 2.6).
import { z } from 'zod';
import { chatSchema, messageSchema } from './chats';
import { defineEndpoint } from './define';
import { activityListSchema } from './forgiving';
import { BUDDY_REQUEST_STATES, SOCIAL_LIMITS } from './limits';
import { API_PATHS } from './paths';
import {
  activityIdsSchema,
  attributionBody,
  attributionFields,
  isoDateTime,
  MODERATION_ERRORS,
  slugParams,
  successTrue,
  userCardSchema,
} from './schemas';
import { freeText, singleLine } from './text';

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

const invitationParams = z.object({ invitationId: singleLine().min(1).max(80) });

export const buddyRequestBodySchema = z.strictObject({
  message: freeText().trim().max(SOCIAL_LIMITS.requestMessage).nullish(),
  activityIds: activityListSchema({
    field: 'activityIds',
    form: 'body',
    max: SOCIAL_LIMITS.activityIds,
    allowEmpty: true,
    describe: 'What to do together: activity ids or plain English',
  }).nullish(),
  ...attributionFields,
});
export type BuddyRequestBody = z.infer<typeof buddyRequestBodySchema>;

export const sendBuddyRequest = defineEndpoint({
  id: 'send_buddy_request',
  title: 'Ask to be buddies',
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
    'forbidden',
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
  title: 'Buddy requests',
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
  title: 'Accept a request',
  method: 'POST',
  path: API_PATHS.acceptRequest,
  auth: 'buddy:write',
  // opens a chat with another person and may message them
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['buddies'],
  summary: 'Accept a request sent to you: creates the chat',
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

export const declineBuddyRequest = defineEndpoint({
  id: 'decline_buddy_request',
  title: 'Decline a request',
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
  title: 'Withdraw a request',
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

export const buddyEndpoints = [
  sendBuddyRequest,
  listBuddyRequests,
  acceptBuddyRequest,
  declineBuddyRequest,
  cancelBuddyRequest,
] as const;
