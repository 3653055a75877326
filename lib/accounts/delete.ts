// "Delete my account" (GDPR Art. 17, issue 31). A deleted account is a disabled one
// (lib/accounts/disable.ts) with the reason 'deleted', so it inherits every guarantee a
// disabled account has: no sign-in, every token, session, link and OAuth grant revoked,
// hidden from Discover, profiles (404), requests and search, its email released. On top:
//  - its personal fields are wiped in place: name "a deleted member", no photo, place,
//    birthday, about text, activities or schedule; email and slug become placeholders;
//  - its photo stops being served at once and its blobs are deleted by the photo-deletion job;
//  - what only concerned the person is deleted: requests both ways, blocks, tokens and the
//    assistant activity log, plan shares, mail preferences, calendar feed, push subscriptions;
//  - its messages stay in the other person's chat, shown from "a deleted member" (that
//    conversation is the other person's too), their assistant attribution cleared;
//  - reports it filed or received stay for moderation, tied to the anonymous row.
// The row itself stays (a tombstone) so chats, plans and reports keep a valid member.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { ApiError } from '../core/errors';
import { detachPhoto } from '../photos/photos';
import { accountKey, type FailureLimits } from './attempt-limits';
import { disableAccount } from './disable';
import { confirmPassword } from './password';
import { forgetCachedOwners } from './token-cache';

export const DELETED_MEMBER_NAME = 'a deleted member';

/** A web session this young counts as a fresh sign-in: enough to delete without a password. */
export const FRESH_SIGNIN_SECONDS = 10 * 60;

export interface DeletionProof {
  password?: string | null;
  /** The web session making the request, if any; a fresh one stands in for the password. */
  sessionId: string | null;
}

/**
 * Deletes the account after proof that the person asks: the password, or a web sign-in
 * younger than FRESH_SIGNIN_SECONDS. A bearer token alone never suffices.
 */
export async function deleteAccount(
  db: Database,
  userId: string,
  proof: DeletionProof,
  ctx: { ip: string; limits: FailureLimits },
): Promise<{ deleted: true }> {
  if (proof.password) {
    await confirmPassword(db, userId, proof.password, { ...ctx, field: 'password' });
  } else if (!(proof.sessionId && (await isFreshSession(db, proof.sessionId)))) {
    throw new ApiError('wrong_password', 'Deleting the account needs your password or a fresh sign-in', {
      hint: 'Send your password, or sign in again on the web (within 10 minutes) and delete from Settings.',
      fields: { password: 'required' },
    });
  }
  await db.transaction().execute((trx) => eraseAccount(trx, userId));
  forgetCachedOwners('r', userId); // committed: refuse its tokens here at once
  return { deleted: true };
}

/** Whether this web session began within FRESH_SIGNIN_SECONDS (the settings page says so). */
export async function isFreshSession(db: Database, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${FRESH_SIGNIN_SECONDS})`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Inside one transaction: the whole deletion happens, or none of it. */
export async function eraseAccount(trx: Database, userId: string): Promise<void> {
  const user = await trx
    .selectFrom('users')
    .select(['email', 'disabled_at'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user || user.disabled_at) throw new ApiError('not_found', 'User not found');
  // Retired before the row is wiped: from here its URL answers 404, and the job deletes the blobs.
  await detachPhoto(trx, userId, 'cleared');
  await disableAccount(trx, userId, 'deleted');
  const compactId = userId.replaceAll('-', '');
  await trx
    .updateTable('users')
    .set({
      email: `deleted-${compactId}@deleted.invalid`,
      slug: `deleted-${compactId}`,
      display_name: DELETED_MEMBER_NAME,
      // Not a hash of anything: no password can match it (and lookups skip the row anyway).
      password_hash: 'deleted',
      about_me: null,
      city: null,
      location: null,
      home_location: null,
      public_location: null,
      latitude: null,
      longitude: null,
      coords_source: null,
      timezone: null,
      timezone_source: null,
      gender: null,
      birthday: null,
      activities: [],
      availability_text: null,
      schedule: null,
      agent_name: null,
      agent_session_id: null,
      email_verified_at: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', userId)
    .execute();
  await trx
    .deleteFrom('buddy_requests')
    .where((w) => w.or([w('sender_id', '=', userId), w('recipient_id', '=', userId)]))
    .execute();
  await trx
    .deleteFrom('blocks')
    .where((w) => w.or([w('blocker_id', '=', userId), w('blocked_id', '=', userId)]))
    .execute();
  await trx
    .updateTable('messages')
    .set({ agent_name: null, agent_session_id: null })
    .where('sender_id', '=', userId)
    .where((w) => w.or([w('agent_name', 'is not', null), w('agent_session_id', 'is not', null)]))
    .execute();
  // Revoked by disableAccount first, so their OAuth grants went with them (0016's trigger).
  await trx.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
  for (const table of [
    'agent_actions',
    'signin_links',
    'not_me_links',
    'web_push_subscriptions',
    'calendar_feeds',
    'plan_shares',
    'meetup_shares',
    'plan_reviews',
    'mail_preferences',
  ] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  }
  await trx.updateTable('registrations').set({ user_id: null }).where('user_id', '=', userId).execute();
  await trx.deleteFrom('signin_addresses').where('account_key', '=', accountKey(user.email)).execute();
}
