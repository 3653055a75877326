// Who blocked whom: the queries every domain filters by (lists, messages, plans, pushes, profiles).
// They sit below those domains so each can ask without importing lib/buddies, which owns the block
// actions (lib/buddies/blocks.ts). A disabled account counts as blocked by everyone.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '@/db';

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
