// Which optional mail a person gets (issue 29 §5, shared with check-ins and digests): one
// row per person, all on until they say otherwise, and ONE unsubscribe link per person,
// an HMAC of their id (key generated once, kept in app_secrets), which turns all of it off
// (RFC 8058 one-click, so a mail client's "Unsubscribe" button works without a page).
import crypto from 'node:crypto';
import type { Database } from '@/db';
import { isUuid } from '../contract/validation';

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

/**
 * The headers of every optional mail: RFC 8058 one-click unsubscribe. A mail client POSTs
 * `List-Unsubscribe=One-Click` to the URL (app/api/v1/mail/unsubscribe.json), with no cookie,
 * so the signed token in it names whom to unsubscribe.
 */
export function oneClickUnsubscribeHeaders(baseUrl: string, token: string): Record<string, string> {
  return {
    'List-Unsubscribe': `<${baseUrl}/api/v1/mail/unsubscribe.json?token=${token}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
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

// ---------------------------------------------------------------------------
// Addresses that are not members (a trusted contact, issue 29 §6): they have no settings
// page, so their unsubscribe link suppresses the address itself. The token names only the
// address's hash (never the address, which would reach browser histories), signed with
// the same key; suppressions keep only that hash.

const CONTACT_PREFIX = 'c.';

export const addressHash = (email: string) =>
  crypto.createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest();

const contactMac = (key: string, hash: string) =>
  crypto.createHmac('sha256', key).update(`suppress:${hash}`).digest('base64url');

export function contactUnsubscribeToken(key: string, email: string): string {
  const hash = addressHash(email).toString('base64url');
  return `${CONTACT_PREFIX}${hash}.${contactMac(key, hash)}`;
}

/** The address hash a contact token was made for, or null (a member's token, or a forgery). */
export function contactTokenAddress(key: string, token: string): Buffer | null {
  if (!token.startsWith(CONTACT_PREFIX)) return null;
  const [hash, given] = token.slice(CONTACT_PREFIX.length).split('.');
  if (!hash || !given) return null;
  const expected = Buffer.from(contactMac(key, hash));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !crypto.timingSafeEqual(actual, expected)) return null;
  const bytes = Buffer.from(hash, 'base64url');
  return bytes.length === 32 ? bytes : null;
}

export async function suppressAddress(db: Database, hash: Buffer): Promise<void> {
  await db
    .insertInto('mail_suppressions')
    .values({ email_hash: hash })
    .onConflict((oc) => oc.column('email_hash').doNothing())
    .execute();
}

export async function isSuppressed(db: Database, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_suppressions')
    .select('created_at')
    .where('email_hash', '=', addressHash(email))
    .executeTakeFirst();
  return Boolean(row);
}

/** What an unsubscribe link does: a member's optional mail all off, or a contact's address suppressed; null for a forgery. */
export async function unsubscribeEverything(db: Database, key: string, token: string): Promise<MailPreferences | null> {
  const none = { reminders: false, checkins: false, digests: false };
  const address = contactTokenAddress(key, token);
  if (address) {
    await suppressAddress(db, address);
    return none;
  }
  const userId = unsubscribeTokenOwner(key, token);
  return userId ? setMailPreferences(db, userId, none) : null;
}
