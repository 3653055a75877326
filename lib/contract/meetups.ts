// Meetups (issue 45): one person hosts an activity at a time and place, with seats; nearby people
// who like it join, or wait on a list that moves by itself. Reading needs buddy:read, acting buddy:write.
import { z } from 'zod';
import { defineEndpoint } from './define';
import { whenFilter } from './discover';
import { activityListSchema, oneActivitySchema } from './forgiving';
import { MEETUP_JOIN_POLICIES, MEETUP_LIMITS, MEETUP_ROLES, MEETUP_STATUSES, MEETUP_VIEWS } from './limits';
import { API_PATHS } from './paths';
import { attributionFields, isoDateTime, localOrInstant } from './schemas';
import { freeText, singleLine } from './text';

export { MEETUP_JOIN_POLICIES, MEETUP_LIMITS, MEETUP_ROLES, MEETUP_STATUSES, MEETUP_VIEWS } from './limits';

// ---------------------------------------------------------------------------
// Records

export const meetupPersonSchema = z
  .object({ id: z.string(), first_name: z.string(), photoURL: z.string().nullable() })
  .describe('First name and photo only');

export const meetupSchema = z.object({
  id: z.string(),
  series_id: z.string().nullable().describe('Shared by the occurrences of a weekly series'),
  activity: z.string(),
  starts_at: isoDateTime,
  ends_at: isoDateTime,
  place: z.object({
    name: z.string(),
    area: z.string().nullable().describe('City-level'),
    address: z.string().nullable().describe('Only for the host and the confirmed'),
  }),
  note: z.string().nullable(),
  capacity: z.number().int().describe('Seats, the host included'),
  join: z.enum(MEETUP_JOIN_POLICIES),
  status: z.enum(MEETUP_STATUSES),
  seats_left: z.number().int(),
  waitlist: z.number().int().describe('People waiting for a seat'),
  host: meetupPersonSchema,
  people: z
    .array(meetupPersonSchema.extend({ status: z.enum(['confirmed', 'offered', 'waitlisted', 'pending']) }))
    .describe('The confirmed, to the host and the confirmed; the host also sees who waits'),
  me: z.object({
    role: z.enum(MEETUP_ROLES),
    waitlist_position: z.number().int().nullable().describe('1 = next for a seat'),
    offer_expires_at: isoDateTime.nullable().describe('A seat is held for you until then: join to take it'),
    attended: z.boolean().nullable(),
  }),
  chatId: z.string().nullable().describe('The group chat (messages endpoints), for the host and the confirmed'),
  cancel_reason: z.string().nullable(),
});
export type MeetupRecord = z.infer<typeof meetupSchema>;

export const meetupFitSchema = z.object({
  shared_activity: z.boolean().describe('One of your activities'),
  free_then: z.boolean().describe('Your weekly free time covers it'),
  distance_km: z.number().int().min(1).describe('Whole km between public points'),
  score: z.number(),
  why: z.array(z.string()),
});
export type MeetupFit = z.infer<typeof meetupFitSchema>;

// ---------------------------------------------------------------------------
// Inputs

const meetupParams = z.object({
  meetupId: singleLine()
    .min(1)
    .max(80)
    .transform((value) => value.replace(/\.json$/, '')),
});

export const hostMeetupBodySchema = z.strictObject({
  activity: oneActivitySchema(),
  starts_at: localOrInstant.describe('Your clock: ISO or "sat 10am"'),
  ends_at: localOrInstant.nullish(),
  place: z.strictObject({
    // Not .min(1): a refinement keeps minLength out of tools/list, which every conversation carries.
    name: singleLine()
      .trim()
      .max(MEETUP_LIMITS.placeName)
      .refine((name) => name.length > 0, 'Enter the place’s name'),
    address: singleLine().trim().max(MEETUP_LIMITS.placeAddress).nullish(),
  }),
  capacity: z.coerce
    .number()
    .int()
    .min(MEETUP_LIMITS.capacityMin)
    .max(MEETUP_LIMITS.capacityMax)
    .describe('Seats, you included'),
  join: z.enum(MEETUP_JOIN_POLICIES).optional(),
  note: freeText().trim().max(MEETUP_LIMITS.note).nullish(),
  repeat_weekly: z.coerce.number().int().min(1).max(MEETUP_LIMITS.repeatWeeksMax).nullish().describe('Weeks in all'),
  ...attributionFields,
});
export type HostMeetupBody = z.output<typeof hostMeetupBodySchema>;

