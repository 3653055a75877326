// Blocks: either side's block stops requests and messages between the pair; the
// blocked person disappears from the blocker's lists (and is not told). A disabled
// account (lib/accounts/disable.ts) counts as blocked by everyone, so the same rules
// hide it from all lists and refuse every request, answer and message that involves it.
import type { Database } from '@/db';
import { recordAgentAction, type Attribution } from '../attribution/attribution';
import type { UserCard } from '../contract/schemas';
import { ApiError } from '../core/errors';
import { separateInMeetups } from '../meetups/removal';
import { cancelPlansOf } from '../plans/cancel';
import { findAccountBySlugOrId, getUserBySlugOrIdOrThrow } from '../profiles/profile';
import { toUserCard } from '../profiles/records';

/**
 * The user a path's slug or id names, as the caller may see them (lib/ages); 404 if none, 400 if
 * it is the caller. `unblocking`: also someone the caller blocked, whatever world they are in now.
 */
export async function resolveOtherUser(
  db: Database,
  { viewerId, slugOrId, action, unblocking }: { viewerId: string; slugOrId: string; action: string; unblocking?: true },
) {
  const target = unblocking
    ? await blockedByViewer(db, viewerId, slugOrId)
    : await getUserBySlugOrIdOrThrow(db, slugOrId, viewerId);
  if (target.id === viewerId) {
    throw new ApiError('cannot_target_self', `You cannot ${action} yourself`, {
      hint: 'Use the slug or id of the other person.',
    });
  }
  return target;
}

async function blockedByViewer(db: Database, viewerId: string, slugOrId: string) {
  const account = await findAccountBySlugOrId(db, slugOrId);
  const blocked =
    account &&
    (await db
      .selectFrom('blocks')
      .select('blocked_id')
      .where('blocker_id', '=', viewerId)
      .where('blocked_id', '=', account.id)
      .executeTakeFirst());
  return blocked ? account : getUserBySlugOrIdOrThrow(db, slugOrId, viewerId);
}

interface BlockChange {
  viewerId: string;
  slugOrId: string;
  by: Attribution;
  baseUrl: string;
}

/**
 * Records that `blockerId` blocks `blockedId` (idempotent), with who did it, cancels
 * the pair's open and confirmed plans (shown as cancelled, by nobody, for no reason), and
 * takes whichever of them holds a place in the other's meetups out of it (lib/meetups/removal.ts).
 */
export async function insertBlock(
  trx: Database,
  { blockerId, blockedId, by }: { blockerId: string; blockedId: string; by: Attribution },
): Promise<void> {
  await trx
    .insertInto('blocks')
    .values({
      blocker_id: blockerId,
      blocked_id: blockedId,
      agent_name: by.agentName ?? null,
      agent_session_id: by.agentSessionId ?? null,
    })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
  await cancelPlansOf(trx, blockerId, blockedId);
  await separateInMeetups(trx, blockerId, blockedId);
}

export async function blockUser(db: Database, { viewerId, slugOrId, by, baseUrl }: BlockChange) {
  const target = await resolveOtherUser(db, { viewerId, slugOrId, action: 'block' });
  await db.transaction().execute(async (trx) => {
    await insertBlock(trx, { blockerId: viewerId, blockedId: target.id, by });
    await recordAgentAction(trx, viewerId, 'block_user', by);
  });
  return { success: true as const, blocked: true, user: toUserCard(target, baseUrl) };
}

export async function unblockUser(db: Database, { viewerId, slugOrId, by, baseUrl }: BlockChange) {
  const target = await resolveOtherUser(db, { viewerId, slugOrId, action: 'unblock', unblocking: true });
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('blocks').where('blocker_id', '=', viewerId).where('blocked_id', '=', target.id).execute();
    await recordAgentAction(trx, viewerId, 'unblock_user', by);
  });
  return { success: true as const, blocked: false, user: toUserCard(target, baseUrl) };
}

export async function listBlocks(
  db: Database,
  viewerId: string,
  baseUrl: string,
): Promise<{ blocked: (UserCard & { blocked_at: string })[] }> {
  const rows = await db
    .selectFrom('blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select(['u.id', 'u.slug', 'u.display_name', 'u.photo_url', 'u.public_location', 'b.created_at'])
    .where('b.blocker_id', '=', viewerId)
    .where('u.disabled_at', 'is', null)
    .orderBy('b.created_at', 'desc')
    .limit(1000)
    .execute();
  return {
    blocked: rows.map((row) => ({ ...toUserCard(row, baseUrl), blocked_at: new Date(row.created_at).toISOString() })),
  };
}
