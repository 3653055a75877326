// Push tokens: the devices a person is notified on (SPEC 6).
import { z } from 'zod';
import { defineEndpoint } from './define';
import { SOCIAL_LIMITS } from './limits';
import { API_PATHS } from './paths';
import { attributionFields, successTrue } from './schemas';
import { singleLine } from './text';

export const pushTokenBodySchema = z.strictObject({
  token: singleLine()
    .trim()
    .min(1)
    .max(SOCIAL_LIMITS.pushToken)
    .describe('Expo push token, e.g. ExponentPushToken[xxxxxxxx]'),
  platform: z.enum(['ios', 'android', 'web']).nullish(),
  ...attributionFields,
});
export type PushTokenBody = z.infer<typeof pushTokenBodySchema>;

export const registerPushToken = defineEndpoint({
  id: 'register_push_token',
  title: 'Turn on push',
  method: 'POST',
  path: API_PATHS.pushTokens,
  auth: 'profile:write',
  // registering the same token again changes nothing
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  tags: ['notifications'],
  summary: "Register this device's Expo push token for notifications",
  description:
    'Idempotent: created: true for a new token, false for one already registered. ' +
    'A token registered by another account moves to this one (one signed-in user per device).',
  body: pushTokenBodySchema,
  response: z.object({
    success: successTrue,
    token: z.string(),
    platform: z.string().nullable(),
    created: z.boolean(),
  }),
  status: 201,
  alsoOk: { status: 200, when: 'Already registered' },
  errors: ['validation_failed'],
});

export const deletePushToken = defineEndpoint({
  id: 'delete_push_token',
  title: 'Turn off push',
  method: 'DELETE',
  path: API_PATHS.pushTokens,
  auth: 'profile:write',
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  tags: ['notifications'],
  summary: 'Stop notifications to a device (idempotent)',
  body: z.strictObject({ token: singleLine().trim().min(1).max(SOCIAL_LIMITS.pushToken), ...attributionFields }),
  response: z.object({ success: successTrue, removed: z.boolean() }),
  errors: ['validation_failed'],
});

export const deviceEndpoints = [registerPushToken, deletePushToken] as const;
