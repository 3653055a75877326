// Profile records and the endpoints that read and write them (SPEC 2.1-2.4, 3.1).
import { z } from 'zod';
import { legacyAvailabilitySchema, scheduleInputSchema } from '../availability';
import { defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { discoverCardSchema } from './discover';
import {
  LIMITS,
  activityIdsSchema,
  attributionFields,
  birthdaySchema,
  coordsSchema,
  genderSchema,
  gridSchema,
  httpsUrlSchema,
  isoDateTime,
  onboardingSchema,
  PHOTO_CONTENT_ERRORS,
  PHOTO_URL_ERRORS,
} from './schemas';
import {
  AVAILABILITY_FIX,
  birthdayInputSchema,
  coordsInputSchema,
  genderInputSchema,
  listOrCommaText,
  timezoneInputSchema,
} from './forgiving';
import { freeText, singleLine } from './text';

const activityDetailSchema = z.object({ id: z.string(), name: z.string(), category: z.string() });

const ownProfileSchema = z.object({
  id: z.string(),
  slug: z.string(),
  email: z.string(),
  displayName: z.string(),
  aboutMe: z.string().nullable(),
  city: z.string().nullable(),
  location: z.string().nullable(),
  homeLocation: z.string().nullable(),
  public_location: z
    .string()
    .nullable()
    .describe(
      'City-level label shown to others (the city named in location, else the one nearest your public point); never coordinates',
    ),
  coords: coordsSchema
    .nullable()
    .describe(
      'Your exact point: private, shown only to you (session or registration token). Others see whole-km distances ' +
        'to a public point 0.7-1.3 km away; an OAuth token (third-party app) gets that public point',
    ),
  coords_source: z.enum(['client', 'gazetteer', 'geocoder']).nullable(),
  timezone: z.string().nullable().describe('IANA zone of your schedule'),
  timezone_source: z.enum(['coords', 'person']).nullable().describe('person: you set it; coords: follows location'),
  gender: genderSchema.nullable(),
  birthday: z.string().nullable(),
  age: z.number().int().nullable(),
  age_bucket: z.string().nullable().describe("Decade such as '30s'"),
  showAgeByDecade: z.boolean(),
  activities: activityIdsSchema.describe('Canonical activity ids (see /api/v1/activities.json)'),
  activities_detail: z.array(activityDetailSchema).describe('The same activities with their labels'),
  availability_text: z.string().nullable(),
  schedule: gridSchema.describe('7 days (Mon..Sun) x 18 one-hour slots (6am..11pm)'),
  schedule_summary: z.string(),
  photoURL: z.string().nullable().describe('The processed photo; null when there is none'),
  thumbnailURL: z.string().nullable().describe('A square thumbnail (at most 256 px) of the photo'),
  profile_url: z.string(),
  onboarding: onboardingSchema,
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type OwnProfile = z.infer<typeof ownProfileSchema>;

export const PROFILE_VIEWS = ['public', 'member'] as const;
export type ProfileView = (typeof PROFILE_VIEWS)[number];

/**
 * Discover's card plus the rest of the profile. Two views: "member" (a signed-in caller)
 * has everything; "public" (no credentials) has the first name only and no age, gender
 * or weekly schedule, which would tell strangers when someone is free.
 */
export const publicProfileSchema = discoverCardSchema.extend({
  view: z.enum(PROFILE_VIEWS),
  activities_detail: z.array(activityDetailSchema),
  schedule: gridSchema.nullable(),
  schedule_summary: z.string().nullable(),
  thumbnailURL: z.string().nullable(),
  discoverable: z.boolean().describe('True when onboarding is complete and the profile shows in Discover'),
  member_since: isoDateTime,
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

const warningsSchema = z
  .object({
    activities_unmatched: z.array(z.string()).optional(),
    activities_suggestions: z.record(z.string(), z.array(z.string())).optional(),
    availability_unparsed: z.array(z.string()).optional(),
    normalized: z
      .array(z.string())
      .optional()
      .describe(
        'What was read differently from how it was written, one sentence each, starting with the field: confirm these with the person',
      ),
    schedule_summary: z.string().optional(),
    location_unresolved: z.string().optional(),
  })
  .catchall(z.unknown());

/** The plain-English profile fields that registration and PATCH /me.json both take (null: not given / clear). */
export const profileFields = {
  aboutMe: freeText().max(LIMITS.aboutMe).nullish(),
  city: singleLine().max(LIMITS.city).nullish().describe('Deprecated: copied into location when location is absent'),
  location: singleLine().max(LIMITS.location).nullish(),
  coords: coordsInputSchema.nullish().describe('Private: others see a point ~1 km off. Default: from location'),
  timezone: timezoneInputSchema.nullish().describe('IANA zone, e.g. "Europe/Lisbon"; default: from location'),
  gender: genderInputSchema.nullish(),
  birthday: birthdayInputSchema(birthdaySchema)
    .nullish()
    .describe(`YYYY-MM-DD (or "3 March 1990"); at least ${LIMITS.minimumAge} years ago`),
  showAgeByDecade: z.boolean().nullish(),
  activities: listOrCommaText('activities', z.array(singleLine().max(100)).max(LIMITS.activities))
    .nullish()
    .describe('Plain English, e.g. ["hiking", "board games"]'),
  availability_text: freeText()
    .max(LIMITS.availabilityText)
    .nullish()
    .describe('Plain English, e.g. "weekday evenings after 6, weekends"'),
  schedule: scheduleInputSchema.nullish(),
  availability: z
    .union([legacyAvailabilitySchema, freeText().max(LIMITS.availabilityText)], { error: AVAILABILITY_FIX })
    .nullish()
    .describe('Deprecated: expanded into the weekly grid; a string is read as availability_text'),
};

export const profileUpdateSchema = z.strictObject({
  displayName: singleLine().trim().min(1).max(LIMITS.displayName).optional(),
  ...profileFields,
  photoURL: httpsUrlSchema
    .nullish()
    .describe('Public https URL of a new photo (counted like an upload); null removes it'),
  ...attributionFields,
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

const profileWriteResponse = z.object({
  success: z.literal(true),
  profile: ownProfileSchema,
  onboarding: onboardingSchema,
  warnings: warningsSchema,
});

export const getMe = defineEndpoint({
  id: 'get_my_profile',
  title: 'Your profile',
  method: 'GET',
  path: API_PATHS.me,
  auth: 'profile:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['profile'],
  summary: 'Read your own profile',
  description:
    'Your full profile, with private fields (email, birthday, exact coordinates) and onboarding status. ' +
    'Nothing others can observe uses the exact coordinates.',
  response: z.object({ profile: ownProfileSchema }),
});

export const updateMe = defineEndpoint({
  id: 'update_my_profile',
  title: 'Update your profile',
  method: 'PATCH',
  path: API_PATHS.me,
  auth: 'profile:write',
  // overwrites the fields sent; the same values again change nothing
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  tags: ['profile'],
  summary: 'Update your profile (partial)',
  toolHint: 'Send only the fields to change (described in register); null clears a field.',
  description:
    'Send only the fields to change; null clears one; activities and availability replace the stored values. ' +
    'Moving your coordinates is limited per day ' +
    '(429 with Retry-After, error.fields names coords or location, nothing stored); unchanged values do not count.',
  body: profileUpdateSchema,
  response: profileWriteResponse,
  errors: ['validation_failed', ...PHOTO_URL_ERRORS, ...PHOTO_CONTENT_ERRORS, 'rate_limited', 'service_unavailable'],
  requestExample: {
    aboutMe: 'Weekend hiker, coffee snob.',
    activities: ['hiking', 'coffee'],
    availability_text: 'weekends and Wednesday evenings',
  },
});

export const getOnboarding = defineEndpoint({
  id: 'get_onboarding_status',
  title: 'Onboarding status',
  method: 'GET',
  path: API_PATHS.complete,
  auth: 'profile:read',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['profile'],
  summary: 'Which onboarding fields are still missing',
  response: onboardingSchema.extend({ next_action_for_user: z.string() }),
});

export const completeOnboarding = defineEndpoint({
  id: 'complete_onboarding',
  title: 'Finish onboarding',
  method: 'POST',
  path: API_PATHS.complete,
  auth: 'profile:write',
  // confirming a complete profile twice changes nothing
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['profile'],
  summary: 'Mark onboarding complete (only when nothing is missing)',
  description:
    'Succeeds with 200 only when every Discover field is present; otherwise 422 onboarding_incomplete with error.fields naming each missing field.',
  body: z.strictObject({ ...attributionFields }),
  bodyOptional: true,
  response: onboardingSchema.extend({ success: z.literal(true) }),
  errors: ['onboarding_incomplete'],
});

export const getPublicProfile = defineEndpoint({
  id: 'get_public_profile',
  title: 'View a profile',
  method: 'GET',
  path: API_PATHS.profile,
  auth: 'none',
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['profile'],
  summary: "Read someone's profile by slug or user id",
  description: 'No token: view "public" (first name; no age, gender, grid). A token: "member" (unless blocked).',
  params: z.object({ slug: singleLine().min(1).max(80) }),
  response: z.object({ profile: publicProfileSchema }),
  errors: ['not_found', 'unauthorized'],
});

export const parseAvailability = defineEndpoint({
  id: 'parse_availability',
  title: 'Read free time',
  method: 'POST',
  path: API_PATHS.parseAvailability,
  auth: 'none',
  // a POST that stores nothing: it only reads the text
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['profile'],
  summary: 'Read plain-English free time as the service would, without saving it',
  toolHint: 'Confirm summary (and ask about unparsed) with the person before saving availability_text.',
  description:
    'The grid, summary, unparsed fragments and roundings (normalized) that registration or PATCH /api/v1/me.json would store ' +
    'for this text. Saves nothing; limited per client address.',
  body: z.strictObject({
    text: freeText().max(LIMITS.availabilityText),
  }),
  rateLimit: { name: 'availability_parse', by: 'client' },
  response: z.object({
    grid: gridSchema.describe('7 days (Mon..Sun) x 18 one-hour slots (6am..11pm)'),
    summary: z.string(),
    unparsed: z
      .array(z.string())
      .describe(
        'Fragments not understood, each with its clause, and busy-only text ("not mondays") with what to ask: ' +
          'ask the person about these; nothing was stored for them',
      ),
    normalized: z
      .array(z.string())
      .describe('Times rounded to whole hours and misspellings read as a word, one sentence each'),
  }),
  errors: ['validation_failed', 'rate_limited'],
  requestExample: { text: 'weeknights except fridays, sat afternoons' },
});

export const profileEndpoints = [
  getMe,
  updateMe,
  getOnboarding,
  completeOnboarding,
  getPublicProfile,
  parseAvailability,
] as const;
export { ownProfileSchema, warningsSchema };
