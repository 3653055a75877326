// What the web pages read of plans on the server: a chat's plans (cards placed among its
// messages) and each person's zone, so times read on each clock from the first render.
import type { Database } from '@/db';
import type { PlanRecord } from '../contract/plans';
import { notBlockedBy } from '../blocks/status';
import { planRows, toPlan, type PlanQueryRow } from '../plans/records';

/** A chat shows at most this many plans, the newest; older ones are on the plans page. */
const CHAT_PLANS = 30;

export async function chatPlans(db: Database, viewerId: string, chatId: string, baseUrl: string) {
  const rows = await planRows(db, viewerId)
    .where(notBlockedBy(viewerId, 'u.id'))
    .where('p.chat_id', '=', chatId)
    .orderBy('p.created_at', 'desc')
    .limit(CHAT_PLANS)
    .execute();
  const now = new Date();
  return (rows as PlanQueryRow[]).map((row) => toPlan(row, viewerId, baseUrl, now)).reverse();
}

/** The stored zone of each id (null where none is known yet). */
export async function zonesOf(db: Database, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'timezone']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.timezone]));
}

export type { PlanRecord };
