// Which agents acted for an account, from the attribution every write records
// (agent_actions) and the tokens agents were given (access_tokens).
import { sql } from 'kysely';
import type { Database } from '@/db';

export interface AgentSummary {
  agentName: string | null;
  actions: number;
  kinds: string[];
  sessions: number;
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

export async function listAgentActivity(db: Database, userId: string, recentLimit = 50): Promise<{ agents: AgentSummary[]; recent: AgentAction[] }> {
  const grouped = await db
    .selectFrom('agent_actions')
    .select((eb) => [
      'agent_name',
      eb.fn.countAll<number>().as('actions'),
      sql<string[]>`array_agg(distinct action order by action)`.as('kinds'),
      sql<number>`count(distinct agent_session_id)`.as('sessions'),
      eb.fn.min('created_at').as('first_seen'),
      eb.fn.max('created_at').as('last_seen'),
    ])
    .where('user_id', '=', userId)
    .groupBy('agent_name')
    .orderBy('last_seen', 'desc')
    .execute();
  const recent = await db
    .selectFrom('agent_actions')
    .select(['id', 'agent_name', 'agent_session_id', 'action', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(recentLimit)
    .execute();
  return {
    agents: grouped.map((g) => ({
      agentName: g.agent_name,
      actions: Number(g.actions),
      kinds: g.kinds,
      sessions: Number(g.sessions),
      firstSeen: new Date(g.first_seen),
      lastSeen: new Date(g.last_seen),
    })),
    recent: recent.map((r) => ({
      id: String(r.id),
      agentName: r.agent_name,
      agentSessionId: r.agent_session_id,
      action: r.action,
      at: new Date(r.created_at),
    })),
  };
}

/** Plain words for the action names recorded by the domain functions. */
export function describeAgentAction(action: string): string {
  const known: Record<string, string> = {
    register: 'created the account',
    update_profile: 'updated the profile',
    change_password: 'changed the password',
    upload_photo: 'uploaded a photo',
    send_buddy_request: 'sent a buddy request',
    accept_buddy_request: 'accepted a buddy request',
    decline_buddy_request: 'declined a buddy request',
    send_message: 'sent a message',
  };
  return known[action] ?? action.replace(/_/g, ' ');
}
