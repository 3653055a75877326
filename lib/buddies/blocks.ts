// Blocks: either side's block stops requests and messages between the pair; the
// blocked person disappears from the blocker's lists (and is not told).
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '@/db';
import { recordAgentAction, type Attribution } from '../accounts/attribution';
import type { UserCard } from '../contract/social';
import { ApiError } from '../http/errors';
import { getUserBySlugOrIdOrThrow } from '../profiles/profile';
import { toUserCard } from '../profiles/records';

export interface BlockStatus {
  /** The caller blocked the other person. */
  byMe: boolean;
  /** The other person blocked the caller. */
  byThem: boolean;
}

export async function blockStatus(db: Database, me: string, other: string): Promise<BlockStatus> {
  const rows = await db
    .selectFrom('blocks')
    .select(['blocker_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', me), eb('blocked_id', '=', other)]),
        eb.and([eb('blocker_id', '=', other), eb('blocked_id', '=', me)]),
      ]),
    )
    .execute();
  return { byMe: rows.some((r) => r.blocker_id === me), byThem: rows.some((r) => r.blocker_id === other) };
}

/** A WHERE condition for lists: keeps rows whose other person the viewer has not blocked. */
export function notBlockedBy(viewerId: string, otherUserColumn: string): Expression<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from blocks b where b.blocker_id = ${viewerId} and b.blocked_id = ${sql.ref(otherUserColumn)})`;
}

/** The user a path's slug or id names; 404 if none, 400 if it is the caller. */
export async function resolveOtherUser(db: Database, me: string, slugOrId: string, action: string) {
  const target = await getUserBySlugOrIdOrThrow(db, slugOrId);
  if (target.id === me) throw new ApiError('cannot_target_self', `You cannot ${action} yourself`, { hint: 'Use the slug or id of the other person.' });
  return target;
}

/** Records that `blockerId` blocks `blockedId` (idempotent), with who did it. */
export async function insertBlock(trx: Database, blockerId: string, blockedId: string, by: Attribution): Promise<void> {
  await trx
    .insertInto('blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId, agent_name: by.agentName ?? null, agent_session_id: by.agentSessionId ?? null })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

export async function blockUser(db: Database, me: string, slugOrId: string, by: Attribution, baseUrl: string) {
  const target = await resolveOtherUser(db, me, slugOrId, 'block');
  await db.transaction().execute(async (trx) => {
    await insertBlock(trx, me, target.id, by);
    await recordAgentAction(trx, me, 'block_user', by);
  });
  return { success: true as const, blocked: true, user: toUserCard(target, baseUrl) };
}

export async function unblockUser(db: Database, me: string, slugOrId: string, by: Attribution, baseUrl: string) {
  const target = await resolveOtherUser(db, me, slugOrId, 'unblock');
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('blocks').where('blocker_id', '=', me).where('blocked_id', '=', target.id).execute();
    await recordAgentAction(trx, me, 'unblock_user', by);
  });
  return { success: true as const, blocked: false, user: toUserCard(target, baseUrl) };
}

export async function listBlocks(db: Database, me: string, baseUrl: string): Promise<{ blocked: (UserCard & { blocked_at: string })[] }> {
  const rows = await db
    .selectFrom('blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select(['u.id', 'u.slug', 'u.display_name', 'u.photo_url', 'u.public_location', 'b.created_at'])
    .where('b.blocker_id', '=', me)
    .orderBy('b.created_at', 'desc')
    .limit(1000)
    .execute();
  return { blocked: rows.map((row) => ({ ...toUserCard(row, baseUrl), blocked_at: new Date(row.created_at).toISOString() })) };
}
