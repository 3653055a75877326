import type { Metadata } from 'next';
import { getDb } from '@/db';
import { ScrollTable } from '../../_components/scroll-table';
import { ConfirmAssistants } from '../../_components/confirm-assistants';
import { describeAgentAction, listAgentActivity } from '@/lib/accounts/agent-activity';
import { listTokensToConfirm } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { formatDateTime } from '@/lib/web/labels';
import { keepTokenAction, revokeUnconfirmedTokenAction } from './actions';

export const metadata: Metadata = { title: 'Agents' };

export default async function AgentsPage() {
  const { user } = await requireSession('/account/agents');
  const [{ agents, recent }, toConfirm] = await Promise.all([listAgentActivity(getDb(), user.id), listTokensToConfirm(getDb(), user.id)]);

  return (
    <>
      <h1>Agents that acted for you</h1>
      {toConfirm.length > 0 ? <ConfirmAssistants tokens={toConfirm} keep={keepTokenAction} revoke={revokeUnconfirmedTokenAction} /> : null}
      <p>
        Agents say who they are when they act for you. Here is everything they told us. To stop an agent, revoke its token under{' '}
        <a href="/account/tokens">Access tokens</a>.
      </p>
      {agents.length === 0 ? (
        <p className="notice">No agent has named itself while acting for you yet.</p>
      ) : (
        <>
          <h2>Agents</h2>
          <ScrollTable label="Agents and what they did">
            <table>
              <caption className="visually-hidden">Agents and what they did</caption>
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col">What it did</th>
                  <th scope="col">Actions</th>
                  <th scope="col">Last active</th>
                </tr>
              </thead>
              <tbody>
                {agents.map((a) => (
                  <tr key={a.agentName ?? '(unnamed)'}>
                    <th scope="row">{a.agentName ?? 'Unnamed agent'}</th>
                    <td>{a.kinds.map(describeAgentAction).join(', ')}</td>
                    <td>{a.actions}</td>
                    <td>{formatDateTime(a.lastSeen)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
          <h2>Recent actions</h2>
          <ol className="stack" reversed>
            {recent.map((r) => (
              <li key={r.id}>
                <strong>{r.agentName ?? 'An unnamed agent'}</strong> {describeAgentAction(r.action)}{' '}
                <span className="muted">
                  — {formatDateTime(r.at)}
                  {r.agentSessionId ? ` (session ${r.agentSessionId})` : ''}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
