// Blocks: either side's block stops requests and messages between the pair; the
// blocked person disappears from the blocker's lists (and is not told). A disabled
// account (lib/accounts/disable.ts) counts as blocked by everyone, so the same rules
// hide it from all lists and refuse every request, answer and message that involves it.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '@/db';
import { recordAgentAction, type Attribution } from '../attribution/attribution';
import type { UserCard } from '../contract/schemas';
import { ApiError } from '../core/errors';
import { cancelPlansOf } from '../plans/cancel';
import { getUserBySlugOrIdOrThrow } from '../profiles/profile';
import { toUserCard } from '../profiles/records';

export interface BlockStatus {
  /** The caller blocked the other person. */
  byMe: boolean;
  /** The other person blocked the caller. */
  byThem: boolean;
}

export async function blockStatus(
  db: Database,
  { viewerId, otherId: other }: { viewerId: string; otherId: string },
): Promise<BlockStatus> {
  const { rows } = await sql<{ by_me: boolean; by_them: boolean }>`select
      exists (select 1 from blocks where blocker_id = ${viewerId} and blocked_id = ${other})
        or exists (select 1 from users where id = ${other} and disabled_at is not null) as by_me,
      exists (select 1 from blocks where blocker_id = ${other} and blocked_id = ${viewerId}) as by_them`.execute(db);
  return { byMe: rows[0]!.by_me, byThem: rows[0]!.by_them };
}

/** Whether either of the two has blocked the other. */
export async function eitherBlocked(db: Database, a: string, b: string): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether `blockerId` has blocked `blockedId` (one way: what a notification for `blockedId`'s act checks). */
export async function hasBlocked(
  db: Database,
  { blockerId, blockedId }: { blockerId: string; blockedId: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where('blocker_id', '=', blockerId)
    .where('blocked_id', '=', blockedId)
    .executeTakeFirst();
  return row !== undefined;
}

/** A WHERE condition for lists: keeps rows whose other person the viewer has not blocked and who is not disabled. */
export function notBlockedBy(viewerId: string, otherUserColumn: string): Expression<SqlBool> {
  const other = sql.ref(otherUserColumn);
  return sql<SqlBool>`(not exists (select 1 from blocks b where b.blocker_id = ${viewerId} and b.blocked_id = ${other})
    and not exists (select 1 from users d where d.id = ${other} and d.disabled_at is not null))`;
}

/**
 * notBlockedBy for chats: a deleted account (lib/accounts/delete.ts) stays, so the other
 * person keeps the conversation, from "a deleted member"; blockStatus still refuses writing to it.
 */
export function chatNotHiddenFrom(viewerId: string, otherUserColumn: string): Expression<SqlBool> {
  const other = sql.ref(otherUserColumn);
  return sql<SqlBool>`(not exists (select 1 from blocks b where b.blocker_id = ${viewerId} and b.blocked_id = ${other})
    and not exists (select 1 from users d where d.id = ${other} and d.disabled_reason = 'not_me'))`;
}

/** The user a path's slug or id names; 404 if none, 400 if it is the caller. */
export async function resolveOtherUser(
  db: Database,
  { viewerId, slugOrId, action }: { viewerId: string; slugOrId: string; action: string },
) {
  const target = await getUserBySlugOrIdOrThrow(db, slugOrId);
  if (target.id === viewerId) {
    throw new ApiError('cannot_target_self', `You cannot ${action} yourself`, {
      hint: 'Use the slug or id of the other person.',
    });
  }
  return target;
}

interface BlockChange {
  viewerId: string;
  slugOrId: string;
  by: Attribution;
  baseUrl: string;
}

/**
 * Records that `blockerId` blocks `blockedId` (idempotent), with who did it, and cancels
 * the pair's open and confirmed plans (shown as cancelled, by nobody, for no reason).
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
  const target = await resolveOtherUser(db, { viewerId, slugOrId, action: 'unblock' });
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
