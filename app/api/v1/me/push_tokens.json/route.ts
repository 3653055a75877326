import * as devices from '@/lib/contract/devices';
import { Reply, route } from '@/lib/http/route';
import { deletePushToken, registerPushToken } from '@/lib/notifications/push-tokens';

// POST /api/v1/me/push_tokens.json – register this device for push notifications
export const POST = route(devices.registerPushToken, async ({ db, auth, body }) => {
  const result = await registerPushToken(db, auth.userId, body);
  return new Reply(result, { status: result.created ? 201 : 200 });
});

// DELETE /api/v1/me/push_tokens.json – stop push notifications to a device
export const DELETE = route(devices.deletePushToken, async ({ db, auth, body }) =>
  deletePushToken(db, auth.userId, body.token),
);
