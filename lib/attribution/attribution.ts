// Agent attribution: optional agentName/agentSessionId on writes, recorded per action.
import type { Database } from '@/db';
import { ApiError } from '@/lib/core/errors';

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

/** Who wrote: a bearer token (with its recorded agent, if any) or the person's web session. */
export type Writer = { via: 'bearer'; agentName: string | null } | { via: 'session' };

/**
 * The attribution a write may carry. The name on what an assistant writes ("Sent by Claude")
 * comes from its token: the agentName given at registration, or the OAuth client's name. A
 * body may repeat that name (any case; the recorded spelling is kept) or leave it out; naming
 * another agent is refused (400 validation_failed on agentName), as is naming any agent from
 * a token that has none or from the person's own web session, whose writes carry no agent.
 */
export function attributedTo<T extends Attribution>(body: T, writer: Writer): T {
  const named = body.agentName?.trim() || null;
  if (named === null) return body;
  const own = writer.via === 'bearer' ? writer.agentName : null;
  if (own !== null && named.toLowerCase() === own.toLowerCase()) return { ...body, agentName: own };
  const reason =
    writer.via === 'session'
      ? 'leave it out: what you write signed in on the web is your own, not an assistant’s'
      : own === null
        ? 'leave it out: this token has no agent name (it is given when the token is made: agentName at registration, or the OAuth client’s name)'
        : `must be this token’s own agent, ${JSON.stringify(own)}, or left out: a token cannot write in another agent’s name`;
  throw new ApiError('validation_failed', `agentName ${JSON.stringify(named)} is not the agent of this token`, {
    fields: { agentName: reason },
  });
}

/**
 * The attribution of a write: the token's own agent, whether or not the body named it
 * (attributedTo has already refused any other name), so "accepted by <agent> for <person>"
 * holds without the body saying so. Web-session writes carry no agent.
 */
export function withCallerAgent<T extends Attribution>(caller: Writer, body: T): T {
  return caller.via === 'bearer' && caller.agentName ? { ...body, agentName: caller.agentName } : body;
}
