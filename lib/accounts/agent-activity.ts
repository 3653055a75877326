// What each assistant did for an account, from the attribution every write records:
// agent_actions (profile, photo, requests sent and answered, blocks, reports, password)
// and messages (agent_name / agent_session_id on each message the person's side sent).
import { sql } from 'kysely';
import type { Database } from '@/db';

export interface AgentSummary {
  /** Null: the writes named only a session, no assistant. */
  agentName: string | null;
  /** How many times it did each action (action name → count). */
  counts: Record<string, number>;
  actions: number;
  firstSeen: Date;
  lastSeen: Date;
}

export interface AgentAction {
  id: string;
  agentName: string | null;
  agentSessionId: string | null;
  action: string;
  at: Date;
}

/** Every attributed write of the account: its agent_actions rows and the attributed messages it sent. */
function attributed(db: Database, userId: string) {
  return db
    .selectFrom('agent_actions')
    .select([
      sql<string>`'a' || id::text`.as('id'),
      'action',
      'agent_name',
      'agent_session_id',
      sql<Date>`created_at`.as('created_at'),
    ])
    .where('user_id', '=', userId)
    .unionAll(
      // Through the person's own chats, so the (chat_id, id) index does the work.
      db
        .selectFrom('messages as m')
        .innerJoin('chat_members as cm', (join) =>
          join.onRef('cm.chat_id', '=', 'm.chat_id').on('cm.user_id', '=', userId),
        )
        .select([
          sql<string>`'m' || m.id::text`.as('id'),
          sql<string>`'send_message'`.as('action'),
          'm.agent_name',
          'm.agent_session_id',
          sql<Date>`m.created_at`.as('created_at'),
        ])
        .where('m.sender_id', '=', userId)
        .where((eb) => eb.or([eb('m.agent_name', 'is not', null), eb('m.agent_session_id', 'is not', null)])),
    );
}

export async function listAgentActivity(
  db: Database,
  userId: string,
  recentLimit = 30,
): Promise<{ agents: AgentSummary[]; recent: AgentAction[] }> {
  const [grouped, recent] = await Promise.all([
    db
      .selectFrom(attributed(db, userId).as('a'))
      .select((eb) => [
        'a.agent_name',
        'a.action',
        eb.fn.countAll<string>().as('n'),
        eb.fn.min('a.created_at').as('first_seen'),
        eb.fn.max('a.created_at').as('last_seen'),
      ])
      .groupBy(['a.agent_name', 'a.action'])
      .execute(),
    db
      .selectFrom(attributed(db, userId).as('a'))
      .selectAll()
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(recentLimit)
      .execute(),
  ]);
  const byAgent = new Map<string | null, AgentSummary>();
  for (const g of grouped) {
    const first = new Date(g.first_seen);
    const last = new Date(g.last_seen);
    const n = Number(g.n);
    const agent = byAgent.get(g.agent_name);
    if (!agent) {
      byAgent.set(g.agent_name, {
        agentName: g.agent_name,
        counts: { [g.action]: n },
        actions: n,
        firstSeen: first,
        lastSeen: last,
      });
      continue;
    }
    agent.counts[g.action] = n;
    agent.actions += n;
    if (first < agent.firstSeen) agent.firstSeen = first;
    if (last > agent.lastSeen) agent.lastSeen = last;
  }
  return {
    agents: [...byAgent.values()].sort((a, b) => b.lastSeen.getTime() - a.lastSeen.getTime()),
    recent: recent.map((r) => ({
      id: r.id,
      agentName: r.agent_name,
      agentSessionId: r.agent_session_id,
      action: r.action,
      at: new Date(r.created_at),
    })),
  };
}

/** Plain words for one action ("sent a buddy request"), as in "Claude sent a buddy request". */
export function describeAgentAction(action: string): string {
  const known: Record<string, string> = {
    register: 'created the account',
    update_profile: 'updated the profile',
    change_password: 'changed the password',
    upload_photo: 'uploaded a photo',
    send_buddy_request: 'sent a buddy request',
    accept_buddy_request: 'accepted a buddy request',
    decline_buddy_request: 'declined a buddy request',
    cancel_buddy_request: 'withdrew a buddy request',
    send_message: 'sent a message',
    block_user: 'blocked someone',
    unblock_user: 'unblocked someone',
    report_user: 'reported someone',
  };
  return known[action] ?? action.replace(/_/g, ' ');
}

/**
 * An assistant's record in a few plain lines, most telling first: "Sent 3 messages",
 * "Answered 2 buddy requests (1 accepted, 1 declined)", "Created your account".
 */
export function describeAgentCounts(counts: Record<string, number>): string[] {
  const n = (action: string) => counts[action] ?? 0;
  const times = (count: number, one: string, many: string) => (count === 1 ? one : many.replace('#', String(count)));
  const lines: string[] = [];
  if (n('send_message')) lines.push(times(n('send_message'), 'Sent 1 message', 'Sent # messages'));
  if (n('send_buddy_request'))
    lines.push(times(n('send_buddy_request'), 'Sent 1 buddy request', 'Sent # buddy requests'));
  const accepted = n('accept_buddy_request');
  const declined = n('decline_buddy_request');
  if (accepted + declined > 0) {
    const parts = [accepted ? `${accepted} accepted` : null, declined ? `${declined} declined` : null]
      .filter(Boolean)
      .join(', ');
    lines.push(`${times(accepted + declined, 'Answered 1 buddy request', 'Answered # buddy requests')} (${parts})`);
  }
  if (n('cancel_buddy_request'))
    lines.push(times(n('cancel_buddy_request'), 'Withdrew 1 buddy request', 'Withdrew # buddy requests'));
  if (n('update_profile'))
    lines.push(times(n('update_profile'), 'Updated your profile once', 'Updated your profile # times'));
  if (n('upload_photo')) lines.push(times(n('upload_photo'), 'Uploaded 1 photo', 'Uploaded # photos'));
  if (n('block_user') || n('unblock_user')) lines.push(`Blocked ${n('block_user')}, unblocked ${n('unblock_user')}`);
  if (n('report_user')) lines.push(times(n('report_user'), 'Reported 1 person', 'Reported # people'));
  if (n('change_password'))
    lines.push(times(n('change_password'), 'Changed your password', 'Changed your password # times'));
  if (n('register')) lines.push('Created your account');
  const known = new Set([
    'send_message',
    'send_buddy_request',
    'accept_buddy_request',
    'decline_buddy_request',
    'cancel_buddy_request',
    'update_profile',
    'upload_photo',
    'block_user',
    'unblock_user',
    'report_user',
    'change_password',
    'register',
  ]);
  for (const [action, count] of Object.entries(counts))
    if (!known.has(action)) lines.push(`${describeAgentAction(action)} (${count})`);
  return lines;
}
