// Device tokens the mobile app registers for push notifications.
import { sql } from 'kysely';
import { Expo } from 'expo-server-sdk';
import type { Database } from '@/db';
import type { PushTokenBody } from '../contract/devices';
import { ApiError } from '../core/errors';

/** Devices kept per user; registering one more forgets the least recently seen. */
export const MAX_DEVICES_PER_USER = 10;

export async function registerPushToken(db: Database, userId: string, body: PushTokenBody) {
  if (!Expo.isExpoPushToken(body.token)) {
    throw new ApiError('validation_failed', 'That token is not an Expo push token.', {
      hint: 'Send the Expo push token from getExpoPushTokenAsync(), e.g. ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx].',
      fields: { token: 'not an Expo push token' },
    });
  }
  return db.transaction().execute(async (trx) => {
    // xmax = 0 only on a fresh insert: tells "created" from "already known" in one statement.
    const row = await trx
      .insertInto('push_tokens')
      .values({ user_id: userId, token: body.token, platform: body.platform ?? null })
      .onConflict((oc) =>
        oc
          .column('token')
          .doUpdateSet({ user_id: userId, platform: body.platform ?? null, last_seen_at: sql<Date>`now()` }),
      )
      .returning(['token', 'platform', sql<boolean>`xmax = 0`.as('created')])
      .executeTakeFirstOrThrow();
    const stale = await trx
      .selectFrom('push_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('last_seen_at', 'desc')
      .offset(MAX_DEVICES_PER_USER)
      .limit(1000)
      .execute();
    if (stale.length > 0)
      await trx
        .deleteFrom('push_tokens')
        .where(
          'id',
          'in',
          stale.map((s) => s.id),
        )
        .execute();
    return { success: true as const, token: row.token, platform: row.platform, created: row.created };
  });
}

export async function deletePushToken(db: Database, userId: string, token: string) {
  const result = await db
    .deleteFrom('push_tokens')
    .where('user_id', '=', userId)
    .where('token', '=', token)
    .executeTakeFirst();
  return { success: true as const, removed: Number(result.numDeletedRows) > 0 };
}
