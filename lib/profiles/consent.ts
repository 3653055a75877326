// "Yes, show me to people nearby" (issue 41 §2). With REQUIRE_PERSON_CONSENT on, a profile an
// assistant made waits out of sight (users.awaiting_person_consent, migration 0033) until its
// person says yes here; the contract lets only their web session call this (personOnly), never a
// bearer or OAuth token. Clearing the flag is all it takes: the postings trigger puts a complete
// profile into Discover in the same statement, and lookups by slug find it from then on.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { SHOW_ME_HINT } from '../contract/web-app';
import { ApiError, notFound } from '../core/errors';
import { type Onboarding, onboardingOf } from './onboarding';
import { getUserOrThrow } from './profile';

export async function showMeToPeople(db: Database, userId: string): Promise<{ success: true; onboarding: Onboarding }> {
  const shown = await db
    .updateTable('users')
    .set({ awaiting_person_consent: false, updated_at: sql`now()` })
    .where('id', '=', userId)
    .where('awaiting_person_consent', '=', true)
    .where('disabled_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  const row = shown ?? (await getUserOrThrow(db, userId));
  if (row.disabled_at) throw notFound('User');
  return { success: true, onboarding: onboardingOf(row) };
}

/**
 * A buddy request shows the sender's card to its recipient, so a profile still awaiting its
 * person's yes sends none (403): an assistant cannot put the person on show one stranger at a time.
 */
export async function refuseWhileAwaitingConsent(
  db: Database,
  userId: string,
  what = 'ask anyone to be buddies',
): Promise<void> {
  const row = await db
    .selectFrom('users')
    .select('awaiting_person_consent')
    .where('id', '=', userId)
    .executeTakeFirst();
  if (row?.awaiting_person_consent)
    throw new ApiError('forbidden', `Nobody can see this profile yet, so it cannot ${what}`, {
      hint: SHOW_ME_HINT,
    });
}
