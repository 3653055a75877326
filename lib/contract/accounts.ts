// Registration (SPEC 2.1, 2.2, 5).
import { z } from 'zod';
import { SCOPES, defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { profileFields, warningsSchema } from './profiles';
import {
  LIMITS,
  attributionFields,
  httpsUrlSchema,
  onboardingSchema,
  PHOTO_CONTENT_ERRORS,
  PHOTO_URL_ERRORS,
  photoMimeTypeSchema,
  slugSchema,
} from './schemas';
import { base64Text, singleLine } from './text';

// Base64 inflates by 4/3; leave room for the JSON around a 5 MB photo.
export const REGISTER_MAX_BODY_BYTES = Math.ceil((LIMITS.photoBytes * 4) / 3) + 256 * 1024;

export const registerBodySchema = z.strictObject({
  // Trimmed before checking, so ' sam@example.com ' and 'sam@example.com' are the same account.
  // (z.string().email() rather than z.email(): only the string form trims before the format check.)
  email: singleLine().trim().min(1).max(254).email({ message: 'Enter a valid email address, like sam@example.com' }),
  displayName: singleLine().trim().min(1).max(LIMITS.displayName),
  password: singleLine().min(LIMITS.passwordMin).max(200).nullish(),
  ...profileFields,
  photo: base64Text().nullish().describe('Base64 or a data URL; JPEG, PNG or WEBP, at most 5 MB decoded'),
  photoMimeType: photoMimeTypeSchema.nullish(),
  mimeType: photoMimeTypeSchema.nullish().describe('Alias of photoMimeType (the name the photo upload uses)'),
  photoURL: httpsUrlSchema.nullish().describe('Instead of photo: its public https URL'),
  slug: slugSchema.nullish(),
  emailMagicLink: z.boolean().nullish().describe('false: email only a notice of the new account, not the sign-in link'),
  ...attributionFields,
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const registerResponseSchema = z.object({
  success: z.literal(true),
  user: z.object({ id: z.string(), email: z.string(), slug: z.string(), profile_url: z.string() }),
  auth: z.object({
    token: z.string(),
    token_type: z.literal('Bearer'),
    scopes: z.array(z.enum(SCOPES)),
    generated_password: z.string().nullable(),
    mobile_signin_url: z.string().nullable(),
    mobile_signin_expires_in_seconds: z.number().int().nullable(),
    emailed_magic_link: z.boolean(),
  }),
  onboarding: onboardingSchema,
  warnings: warningsSchema,
  next_action_for_user: z.string(),
});

export const REGISTER_EXAMPLE = {
  email: 'sam@example.com',
  displayName: 'Sam',
  aboutMe: 'Trail runner and coffee fan, new in town.',
  location: 'Portland, OR',
  gender: 'prefer_not_to_say',
  birthday: '1992-05-14',
  activities: ['hiking', 'trail running', 'coffee'],
  availability_text: 'weekends and Wednesday evenings',
  agentName: 'ExampleAgent',
} as const;

/** What the REGISTER_EXAMPLE body gets back; the secrets are the SPEC's placeholders. */
export const REGISTER_RESPONSE_EXAMPLE = {
  success: true,
  user: {
    id: '5f0c7a52-3c1e-4b8e-9d7a-2f4c6b1e8a90',
    email: 'sam@example.com',
    slug: 'sam',
    profile_url: 'https://buddy.example/u/sam',
  },
  auth: {
    token: '<ACCESS_TOKEN>',
    token_type: 'Bearer',
    scopes: [...SCOPES],
    generated_password: '<GENERATED_PASSWORD>',
    mobile_signin_url: '<SIGNIN_URL>',
    mobile_signin_expires_in_seconds: 3600,
    emailed_magic_link: true,
  },
  onboarding: { complete: false, missing: ['photo'], awaiting_person_consent: false },
  warnings: { schedule_summary: 'Wednesday evening; Saturday and Sunday, all day' },
  next_action_for_user:
    'Your account is ready. To be found by others, add a photo of yourself. ' +
    'Open this link on your phone to sign in (single use, expires in about an hour): <SIGNIN_URL>',
};

export const register = defineEndpoint({
  id: 'register',
  title: 'Sign up',
  method: 'POST',
  path: API_PATHS.register,
  auth: 'none',
  // emails the person a sign-in link; a second call is a second account or email_taken
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  tags: ['accounts'],
  summary: 'Create an account and get a bearer token',
  toolHint:
    'Ask the person for email and name first; never invent details. Show them auth.generated_password and ' +
    'auth.mobile_signin_url; repeat warnings.schedule_summary.',
  description:
    'Creates the account in one call. Only email and displayName are required; other Discover fields can follow (PATCH /api/v1/me.json). ' +
    'Unknown activities are warnings, not errors. Repeat warnings.schedule_summary to the user to confirm availability. ' +
    `Limited to ${LIMITS.minimumAge}+ year olds, and per IP address per hour (GET this path for the numbers; photos sent ` +
    'here count toward the hourly photo limit per address, failed ones too).',
  body: registerBodySchema,
  maxBodyBytes: REGISTER_MAX_BODY_BYTES,
  response: registerResponseSchema,
  status: 201,
  errors: [
    'validation_failed',
    'email_taken',
    'slug_taken',
    'rate_limited',
    'payload_too_large',
    ...PHOTO_CONTENT_ERRORS,
    'photo_type_mismatch',
    ...PHOTO_URL_ERRORS,
    'service_unavailable',
  ],
  requestExample: REGISTER_EXAMPLE,
  example: REGISTER_RESPONSE_EXAMPLE,
});

export const accountEndpoints = [register] as const;
