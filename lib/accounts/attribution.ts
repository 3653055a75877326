// Agent attribution: optional agentName/agentSessionId on writes, recorded per action.
import type { Database } from '@/db';

export interface Attribution {
  agentName?: string | null;
  agentSessionId?: string | null;
}

/** Records which agent acted; a no-op when the caller named none. */
export async function recordAgentAction(db: Database, userId: string, action: string, by: Attribution): Promise<void> {
  if (!by.agentName && !by.agentSessionId) return;
  await db
    .insertInto('agent_actions')
    .values({ user_id: userId, action, agent_name: by.agentName ?? null, agent_session_id: by.agentSessionId ?? null })
    .execute();
}
