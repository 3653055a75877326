import { config } from '@/lib/config';
import * as webApp from '@/lib/contract/web-app';
import { route } from '@/lib/http/route';
import { subscribeWebPush, unsubscribeWebPush } from '@/lib/notifications/web-push-subscriptions';

// POST /api/v1/me/web_push.json – notifications to this browser (the web app, with its session)
export const POST = route(webApp.subscribeWebPush, async ({ db, auth, body }) => ({
  success: true as const,
  browsers: await subscribeWebPush(db, auth.userId, body, {
    allowLoopbackPorts: config().webPushAllowLoopbackPorts,
    allowedHosts: config().webPushAllowedHosts,
  }),
}));

// DELETE /api/v1/me/web_push.json – no more notifications to this browser
export const DELETE = route(webApp.unsubscribeWebPush, async ({ db, auth, body }) => ({
  success: true as const,
  removed: await unsubscribeWebPush(db, auth.userId, body.endpoint),
}));
