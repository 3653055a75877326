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

/**
 * The attribution of an action: what the body names, else the agent the caller's token was
 * issued to (as for messages), so "accepted by <agent> for <person>" holds without the body saying so.
 */
export async function withTokenAgent<T extends Attribution>(db: Database, tokenId: string | null, body: T): Promise<T> {
  if (body.agentName || !tokenId) return body;
  const token = await db.selectFrom('access_tokens').select('agent_name').where('id', '=', tokenId).executeTakeFirst();
  return token?.agent_name ? { ...body, agentName: token.agent_name } : body;
}
