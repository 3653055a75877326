// A disabled account: what "This wasn't me" leaves behind. The owner of the mailbox said
// they never made it, so whoever did must lose it at once, and nobody else may meet it:
//  - it can neither sign in nor act: every access token is revoked, every web session
//    ended, every unused sign-in link spent, and sign-in, token and session lookups skip
//    disabled accounts as well;
//  - others stop seeing it, as if each of them had blocked it: its public profile and any
//    path naming it answer 404, Discover leaves it out (its onboarding_complete is held
//    false by a trigger), and requests, chats, the inbox and block lists hide it;
//  - its photo goes at once (issue 41 §2): it may be the mailbox owner's own picture, put
//    up without their consent. Retired in the same transaction, its URLs answer 404 from the
//    commit, and the photo-deletion job removes the files;
//  - its email address is released (the unique index covers live accounts only), so the
//    real owner can sign up later with their own assistant;
//  - its rows are kept, not deleted: what it sent may be evidence in a report, and
//    deleting it would tear holes in other people's chats. Nothing of it is shown.
// There is no way back from the web; an operator can clear disabled_at if the address is
// still free.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { DisabledReason } from '@/db/types';
import { endMeetupsOf } from '../meetups/removal';
import { cancelPlansOf } from '../plans/cancel';
import { detachPhoto } from '../photos/photos';
import { deleteOtherSessions } from './sessions';
import { revokeAllAccessTokens } from './tokens';

export interface DisabledAccount {
  userId: string;
  revokedTokens: number;
  endedSessions: number;
}

/** Disables an account. Call inside a transaction, so it happens entirely or not at all. */
export async function disableAccount(trx: Database, userId: string, reason: DisabledReason): Promise<DisabledAccount> {
  await trx
    .updateTable('users')
    .set({
      disabled_at: sql`coalesce(disabled_at, now())`,
      disabled_reason: sql`coalesce(disabled_reason, ${reason})`,
      updated_at: sql`now()`,
    })
    .where('id', '=', userId)
    .execute();
  // Links first: a sign-in link being traded for a token right now either finished (and
  // its token is revoked below) or finds its link spent. Lookups skip disabled accounts anyway.
  await trx
    .updateTable('signin_links')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await trx
    .updateTable('not_me_links')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  await detachPhoto(trx, userId, 'cleared');
  const revokedTokens = await revokeAllAccessTokens(trx, userId);
  const endedSessions = await deleteOtherSessions(trx, { userId, keepSessionId: null });
  // Whoever signed its phone in must not be told about anything any more.
  await trx.deleteFrom('push_tokens').where('user_id', '=', userId).execute();
  // Nobody should turn up to meet it: its plans are cancelled, showing no reason.
  await cancelPlansOf(trx, userId);
  // and the meetups it hosts; its seats go to whoever waits.
  await endMeetupsOf(trx, userId);
  return { userId, revokedTokens, endedSessions };
}
