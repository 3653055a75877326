// Field schemas shared by several endpoints. Limits come from SPEC.md section 8.
import { z } from 'zod';
import { ageRules } from '../core/age-env';
import { singleLine, withTextRule } from './text';

export const LIMITS = {
  displayName: 60,
  aboutMe: 600,
  city: 80,
  location: 120,
  availabilityText: 500,
  activities: 20,
  passwordMin: 8,
  agentName: 60,
  agentSessionId: 120,
  minimumAge: 13,
  photoBytes: 5 * 1024 * 1024,
} as const;

export const GENDERS = ['male', 'female', 'non_binary', 'prefer_not_to_say'] as const;
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const genderSchema = z.enum(GENDERS);
export const photoMimeTypeSchema = z.enum(PHOTO_MIME_TYPES);

/** A photo's bytes refused, however they arrived. */
export const PHOTO_CONTENT_ERRORS = [
  'photo_too_large',
  'photo_invalid',
  'photo_unsupported_format',
  'photo_too_many_pixels',
] as const;
/** photoURL refused before or while downloading it. */
export const PHOTO_URL_ERRORS = ['photo_url_forbidden', 'photo_fetch_failed'] as const;

export const coordsSchema = z.strictObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});

/** Whole years between a YYYY-MM-DD birthday and `today`. */
export function ageOn(birthday: string, today: Date = new Date()): number {
  const [y, m, d] = birthday.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

export const birthdaySchema = withTextRule(z.iso.date({ message: 'Enter your birthday as a date, like 1990-04-21' }))
  // MINIMUM_AGE may raise the contract's 13 (lib/core/age-env.ts), read when a value is checked.
  .refine((value) => ageOn(value) >= ageRules().minimumAge, {
    error: () => `You need to be ${ageRules().minimumAge} or older`,
  })
  .refine((value) => ageOn(value) <= 120, { message: 'Check the year of your birthday: it is more than 120 years ago' })
  .describe(`YYYY-MM-DD; at least ${LIMITS.minimumAge} years ago`);

export const slugSchema = singleLine().regex(
  /^[a-z0-9-]{3,40}$/,
  'Profile address must be 3-40 characters of a-z, 0-9 and hyphens',
);

export const httpsUrlSchema = withTextRule(
  z.url({ protocol: /^https?$/, message: 'Enter a web address that starts with https://' }),
).max(2048);

/** Optional attribution on every write: never blocks a request, tags what the agent created. */
export const attributionFields = {
  agentName: singleLine().max(LIMITS.agentName).nullish(),
  agentSessionId: singleLine().max(LIMITS.agentSessionId).nullish(),
};

export const gridSchema = z.array(z.array(z.boolean()).length(18)).length(7);

/** An answer's moment: RFC 3339 (ISO 8601) with an offset; `format` says so in one word. */
export const isoDateTime = z.string().meta({ format: 'date-time' });

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;
/** The offset at the end of an ISO 8601 date-time (Z or ±hh:mm), when it has one. */
export const OFFSET_SUFFIX = /(Z|[+-]\d{2}:\d{2})$/i;

/** Whether a time is written as ISO 8601 (a date, then T): read as such, or refused as such. */
export const isIsoDateTime = (value: string): boolean => /^\d{4}-\d{2}-\d{2}T/i.test(value);

/**
 * ISO 8601, with an offset or without one (then read on the person's own clock), or the person's
 * words ("Saturday 10am", "tomorrow at 7pm", "Sat 10-13"): lib/plans/time.ts reads both, for the
 * times of plans and meetups (issue 44 §2: agents got the offset wrong, daylight saving included).
 * A refinement, not a union of zod's formats: tools/list would carry their 450-byte patterns.
 */
export const localOrInstant = singleLine()
  .trim()
  .max(40)
  .refine(
    (value) =>
      !isIsoDateTime(value) ||
      (ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value.replace(OFFSET_SUFFIX, '')))),
    { message: 'must be an ISO 8601 date-time, like 2026-06-06T19:00 (your clock) or 2026-06-06T19:00:00+02:00' },
  );

export const onboardingSchema = z.object({
  complete: z.boolean(),
  missing: z.array(z.string()),
  awaiting_person_consent: z
    .boolean()
    .describe(
      'True while the person has not said "Yes, show me to people nearby" on the web (operators may require it): hidden from everyone until then; no token can say it for them',
    ),
});

export const activityIdsSchema = z.array(z.string());

/**
 * Another person's public card: what every view of someone else starts with. Discover's
 * card extends it, and the public profile extends that; none carries coordinates, email
 * or birthday.
 */
export const userCardSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    displayName: z.string(),
    photoURL: z.string().nullable().describe('The processed photo; null when there is none'),
    location: z.string().nullable().describe('City-level label; never coordinates'),
    profile_url: z.string(),
  })
  .describe("The other person's public card; GET their profile.json for more");
export type UserCard = z.infer<typeof userCardSchema>;

// ---------------------------------------------------------------------------
// Shared by the social endpoints (buddies, chats, safety, devices)

export const slugParams = z.object({ slug: singleLine().min(1).max(80) });

export const successTrue = z.literal(true);

export const attributionBody = z.strictObject({ ...attributionFields });

/** A moderated text (request message, first message, chat message) refused by one of the rules. */
export const MODERATION_ERRORS = [
  'message_blocked_profanity',
  'message_blocked_threat',
  'message_blocked_solicitation',
  'message_blocked_shouting',
  'message_blocked_spam',
] as const;
