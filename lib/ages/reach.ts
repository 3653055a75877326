// Whether one person may see or reach another, by the two worlds' rule (worlds.ts): the checks that
// need the database (the viewer's birthday, a connection made earlier). Every lookup of a person by
// a path (profile, request, overlap, plan options, block, report) goes through mayReach, so a person
// of the other world answers exactly as no one does; so does a person on the other side of the
// review account's sandbox (users.review_sandbox, migration 0039).
import { sql } from 'kysely';
import type { Database } from '@/db';
import { ApiError } from '../core/errors';
import { ageWorld, canMeetByAge, reachableBirthdays, type BirthdayRange } from './worlds';

/** The viewer's birthday (null when they gave none, or no longer exist). */
export async function birthdayOf(db: Database, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('birthday').where('id', '=', userId).executeTakeFirst();
  return row?.birthday ?? null;
}

/** The birthdays `viewerId` may meet today (worlds.ts reachableBirthdays), read from their row. */
export async function reachableBirthdaysOf(
  db: Database,
  viewerId: string,
  today: Date = new Date(),
): Promise<BirthdayRange> {
  return reachableBirthdays(await birthdayOf(db, viewerId), today);
}

/** Whether the two are buddies: a connection made while both were in one world outlives a birthday. */
export async function connected(db: Database, a: string, b: string): Promise<boolean> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const row = await db
    .selectFrom('connections')
    .select('id')
    .where('user_a', '=', low)
    .where('user_b', '=', high)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether `viewerId` (null: nobody signed in, a search engine, a link preview) may see `other`:
 * themselves; the review account's people (REVIEW_ACCOUNT, lib/review) only each other, so to
 * everyone else they are no one and nobody else is anyone to them; the public sees adults only (a
 * teenager's page is not public); a member sees people of their own world, and buddies they made
 * before either crossed 18.
 */
export async function mayReach(
  db: Database,
  viewerId: string | null,
  other: { id: string; birthday: string | null; review_sandbox: boolean },
  today: Date = new Date(),
): Promise<boolean> {
  if (viewerId === other.id) return true;
  if (viewerId === null) return !other.review_sandbox && ageWorld(other.birthday, today) === 'adult';
  const viewer = await db
    .selectFrom('users')
    .select(['birthday', 'review_sandbox'])
    .where('id', '=', viewerId)
    .executeTakeFirst();
  if ((viewer?.review_sandbox ?? false) !== other.review_sandbox) return false;
  if (canMeetByAge(viewer?.birthday ?? null, other.birthday, today)) return true;
  return connected(db, viewerId, other.id);
}

/** Whether the person has ever been in touch with anyone: a connection, or a buddy request either way. */
async function hasContacts(db: Database, userId: string): Promise<boolean> {
  const { rows } = await sql<{ any: boolean }>`select
      exists (select 1 from connections where user_a = ${userId}::uuid or user_b = ${userId}::uuid)
      or exists (select 1 from buddy_requests where sender_id = ${userId}::uuid or recipient_id = ${userId}::uuid) as any`.execute(
    db,
  );
  return rows[0]!.any;
}

/**
 * Refuses a birthday change that moves the person across 18 (either way, clearing it included: no birthday counts as an adult). Such a change would
 * carry everything they built in one world into the other, so only the operator may make it, after
 * checking. The one exception: a first birthday given by someone who has been in touch with no one
 * yet (an agent that left it out at signup), since there is nothing to carry over.
 * Called inside the update's transaction, with the person's row locked.
 */
export async function assertBirthdayChangeAllowed(
  db: Database,
  person: { id: string; birthday: string | null },
  next: string | null,
  today: Date = new Date(),
): Promise<void> {
  if (next === person.birthday) return;
  if (ageWorld(person.birthday, today) === ageWorld(next, today)) return;
  if (person.birthday === null && !(await hasContacts(db, person.id))) return;
  throw new ApiError('validation_failed', 'This birthday change would move you between under-18 and adult', {
    hint:
      'People under 18 and adults never meet here, so a birthday that crosses 18 cannot be changed by you or your assistant. ' +
      'If the stored birthday is wrong, contact the operator of this service to have it checked and corrected. Keep the current birthday.',
    fields: { birthday: 'cannot move you between under 18 and adult: contact the operator to correct it' },
  });
}