const attributionBody = z.strictObject({ ...attributionFields });

export const cancelMeetupBodySchema = z.strictObject({
  reason: freeText().trim().max(MEETUP_LIMITS.cancelReason).nullish(),
  series: z.boolean().nullish(),
  ...attributionFields,
});
export type CancelMeetupBody = z.output<typeof cancelMeetupBodySchema>;

const personBody = z.strictObject({ user_id: singleLine(), ...attributionFields });

export const attendanceBodySchema = z.strictObject({
  no_show: z.array(singleLine().max(80)).max(MEETUP_LIMITS.capacityMax).describe('The others came'),
  ...attributionFields,
});

/** Free time in plain English, as Discover's when=: only meetups starting then (no maxLength in tools/list). */
const whenParam = whenFilter(singleLine().refine((text) => text.length <= 200, 'at most 200 characters'));

export const meetupQuerySchema = z.strictObject({
  view: z.enum(MEETUP_VIEWS).optional(),
  radius_km: z.coerce.number().min(1).max(MEETUP_LIMITS.radiusKmMax).optional(),
  activities: activityListSchema({
    field: 'activities',
    form: 'query',
    max: MEETUP_LIMITS.activitiesMax,
    describe: 'Default: yours',
  }).optional(),
  when: whenParam.optional(),
  days: z.coerce.number().int().min(1).max(MEETUP_LIMITS.daysMax).optional(),
  limit: z.coerce.number().int().min(1).max(MEETUP_LIMITS.pageMax).optional(),
  cursor: singleLine().optional(),
});
export type MeetupQuery = z.output<typeof meetupQuerySchema>;

const meetupResponse = z.object({ success: z.literal(true), meetup: meetupSchema });
const STATE_ERRORS = ['not_found', 'forbidden', 'meetup_not_open'] as const;

// ---------------------------------------------------------------------------
// Endpoints

export const hostMeetup = defineEndpoint({
  id: 'host_meetup',
  title: 'Host a meetup',
  method: 'POST',
  path: API_PATHS.meetups,
  auth: 'buddy:write',
  // others nearby can find and join it
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['meetups'],
  summary: 'Host a meetup; nearby people can join',
  toolHint: 'Only as the person asked; a public place.',
  description:
    'Found by people near your public point. join=approval: you approve each join. repeat_weekly: a series ' +
    `(max ${MEETUP_LIMITS.repeatWeeksMax}), each occurrence its own meetup. Limit: open meetups hosted at once (429).`,
  body: hostMeetupBodySchema,
  response: z.object({
    success: z.literal(true),
    meetup: meetupSchema,
    series: z.array(z.object({ id: z.string(), starts_at: isoDateTime })).describe('Every occurrence'),
    warnings: z
      .object({ normalized: z.array(z.string()) })
      .optional()
      .describe('Present when a time was read on your clock (no offset, or in words): what it was read as'),
  }),
  status: 201,
  errors: ['validation_failed', 'onboarding_incomplete', 'forbidden', 'rate_limited'],
  requestExample: {
    activity: 'bouldering',
    starts_at: '2026-06-04T19:00',
    place: { name: 'Ostbloc', address: 'Hauptstraße 1' },
    capacity: 5,
  },
});

export const listMeetups = defineEndpoint({
  id: 'find_meetups',
  title: 'Find meetups',
  method: 'GET',
  path: API_PATHS.meetups,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['meetups'],
  summary: 'Meetups near you, by fit; view=mine: yours',
  description:
    'nearby: open meetups within radius_km of your public point in the next `days`, of the activities (default yours), ' +
    'ranked by fit: shared activity, free then, distance, seats left. mine: hosting and joined, upcoming then past.',
  query: meetupQuerySchema,
  response: z.object({
    view: z.enum(MEETUP_VIEWS),
    results: z.array(z.object({ meetup: meetupSchema, fit: meetupFitSchema.nullable().describe('nearby only') })),
    next_cursor: z.string().nullable(),
    next_url: z.string().nullable(),
  }),
  errors: ['validation_failed', 'onboarding_incomplete'],
});

