// Plans (issue 29, section 3): a time and place two buddies agree on. Proposed in their
// chat, answered by the other person, countered by a new plan naming the one it replaces,
// cancelled by either until it starts. Reading needs buddy:read, acting buddy:write.
import { z } from 'zod';
import { defineEndpoint } from './define';
import { PLAN_LIMITS, PLAN_STATUSES, PLAN_VIEWS } from './limits';
import { API_PATHS } from './paths';
import { attributionFields, isoDateTime, localOrInstant, userCardSchema } from './schemas';
import { freeText, singleLine } from './text';

export { PLAN_LIMITS, PLAN_STATUSES, PLAN_VIEWS } from './limits';

/** What a plan change in the inbox was (plan_updates): a counter is a proposal that replaces another. */
export const PLAN_UPDATES = ['proposed', 'countered', 'accepted', 'declined', 'cancelled', 'expired'] as const;
export type PlanUpdateKind = (typeof PLAN_UPDATES)[number];

// ---------------------------------------------------------------------------
// Records

const actorSchema = z
  .object({
    name: z.string().describe("The person's display name"),
    agent_name: z.string().nullable().describe('The assistant that acted for them, if any'),
  })
  .describe('Who acted, via which assistant');

export const planSchema = z.object({
  id: z.string(),
  chatId: z.string(),
  status: z.enum(PLAN_STATUSES),
  activity: z.string(),
  starts_at: isoDateTime,
  ends_at: isoDateTime,
  buddy_local_starts_at: isoDateTime.nullable().describe("The start on the buddy's clock, if it differs"),
  place: z.object({ name: z.string(), address: z.string().nullable() }),
  event_id: z.string().nullable(),
  note: z.string().nullable(),
  from_me: z.boolean().describe('You proposed it'),
  buddy: userCardSchema,
  replaces: z.string().nullable().describe('The plan this one counters'),
  superseded_by: z.string().nullable().describe('The plan that replaced this one'),
  calendar_uid: z.string().describe('Shared along a counter chain'),
  sequence: z
    .number()
    .int()
    .describe('The counter step: 0, then +1 per counter. Not the .ics SEQUENCE, which counts every change'),
  proposed_by: actorSchema,
  accepted_by: actorSchema.nullable(),
  declined_by: actorSchema.nullable(),
  cancelled_by: actorSchema.nullable(),
  cancel_reason: z.string().nullable(),
  page_url: z.string().describe('The plan’s page in the web app: send the person there (sharing, "Did you meet?")'),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
/** One plan change in the inbox (plan_updates). */
export const planUpdateSchema = z.object({
  what: z.enum(PLAN_UPDATES),
  by: z.enum(['you', 'buddy']).nullable().describe('null: nobody (an expiry, a block)'),
  at: isoDateTime,
  plan: planSchema,
});
export type PlanUpdateRecord = z.infer<typeof planUpdateSchema>;

export type PlanRecord = z.infer<typeof planSchema>;

// ---------------------------------------------------------------------------
// Inputs

/** A plan id; GET plans/{planId}.json arrives with the `.json` still on it. */
const planParams = z.object({
  planId: singleLine()
    .min(1)
    .max(80)
    .transform((value) => value.replace(/\.json$/, '')),
});
const chatParams = z.object({ chatId: singleLine().min(1).max(80) });

export const proposePlanBodySchema = z.strictObject({
  activity: singleLine().trim().min(1).max(PLAN_LIMITS.activity).describe('What you will do, e.g. "bouldering"'),
  starts_at: localOrInstant.describe(`Your clock: ISO or "sat 10am". At most ${PLAN_LIMITS.maxDaysAhead} days ahead`),
  ends_at: localOrInstant.nullish().describe(`Default: ${PLAN_LIMITS.defaultDurationHours} h after starts_at`),
  place: z.strictObject({
    name: singleLine().trim().min(1).max(PLAN_LIMITS.placeName).describe('A public place for a first meeting'),
    address: singleLine().trim().max(PLAN_LIMITS.placeAddress).nullish(),
  }),
  event_id: singleLine().trim().max(PLAN_LIMITS.eventId).nullish().describe('An event from events.json'),
  note: freeText().trim().max(PLAN_LIMITS.note).nullish(),
  replaces: singleLine().max(80).nullish().describe('Plan id this counters'),
  ...attributionFields,
});
export type ProposePlanBody = z.infer<typeof proposePlanBodySchema>;

const attributionBody = z.strictObject({ ...attributionFields });

export const cancelPlanBodySchema = z.strictObject({
  reason: freeText().trim().max(PLAN_LIMITS.cancelReason).nullish().describe('Shown to the other person'),
  if_status: z.enum(['proposed', 'confirmed']).nullish().describe('The status you saw; 409 if it moved on'),
  ...attributionFields,
});
export type CancelPlanBody = z.infer<typeof cancelPlanBodySchema>;

const planResponse = z.object({ success: z.literal(true), plan: planSchema });

const proposedPlanResponse = planResponse.extend({
  warnings: z
    .object({ normalized: z.array(z.string()) })
    .optional()
    .describe('Present when a time was read on your clock (no offset, or in words): what it was read as'),
});

const STATE_ERRORS = ['not_found', 'forbidden', 'plan_not_open', 'plan_superseded'] as const;

// ---------------------------------------------------------------------------
// Endpoints

export const proposePlan = defineEndpoint({
  id: 'propose_plan',
  title: 'Propose a plan',
  method: 'POST',
  path: API_PATHS.chatPlans,
  auth: 'buddy:write',
  // proposes a meeting to another person (push notification)
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['plans'],
  summary: 'Propose a time and place to a buddy in your chat',
  toolHint: 'Only what the person agreed to; a public place for a first meeting.',
  description:
    'replaces: a proposed plan is superseded at once, a confirmed one when this counter is accepted. ' +
    `Refused: a start in the past or over ${PLAN_LIMITS.maxDaysAhead} days ahead (400 validation_failed), ` +
    `more than ${PLAN_LIMITS.openProposalsPerChat} open proposals in the chat (429 too_many_open_plans), ` +
    'replacing a plan that is closed or started (409, error.plan).',
  params: chatParams,
  body: proposePlanBodySchema,
  response: proposedPlanResponse,
  status: 201,
  errors: [
    'validation_failed',
    'not_found',
    'chat_unavailable',
    'plan_not_open',
    'plan_superseded',
    'too_many_open_plans',
  ],
  requestExample: {
    activity: 'Bouldering',
    starts_at: '2026-06-06T10:00:00+02:00',
    place: { name: 'Block Hall', address: 'Hauptstraße 1, Vienna' },
    note: 'Shoes can be rented there.',
  },
});

export const acceptPlan = defineEndpoint({
  id: 'accept_plan',
  title: 'Accept a plan',
  method: 'POST',
  path: API_PATHS.acceptPlan,
  auth: 'buddy:write',
  // commits the person to meet someone; accepting twice answers the same confirmed plan
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  tags: ['plans'],
  summary: 'Accept a plan proposed to you: it becomes confirmed',
  toolHint: 'Only as the person decides.',
  description:
    'Only the other person may accept. Accepting twice answers the same confirmed plan. A counter that is accepted ' +
    'supersedes the plan it replaces. Closed, started or superseded plans → 409 with error.plan.',
  params: planParams,
  body: attributionBody,
  bodyOptional: true,
  response: planResponse,
  errors: [...STATE_ERRORS],
});

export const declinePlan = defineEndpoint({
  id: 'decline_plan',
  title: 'Decline a plan',
  method: 'POST',
  path: API_PATHS.declinePlan,
  auth: 'buddy:write',
  // ends a plan for both people, for good
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['plans'],
  summary: 'Decline a plan proposed to you',
  toolHint: 'Only as the person decides; to suggest another time, propose with replaces instead.',
  params: planParams,
  body: attributionBody,
  bodyOptional: true,
  response: planResponse,
  errors: [...STATE_ERRORS],
});

export const cancelPlan = defineEndpoint({
  id: 'cancel_plan',
  title: 'Cancel a plan',
  method: 'POST',
  path: API_PATHS.cancelPlan,
  auth: 'buddy:write',
  // ends a plan for both people, for good
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['plans'],
  summary: 'Cancel a proposed or confirmed plan before it starts',
  toolHint: 'Only when the person asks.',
  description: 'Either person, until the start; the reason (optional) is shown to the other person.',
  params: planParams,
  body: cancelPlanBodySchema,
  bodyOptional: true,
  response: planResponse,
  errors: ['validation_failed', ...STATE_ERRORS],
});

export const listPlans = defineEndpoint({
  id: 'list_plans',
  title: 'List plans',
  method: 'GET',
  path: API_PATHS.plans,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['plans'],
  summary: 'Your plans: to_answer, upcoming or past',
  description:
    'to_answer: proposals waiting for your answer, soonest first. upcoming (default): open and confirmed plans ' +
    'not yet over, soonest first. past: over or closed (declined, cancelled, superseded, expired), latest first.',
  query: z.object({
    view: z.enum(PLAN_VIEWS).optional(),
    limit: z.coerce.number().int().min(1).max(PLAN_LIMITS.pageMax).optional(),
    cursor: singleLine().max(200).optional().describe('next_cursor from the previous page'),
  }),
  response: z.object({
    view: z.enum(PLAN_VIEWS),
    plans: z.array(planSchema),
    next_cursor: z.string().nullable(),
    next_url: z.string().nullable(),
  }),
  errors: ['validation_failed'],
});

export const getPlan = defineEndpoint({
  id: 'get_plan',
  title: 'View a plan',
  method: 'GET',
  path: API_PATHS.plan,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['plans'],
  summary: 'One plan of yours',
  params: planParams,
  response: z.object({ plan: planSchema }),
  errors: ['not_found'],
});

export const planOptionSchema = z.object({
  starts_at: isoDateTime,
  ends_at: isoDateTime,
  activity: z.string(),
  place: z.object({ name: z.string(), address: z.string().nullable() }).nullable(),
  event_id: z.string().nullable(),
  why: z.array(z.string()).describe('Short reasons to tell the person'),
});
export type PlanOption = z.infer<typeof planOptionSchema>;

export const planOptions = defineEndpoint({
  id: 'plan_options',
  title: 'Suggest times',
  method: 'GET',
  path: API_PATHS.planOptions,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['plans'],
  summary: 'Up to five times to propose to a buddy',
  toolHint: 'Start here before propose_plan; offer these to the person.',
  description:
    "Drawn from both weekly schedules (each on their own clock), shared activities and events near both. In the caller's " +
    'zone. Buddies only (else 404).',
  params: z.object({ slug: singleLine().min(1).max(80) }),
  query: z.object({
    activity: singleLine().trim().max(PLAN_LIMITS.activity).optional().describe('Default: shared activities'),
    days: z.coerce.number().int().min(1).max(PLAN_LIMITS.optionsDaysMax).optional().describe('Default 14'),
  }),
  response: z.object({ options: z.array(planOptionSchema), none_because: z.string().nullable() }),
  errors: ['validation_failed', 'not_found'],
});

export const readPlanTime = defineEndpoint({
  id: 'read_plan_time',
  title: 'Read a plan time',
  method: 'POST',
  path: API_PATHS.planTime,
  auth: 'buddy:read',
  // a POST that stores nothing: it only reads the words
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  mcp: {
    exposed: false,
    why:
      'propose_plan and host_meetup say in warnings.normalized what they read a time as, and refuse words that could ' +
      'mean two things with the fix; tools/list has no room for a second way to learn it',
  },
  tags: ['plans'],
  summary: "Read a plan's times as propose would, without proposing",
  description:
    'The instants starts_at and ends_at would be (ISO 8601, or words on your clock: "next Saturday 10am", "tomorrow at 7pm", ' +
    '"Sat 10-13", "this evening"), each with what it was read as. The same 400 a proposal would get when a time is ' +
    'unreadable, ambiguous ("Saturday" on a Saturday, "at 7"), past or too far ahead. Saves nothing.',
  body: z.strictObject({ starts_at: localOrInstant, ends_at: localOrInstant.nullish() }),
  response: z.object({
    starts_at: isoDateTime,
    ends_at: isoDateTime.describe('As given, from a range ("Sat 10-13"), else the default length after the start'),
    read: z
      .array(z.string())
      .describe('What each time was read as, one sentence each (none for a time with an offset)'),
  }),
  errors: ['validation_failed'],
  requestExample: { starts_at: 'next Saturday 10am', ends_at: '1pm' },
});

export const planEndpoints = [
  planOptions,
  proposePlan,
  acceptPlan,
  declinePlan,
  cancelPlan,
  listPlans,
  getPlan,
  readPlanTime,
] as const;
