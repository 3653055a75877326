// The photo upload (SPEC 2.5, 3.1, 3.3).
import { z } from 'zod';
import { REGISTER_MAX_BODY_BYTES } from './accounts';
import { defineEndpoint } from './define';
import { API_PATHS } from './paths';
import { attributionFields, isoDateTime, onboardingSchema, PHOTO_CONTENT_ERRORS, photoMimeTypeSchema } from './schemas';
import { base64Text } from './text';

export const PHOTO_BODY_MAX_BYTES = REGISTER_MAX_BODY_BYTES;

export const uploadPhotoBodySchema = z.strictObject({
  photo: base64Text().min(1).describe('Base64 or a data URL; JPEG, PNG or WEBP, at most 5 MB decoded'),
  mimeType: photoMimeTypeSchema.nullish().describe('If given, it must match the bytes'),
  photoMimeType: photoMimeTypeSchema.nullish().describe('Alias of mimeType (the name registration uses)'),
  ...attributionFields,
});
export type UploadPhotoBody = z.infer<typeof uploadPhotoBodySchema>;

export const photoRecordSchema = z.object({
  id: z.string(),
  photoURL: z.string().describe('The processed photo (WEBP, long edge at most 1600 px, no metadata)'),
  thumbnailURL: z.string().describe('A square thumbnail of at most 256 px'),
  mimeType: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
  thumbnail: z.object({ width: z.number().int(), height: z.number().int() }),
  source: z.enum(['upload', 'register', 'url']),
  status: z.enum(['active', 'replaced', 'cleared', 'rejected']),
  moderation: z
    .enum(['pending', 'kept', 'removed'])
    .describe('Moderation runs in the background; pending until it has'),
  created_at: isoDateTime,
});
export type PhotoRecord = z.infer<typeof photoRecordSchema>;

export const uploadPhoto = defineEndpoint({
  id: 'upload_photo',
  title: 'Upload a photo',
  method: 'POST',
  path: API_PATHS.photo,
  auth: 'photo:write',
  // replaces the current photo; photoURL downloads from the web
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  tags: ['profile'],
  summary: 'Upload or replace your profile photo',
  toolHint: 'Send photo (base64) or photoURL; only a photo the person chose.',
  description:
    'JPEG, PNG or WEBP, at most 5 MB; stripped of metadata, at most 1600 px, with a 256 px thumbnail, replacing the last. Moderated in the background: a VERY_LIKELY adult, violent or racy photo ' +
    'is deleted. Limited per account per hour (429 with Retry-After); 503 with Retry-After when busy.',
  body: uploadPhotoBodySchema,
  maxBodyBytes: PHOTO_BODY_MAX_BYTES,
  // Counted right after authentication, before the (up to 7 MB) body is read.
  rateLimit: { name: 'photo_upload', by: 'user' },
  response: z.object({
    success: z.literal(true),
    photo: photoRecordSchema,
    onboarding: onboardingSchema,
    warnings: z
      .object({ normalized: z.array(z.string()).optional() })
      .describe('normalized: what was read differently from how it was sent'),
    next_action_for_user: z.string(),
  }),
  errors: [
    'validation_failed',
    'payload_too_large',
    ...PHOTO_CONTENT_ERRORS,
    'photo_type_mismatch',
    'rate_limited',
    'service_unavailable',
  ],
  requestExample: {
    photo: 'data:image/jpeg;base64,/9j/4AAQSkZJRg...',
    mimeType: 'image/jpeg',
    agentName: 'ExampleAgent',
  },
});

export const photoEndpoints = [uploadPhoto] as const;
