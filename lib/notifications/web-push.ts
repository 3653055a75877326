// Web Push for people without the mobile app: the browser subscriptions made on /account
// get the same notifications as the app's devices. `web-push` encrypts the payload
// (RFC 8291, aes128gcm) and signs the VAPID JWT (RFC 8292); we send the request
// ourselves, because the endpoint is a URL a browser gave us and the server must not be
// made to call anything but a public https push service (the same guard as photoURL).
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { Database } from '@/db';
import { logLine } from '../core/log';
import { isLoopbackAddress } from '../core/address-policy';
import { assertAllowedUrl, ForbiddenTarget, guardedLookup } from '../core/outbound-guard';
import { isAllowedPushHost } from './push-services';
import type { PushNotification } from './push-job';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** https: URL or mailto: address push services may contact (RFC 8292 "sub"). */
  subject: string;
}

export interface WebPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface WebPushPolicy {
  /** Test only: loopback ports a push endpoint may use, over http too. Empty in production. */
  allowLoopbackPorts: readonly number[];
  /** The push services' hosts (lib/notifications/push-services.ts); no other host is pushed to. */
  allowedHosts: readonly string[];
  timeoutMs: number;
}

const NAME = 'vapid_keys';

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY win; otherwise a key pair is generated once and
 * kept in PostgreSQL (like AUTH_SECRET), so every instance signs with the same key and
 * subscriptions survive restarts.
 */
export async function loadVapidKeys(
  db: Database,
  env: { publicKey?: string; privateKey?: string; subject?: string },
  baseUrl: string,
): Promise<VapidKeys> {
  const subject = env.subject ?? (baseUrl.startsWith('https:') ? baseUrl : `mailto:push@${new URL(baseUrl).hostname}`);
  if (env.publicKey && env.privateKey) return { publicKey: env.publicKey, privateKey: env.privateKey, subject };
  const generated = webpush.generateVAPIDKeys();
  await db
    .insertInto('app_secrets')
    .values({ name: NAME, value: JSON.stringify(generated) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', NAME).executeTakeFirstOrThrow();
  const stored = JSON.parse(row.value) as { publicKey: string; privateKey: string };
  return { ...stored, subject };
}

/** Why a subscription endpoint is refused, or null when the server may push to it. */
export function endpointProblem(
  endpoint: string,
  policy: Pick<WebPushPolicy, 'allowLoopbackPorts' | 'allowedHosts'>,
): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be the https URL of a push service';
  }
  try {
    assertAllowedUrl(url, policy);
  } catch (error) {
    if (error instanceof ForbiddenTarget) return error.message.replace('fetched', 'pushed to');
    throw error;
  }
  // The test stand-in on an allowed loopback port (WEB_PUSH_ALLOW_LOOPBACK_PORTS) is the one other host.
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const testStandIn =
    policy.allowLoopbackPorts.includes(port) && isLoopbackAddress(url.hostname.replace(/^\[|\]$/g, ''));
  if (!testStandIn && !isAllowedPushHost(url.hostname, policy.allowedHosts)) {
    return `${url.hostname} is not a browser push service (allowed: ${policy.allowedHosts.join(', ')})`;
  }
  return null;
}

/** Where a click on the notification leads in the web app. */
export function openPath(notification: PushNotification): string {
  const { chatId, planId, meetupId } = notification.data;
  if (notification.kind === 'plan_checkin' && planId) return `/account/plans/${encodeURIComponent(planId)}`;
  // A meetup's news opens the meetup; a message in its group chat opens that chat.
  if (meetupId && chatId) return `/account/meetups/${encodeURIComponent(meetupId)}/chat`;
  if (meetupId) return `/account/meetups/${encodeURIComponent(meetupId)}`;
  if (chatId) return `/account/chats/${encodeURIComponent(chatId)}`;
  return '/account/requests';
}

/** What the service worker (public/sw.js) shows: title, body, the page to open, a tag that collapses one chat's pushes. */
export function webPushPayload(notification: PushNotification): string {
  return JSON.stringify({
    title: notification.title,
    body: notification.body,
    url: openPath(notification),
    tag: notification.data.chatId ?? notification.kind,
  });
}

/** How long a browser's push service may hold a notification its device has not yet fetched. */
export const WEB_PUSH_TTL_SECONDS = 24 * 3600;

/** Sends one push; 'gone' when the push service says the subscription no longer exists (404/410). */
export async function sendWebPush(
  subscription: WebPushSubscription,
  payload: string,
  vapid: VapidKeys,
  policy: WebPushPolicy,
): Promise<'sent' | 'gone'> {
  if (endpointProblem(subscription.endpoint, policy)) return 'gone';
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    payload,
    { vapidDetails: vapid, TTL: WEB_PUSH_TTL_SECONDS, contentEncoding: 'aes128gcm', urgency: 'high' },
  );
  const url = new URL(details.endpoint);
  const status = await new Promise<number>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: details.method,
      headers: details.headers as http.OutgoingHttpHeaders,
      agent: false,
      lookup: guardedLookup(url, policy),
      timeout: policy.timeoutMs,
    });
    request.on('timeout', () => request.destroy(new Error('the push service did not answer in time')));
    request.on('error', reject);
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.end(details.body ?? undefined);
  });
  if (status === 404 || status === 410) return 'gone';
  // Anything else that is not a success is retried by the job queue.
  if (status < 200 || status >= 300) throw new Error(`the push service answered ${status}`);
  return 'sent';
}

/**
 * Every web subscription of the recipient gets the notification; subscriptions the push
 * service has forgotten are deleted. Logs carry counts, never endpoints or text.
 */
/** Pushes to the person's browsers; how many subscriptions are still alive. */
export async function deliverWebPush(
  db: Database,
  notification: PushNotification,
  vapid: VapidKeys,
  policy: WebPushPolicy,
): Promise<number> {
  const subscriptions = await db
    .selectFrom('web_push_subscriptions')
    .select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('user_id', '=', notification.recipientId)
    .execute();
  if (subscriptions.length === 0) return 0;
  const payload = webPushPayload(notification);
  const results = await Promise.allSettled(subscriptions.map((s) => sendWebPush(s, payload, vapid, policy)));
  const gone = subscriptions.filter(
    (_, i) => results[i]!.status === 'fulfilled' && (results[i] as PromiseFulfilledResult<string>).value === 'gone',
  );
  if (gone.length > 0)
    await db
      .deleteFrom('web_push_subscriptions')
      .where(
        'id',
        'in',
        gone.map((s) => s.id),
      )
      .execute();
  const failed = results.filter((r) => r.status === 'rejected');
  logLine({
    event: 'push',
    provider: 'web',
    kind: notification.kind,
    recipient_id: notification.recipientId,
    devices: subscriptions.length,
    gone: gone.length,
    failed: failed.length,
  });
  // A push service that is down: the job is retried (the ones that went through are resent; the tag collapses them).
  if (failed.length > 0 && failed.length === subscriptions.length) throw (failed[0] as PromiseRejectedResult).reason;
  return subscriptions.length - gone.length;
}
