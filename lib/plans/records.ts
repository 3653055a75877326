// Plan rows as the API shows them: one query shape (the plan, the other person's card,
// the names of whoever proposed and last acted) and one mapping function.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { PlanRow, PlanStatus } from '@/db/types';
import type { PlanRecord } from '../contract/plans';
import { ApiError } from '../core/errors';
import { JOINED_USER_CARD_COLUMNS, type JoinedUserCardSource, toJoinedUserCard } from '../profiles/records';
import { isoInstant } from './time';

/** The caller's plans with everything toPlan needs; the other person is `u`. */
export function planRows(db: Database, viewerId: string) {
  return db
    .selectFrom('plans as p')
    .innerJoin('users as u', (join) =>
      join.on(sql<boolean>`u.id = case when p.proposer_id = ${viewerId} then p.recipient_id else p.proposer_id end`),
    )
    .innerJoin('users as vu', (join) => join.on(sql<boolean>`vu.id = ${viewerId}`))
    .innerJoin('users as pu', 'pu.id', 'p.proposer_id')
    .leftJoin('users as au', 'au.id', 'p.acted_by_user')
    .leftJoin('users as cu', 'cu.id', 'p.accepted_by_user')
    .where((eb) => eb.or([eb('p.proposer_id', '=', viewerId), eb('p.recipient_id', '=', viewerId)]))
    .selectAll('p')
    .select([
      ...JOINED_USER_CARD_COLUMNS,
      'u.timezone as u_timezone',
      'vu.timezone as viewer_timezone',
      'pu.display_name as proposer_name',
      'au.display_name as actor_name',
      'cu.display_name as accepter_name',
    ]);
}

export type PlanQueryRow = PlanRow &
  JoinedUserCardSource & {
    u_timezone: string | null;
    viewer_timezone: string | null;
    proposer_name: string;
    actor_name: string | null;
    accepter_name: string | null;
  };

const offsetOf = (iso: string) => (iso.endsWith('Z') ? '+00:00' : iso.slice(-6));

/** A proposal nobody answered before its start is expired, whether or not the sweep has stored that yet. */
export function effectiveStatus(row: Pick<PlanRow, 'status' | 'starts_at'>, now: Date): PlanStatus {
  return row.status === 'proposed' && new Date(row.starts_at).getTime() <= now.getTime() ? 'expired' : row.status;
}

export function toPlan(row: PlanQueryRow, viewerId: string, baseUrl: string, now = new Date()): PlanRecord {
  const status = effectiveStatus(row, now);
  // The last action's author; null after a block or an account deletion (nothing to reveal).
  const actor = row.acted_by_user && row.actor_name ? { name: row.actor_name, agent_name: row.acted_agent_name } : null;
  const lastAction = row.status;
  // Every instant in the reader's zone; the buddy's local start only where their clock reads otherwise.
  const inZone = (at: Date | string) => isoInstant(new Date(at), row.viewer_timezone);
  const startsAt = inZone(row.starts_at);
  const buddyStartsAt = row.u_timezone ? isoInstant(new Date(row.starts_at), row.u_timezone) : null;
  return {
    id: row.id,
    chatId: row.chat_id,
    status,
    activity: row.activity,
    starts_at: startsAt,
    ends_at: inZone(row.ends_at),
    buddy_local_starts_at: buddyStartsAt && offsetOf(buddyStartsAt) !== offsetOf(startsAt) ? buddyStartsAt : null,
    place: { name: row.place_name, address: row.place_address },
    event_id: row.event_id,
    note: row.note,
    from_me: row.proposer_id === viewerId,
    buddy: toJoinedUserCard(row, baseUrl),
    replaces: row.replaces,
    superseded_by: row.superseded_by,
    calendar_uid: row.calendar_uid,
    sequence: row.sequence,
    proposed_by: { name: row.proposer_name, agent_name: row.agent_name },
    accepted_by: row.accepted_by_user ? { name: row.accepter_name ?? '', agent_name: row.accepted_agent_name } : null,
    declined_by: lastAction === 'declined' ? actor : null,
    cancelled_by: lastAction === 'cancelled' ? actor : null,
    cancel_reason: lastAction === 'cancelled' && actor ? row.cancel_reason : null,
    page_url: `${baseUrl}/account/plans/${row.id}`,
    created_at: inZone(row.created_at),
    updated_at: inZone(row.updated_at),
  };
}

// Here, not in plans.ts, so share.ts can throw it without importing plans.ts (which imports share.ts).
export const planNotFound = () =>
  new ApiError('not_found', 'Plan not found', {
    hint: 'List your plans with GET /api/v1/plans.json; only the two buddies can see a plan.',
  });
