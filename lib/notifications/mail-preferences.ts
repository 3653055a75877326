// Which optional mail a person gets (issue 29 §5, shared with check-ins and digests): one
// row per person, all on until they say otherwise, and ONE unsubscribe link per person,
// an HMAC of their id (key generated once, kept in app_secrets), which turns all of it off
// (RFC 8058 one-click, so a mail client's "Unsubscribe" button works without a page).
import crypto from 'node:crypto';
import type { Database } from '@/db';
import { isUuid } from '../http/validation';

export const MAIL_KINDS = ['reminders', 'checkins', 'digests'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export type MailPreferences = Record<MailKind, boolean>;

const KEY_NAME = 'mail_unsubscribe_key';

export async function loadUnsubscribeKey(db: Database): Promise<string> {
  await db
    .insertInto('app_secrets')
    .values({ name: KEY_NAME, value: crypto.randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', KEY_NAME).executeTakeFirstOrThrow();
  return row.value;
}

const mac = (key: string, userId: string) =>
  crypto.createHmac('sha256', key).update(`unsubscribe:${userId}`).digest('base64url');

export function unsubscribeToken(key: string, userId: string): string {
  return `${userId}.${mac(key, userId)}`;
}

/** The person a token was made for, or null for anything else. */
export function unsubscribeTokenOwner(key: string, token: string): string | null {
  const [userId, given] = token.split('.');
  if (!userId || !given || !isUuid(userId)) return null;
  const expected = Buffer.from(mac(key, userId));
  const actual = Buffer.from(given);
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected) ? userId : null;
}

export async function mailPreferences(db: Database, userId: string): Promise<MailPreferences> {
  const row = await db
    .selectFrom('mail_preferences')
    .select([...MAIL_KINDS])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? { reminders: true, checkins: true, digests: true };
}

export async function setMailPreferences(
  db: Database,
  userId: string,
  change: Partial<MailPreferences>,
): Promise<MailPreferences> {
  const next = { ...(await mailPreferences(db, userId)), ...change };
  await db
    .insertInto('mail_preferences')
    .values({ user_id: userId, ...next, updated_at: new Date() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...next, updated_at: new Date() }))
    .execute();
  return next;
}