export const getMeetup = defineEndpoint({
  id: 'get_meetup',
  title: 'View a meetup',
  method: 'GET',
  path: API_PATHS.meetup,
  auth: 'buddy:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['meetups'],
  summary: 'One meetup',
  params: meetupParams,
  response: z.object({ meetup: meetupSchema }),
  errors: ['not_found'],
});

export const joinMeetup = defineEndpoint({
  id: 'join_meetup',
  title: 'Join a meetup',
  method: 'POST',
  path: API_PATHS.joinMeetup,
  auth: 'buddy:write',
  // commits the person to a meeting with strangers; joining twice answers the same place
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  tags: ['meetups'],
  summary: 'Join: a seat, else the waitlist',
  toolHint: 'Only as the person decides.',
  description:
    'Open: confirmed while seats are left, else waitlisted (moved up by itself, told). Approval: pending until the host ' +
    'approves. A seat offered to you (me.offer_expires_at) is taken by joining.',
  params: meetupParams,
  body: attributionBody,
  bodyOptional: true,
  response: meetupResponse,
  rateLimit: { name: 'meetup_joins', by: 'user' },
  errors: [...STATE_ERRORS, 'rate_limited'],
});

export const leaveMeetup = defineEndpoint({
  id: 'leave_meetup',
  title: 'Leave a meetup',
  method: 'POST',
  path: API_PATHS.leaveMeetup,
  auth: 'buddy:write',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['meetups'],
  summary: 'Leave a meetup or its waitlist',
  params: meetupParams,
  body: attributionBody,
  bodyOptional: true,
  response: meetupResponse,
  errors: [...STATE_ERRORS],
});

export const cancelMeetup = defineEndpoint({
  id: 'cancel_meetup',
  title: 'Cancel a meetup',
  method: 'POST',
  path: API_PATHS.cancelMeetup,
  auth: 'buddy:write',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['meetups'],
  summary: 'Cancel a meetup you host; series=true: the later ones too',
  params: meetupParams,
  body: cancelMeetupBodySchema,
  bodyOptional: true,
  response: meetupResponse,
  errors: ['validation_failed', ...STATE_ERRORS],
});

export const approveMeetupJoin = defineEndpoint({
  id: 'approve_meetup_join',
  title: 'Approve a join',
  method: 'POST',
  path: API_PATHS.approveMeetupJoin,
  auth: 'buddy:write',
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  tags: ['meetups'],
  summary: 'Host: approve a pending join',
  params: meetupParams,
  body: personBody,
  response: meetupResponse,
  errors: ['validation_failed', ...STATE_ERRORS],
});

export const declineMeetupJoin = defineEndpoint({
  id: 'decline_meetup_join',
  title: 'Decline a join',
  method: 'POST',
  path: API_PATHS.declineMeetupJoin,
  auth: 'buddy:write',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  tags: ['meetups'],
  summary: 'Host: decline a pending join',
  mcp: { exposed: false, why: 'declined on the meetup page by the host; a join left pending lapses at the start' },
  params: meetupParams,
  body: personBody,
  response: meetupResponse,
  errors: ['validation_failed', ...STATE_ERRORS],
});

export const meetupAttendance = defineEndpoint({
  id: 'meetup_attendance',
  title: 'Record attendance',
  method: 'POST',
  path: API_PATHS.meetupAttendance,
  auth: 'buddy:write',
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['meetups'],
  summary: 'Host, after the end: who did not come',
  description:
    'no_show: user ids of confirmed people; the other confirmed came. Private: a no-show counts only towards the reliability rule.',
  mcp: { exposed: false, why: 'a private mark the host makes on the meetup page after it ends, as "did you meet?"' },
  params: meetupParams,
  body: attendanceBodySchema,
  response: meetupResponse,
  errors: ['validation_failed', 'not_found', 'forbidden', 'conflict'],
});

export const meetupEndpoints = [
  hostMeetup,
  listMeetups,
  getMeetup,
  joinMeetup,
  leaveMeetup,
  cancelMeetup,
  approveMeetupJoin,
  declineMeetupJoin,
  meetupAttendance,
] as const;
