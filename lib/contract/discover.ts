// Discover: finding buddies nearby who like the same things and are free when the
// caller is, and the free time two people share.
import { z } from 'zod';
import { defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { DISCOVER_LIMITS } from './limits';
import { countSlots, parseAvailabilityText, summarizeGrid } from '../availability';
import { activityListSchema } from './forgiving';
import { GENDERS, activityIdsSchema, genderSchema, gridSchema, userCardSchema } from './schemas';
import { singleLine } from './text';

export { DISCOVER_LIMITS } from './limits';

/** "a,b, c" → ["a", "b", "c"]: query strings carry lists comma-separated. */
const commaList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

const integerParam = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const activitiesParam = activityListSchema({
  field: 'activities',
  form: 'query',
  max: DISCOVER_LIMITS.activitiesMax,
  describe: 'Comma-separated, plain English or ids; people with any of them; default: yours',
});

/**
 * Free time in plain English, read as availability_text is; a fragment not understood is refused (a
 * filter must not widen). Built on a given string schema, so meetups' search (lib/contract/meetups.ts)
 * reads `when` the same way with its own bounds.
 */
export function whenFilter(text: ReturnType<typeof singleLine>) {
  return text.transform((text, ctx) => {
    const { grid, unparsed } = parseAvailabilityText(text);
    const slots = countSlots(grid);
    if (unparsed.length > 0 || slots === 0) {
      const what =
        unparsed.length > 0
          ? `did not understand ${unparsed.map((u) => JSON.stringify(u)).join(', ')}`
          : 'names no free time';
      ctx.issues.push({
        code: 'custom',
        message: `${what}: use plain English such as "weekday evenings" or "sat 9am-1pm"`,
        input: text,
      });
      return z.NEVER;
    }
    return { text, grid, summary: summarizeGrid(grid) };
  });
}

const whenParam = whenFilter(singleLine().max(200)).describe(
  'Only people free then, in plain English; default: your free time',
);

const gendersParam = singleLine()
  .max(200)
  .transform(commaList)
  .pipe(z.array(genderSchema).min(1, { message: `name at least one of ${GENDERS.join(', ')}` }))
  .transform((genders) => [...new Set(genders)].sort());

export const discoverQuerySchema = z
  .strictObject({
    radius_km: z.coerce
      .number()
      .min(1)
      .max(DISCOVER_LIMITS.radiusKmMax)
      .default(DISCOVER_LIMITS.radiusKmDefault)
      .describe('Radius in km, between public points'),
    activities: activitiesParam.optional(),
    available: integerParam(0, DISCOVER_LIMITS.slotsPerWeek)
      .default(DISCOVER_LIMITS.availableDefault)
      .describe('Min hours a week both are free (0: any)'),
    when: whenParam.optional(),
    gender: gendersParam.optional().describe(`Comma-separated: ${GENDERS.join(', ')}; default all`),
    age_min: integerParam(DISCOVER_LIMITS.ageMin, DISCOVER_LIMITS.ageMax).optional(),
    age_max: integerParam(DISCOVER_LIMITS.ageMin, DISCOVER_LIMITS.ageMax).optional(),
    limit: integerParam(1, DISCOVER_LIMITS.limitMax).default(DISCOVER_LIMITS.limitDefault),
    cursor: singleLine().max(400).optional().describe('next_cursor of the last page; same filters'),
  })
  .refine((q) => q.age_min === undefined || q.age_max === undefined || q.age_min <= q.age_max, {
    message: 'The youngest age can’t be above the oldest',
    path: ['age_min'],
  });
export type DiscoverQuery = z.output<typeof discoverQuerySchema>;

const scoreTermsSchema = z.object({
  activities: z.number(),
  availability: z.number(),
  distance: z.number(),
  recent_activity: z.number(),
});

/** The public card plus what a stranger may read before opening the profile. */
export const discoverCardSchema = userCardSchema.extend({
  aboutMe: z.string().nullable(),
  gender: genderSchema.nullable(),
  age: z
    .number()
    .int()
    .nullable()
    .describe('Null when the person shows only an age bucket (showAgeByDecade) or has no birthday'),
  age_bucket: z.string().nullable().describe("Decade such as '30s'"),
  activities: activityIdsSchema,
});
export type DiscoverCard = z.infer<typeof discoverCardSchema>;

export const discoverResultSchema = z.object({
  user: discoverCardSchema,
  shared_activities: activityIdsSchema.describe('The searched activity ids this person has'),
  overlap_hours: z.number().int().describe('One-hour slots a week both people are free'),
  overlap_summary: z
    .string()
    .describe('Those shared free hours in plain English, e.g. "Saturday mornings; Wednesday evenings"'),
  distance_km: z
    .number()
    .int()
    .min(1)
    .describe(
      "Whole km (at least 1) between the two people's public points (each 0.7-1.3 km from the true one, so up to about " +
        '2.6 km off); the same both ways',
    ),
  last_active: z.enum(['within_a_day', 'within_a_week', 'within_a_month', 'over_a_month']),
  pending_request: z
    .enum(['sent', 'received'])
    .nullable()
    .describe('A pending buddy request between you: sent by the caller, or received from this person'),
  score: z.number().describe('0..1, higher is a better match; see score_breakdown'),
  score_breakdown: scoreTermsSchema.describe(
    'Each weighted term of the score (they add up to it, give or take rounding)',
  ),
});
export type DiscoverResult = z.infer<typeof discoverResultSchema>;

export const discoverSuggestionSchema = z.object({
  change: z.string().describe('What to change, e.g. "available=0" or "radius_km=100"'),
  matches: z.number().int().describe('How many people that search finds'),
  matches_at_least: z
    .boolean()
    .describe('True when counting stopped early (a dense place): at least `matches` people, maybe many more'),
  url: z.string().describe('That search as a ready-made URL'),
});

export const discoverResponseSchema = z.object({
  results: z.array(discoverResultSchema),
  empty_reason: z.string().optional().describe('Only on an empty first page: why, with counts, and what to try'),
  suggestions: z
    .array(discoverSuggestionSchema)
    .optional()
    .describe(
      'Only on a first page with fewer than 5 results and no next page: searches that would find more (empty when none would)',
    ),
  next_cursor: z
    .string()
    .nullable()
    .describe('Pass as cursor (with the same filters) for the next page; null on the last page'),
  next_url: z.string().nullable().describe('The next page as a ready-made URL; null on the last page'),
  search: z.object({
    radius_km: z.number(),
    activities: activityIdsSchema,
    available: z.number().int(),
    when: z.string().nullable().describe('The when filter as understood, in words'),
    gender: z.array(genderSchema).nullable(),
    age_min: z.number().int().nullable(),
    age_max: z.number().int().nullable(),
    radius_km_used: z
      .number()
      .int()
      .describe(
        'The radius within which everyone was considered: radius_km, or less in a dense place, where a search reads the nearest people up to a bounded number (0: only the nearest people, not even the nearest km in full)',
      ),
    ranking: z.string().describe('The ranking formula in words'),
  }),
});
export type DiscoverResponse = z.infer<typeof discoverResponseSchema>;

export const sharedWindowSchema = z.object({
  day: z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']),
  start: z.string().describe('HH:MM, local time'),
  end: z.string().describe('HH:MM, local time (24:00 = midnight)'),
  hours: z.number().int(),
});

export const overlapResponseSchema = z.object({
  user: discoverCardSchema,
  overlap: z.object({
    hours_per_week: z.number().int(),
    summary: z.string().describe('The shared free time in plain English'),
    windows: z.array(sharedWindowSchema).describe('Each run of consecutive shared hours, Monday first'),
    grid: gridSchema.describe('7 days (Mon..Sun) x 18 one-hour slots (6am..11pm), true where both are free'),
  }),
});
export type OverlapResponse = z.infer<typeof overlapResponseSchema>;

const EXAMPLE_USER = {
  id: '6f1c1f7e-3d55-4a7a-9d6e-2f0b8c1d2e3f',
  slug: 'maya-k',
  displayName: 'Maya K.',
  aboutMe: 'Weekend hiker, weekday climber.',
  location: 'Portland, Oregon, US',
  gender: 'female' as const,
  age: 31,
  age_bucket: '30s',
  activities: ['hiking', 'rock_climbing', 'coffee'],
  photoURL: 'https://example.com/maya.jpg',
  profile_url: 'https://buddies.example/u/maya-k',
};

export const discover = defineEndpoint({
  id: 'discover',
  title: 'Find buddies',
  method: 'GET',
  path: API_PATHS.discover,
  auth: 'profile:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['discover'],
  summary: 'Find buddies nearby who share activities and free time',
  toolHint: 'Needs a complete profile; rate-limited: page with cursor, never repeat a search.',
  description:
    'Complete profiles within radius_km who share one of the activities and are free at least `available` hours a week ' +
    'when the caller is (or at the times when= names), each on their own clock. Only the searched activities count toward ' +
    "the score, and cards list them first. Never the caller, blocked people or buddies. Ranked by score_breakdown's weighted " +
    'terms, ties by nearness then user id, so next_cursor never repeats or skips anyone. Coordinates are never returned.',
  query: discoverQuerySchema,
  response: discoverResponseSchema,
  rateLimit: { name: 'discover', by: 'user' },
  errors: ['validation_failed', 'onboarding_incomplete'],
  example: {
    results: [
      {
        user: EXAMPLE_USER,
        shared_activities: ['hiking'],
        overlap_hours: 12,
        overlap_summary: 'Saturday mornings; Wednesday evenings',
        distance_km: 3,
        last_active: 'within_a_day',
        pending_request: null,
        score: 0.7825,
        score_breakdown: { activities: 0.2, availability: 0.3, distance: 0.125, recent_activity: 0.1 },
      },
    ],
    next_cursor: 'eyJ2IjoxLCJzIjoiMC43ODI1Ii',
    next_url:
      'https://buddies.example/api/v1/discover.json?activities=hiking%2Ctennis&cursor=eyJ2IjoxLCJzIjoiMC43ODI1Ii',
    search: {
      radius_km: 25,
      activities: ['hiking', 'tennis'],
      available: 1,
      gender: null,
      age_min: null,
      age_max: null,
      when: null,
      radius_km_used: 25,
      ranking: 'score = 0.40·activities + 0.30·availability + 0.20·distance + 0.10·recent activity',
    },
  },
});

export const getOverlap = defineEndpoint({
  id: 'get_shared_free_time',
  title: 'Shared free time',
  method: 'GET',
  path: API_PATHS.overlap,
  auth: 'profile:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['discover'],
  summary: 'The weekly free time you share with someone, to propose a time',
  description:
    "The hours free in both the caller's and this person's weekly grid, each on their own clock (time zone): as a grid, in " +
    "plain English and as runs (day, start, end) to propose, in the caller's local hours.",
  params: z.object({ slug: singleLine().min(1).max(80) }),
  response: overlapResponseSchema,
  errors: ['not_found', 'cannot_target_self'],
  example: {
    user: EXAMPLE_USER,
    overlap: {
      hours_per_week: 9,
      summary: 'Wednesday 6pm–9pm; Saturday morning',
      windows: [
        { day: 'wed', start: '18:00', end: '21:00', hours: 3 },
        { day: 'sat', start: '06:00', end: '12:00', hours: 6 },
      ],
      grid: Array.from({ length: 7 }, (_, d) =>
        Array.from({ length: 18 }, (_, s) => (d === 2 && s >= 12 && s < 15) || (d === 5 && s < 6)),
      ),
    },
  },
});

export const discoverEndpoints = [discover, getOverlap] as const;
