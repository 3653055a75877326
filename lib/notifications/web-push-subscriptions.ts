// The browsers a person turned notifications on in (/account).
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { z } from 'zod';
import type { webPushSubscriptionSchema } from '../contract/web-app';
import { ApiError } from '../core/errors';
import { endpointProblem, type WebPushPolicy } from './web-push';

/** Each is POSTed to (with retries) on every notification: enough for a phone, a laptop and a few more. */
export const MAX_BROWSERS_PER_USER = 5;

/**
 * Stores (or moves to this person) a browser's subscription; past the cap the oldest
 * goes. A browser shared by two people notifies whoever turned notifications on last.
 */
export async function subscribeWebPush(
  db: Database,
  userId: string,
  subscription: z.output<typeof webPushSubscriptionSchema>,
  policy: Pick<WebPushPolicy, 'allowLoopbackPorts' | 'allowedHosts'>,
): Promise<number> {
  const problem = endpointProblem(subscription.endpoint, policy);
  if (problem) {
    throw new ApiError('validation_failed', 'That push subscription endpoint cannot be used.', {
      hint: 'Send the PushSubscription the browser gave you (subscription.toJSON()).',
      fields: { endpoint: problem },
    });
  }
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('web_push_subscriptions')
      .values({
        user_id: userId,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
      })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          user_id: userId,
          p256dh: subscription.keys.p256dh,
          auth: subscription.keys.auth,
          last_seen_at: sql`now()`,
        }),
      )
      .execute();
    await sql`delete from web_push_subscriptions where user_id = ${userId}::uuid and id not in (
        select id from web_push_subscriptions where user_id = ${userId}::uuid order by last_seen_at desc, id limit ${MAX_BROWSERS_PER_USER})`.execute(
      trx,
    );
    const { n } = await trx
      .selectFrom('web_push_subscriptions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(n);
  });
}

export async function unsubscribeWebPush(db: Database, userId: string, endpoint: string): Promise<boolean> {
  const result = await db
    .deleteFrom('web_push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
