import { config } from '@/lib/config';
import { subscribeWebPush, unsubscribeWebPush } from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import * as subscriptions from '@/lib/notifications/web-push-subscriptions';

// POST /api/v1/me/web_push.json – notifications to this browser (the web app, with its session)
export const POST = route(subscribeWebPush, async ({ db, auth, body }) => ({
  success: true as const,
  browsers: await subscriptions.subscribeWebPush(db, auth.userId, body, config().webPushAllowLoopbackPorts),
}));

// DELETE /api/v1/me/web_push.json – no more notifications to this browser
export const DELETE = route(unsubscribeWebPush, async ({ db, auth, body }) => ({
  success: true as const,
  removed: await subscriptions.unsubscribeWebPush(db, auth.userId, body.endpoint),
}));
