import type { Metadata } from 'next';
import { getDb } from '@/db';
import { ConfirmAssistants } from '@/app/_components/confirm-assistants';
import { LocalTime } from '@/app/_components/local-time';
import { connectionKind, TokenFacts } from '@/app/_components/token-facts';
import {
  describeAgentAction,
  describeAgentCounts,
  listAgentActivity,
  type AgentSummary,
} from '@/lib/accounts/agent-activity';
import { listAccessTokens, listTokensToConfirm, type AccessTokenRecord } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { keepTokenAction, revokeTokenAction } from './actions';

export const metadata: Metadata = { title: 'Connected assistants' };

interface Assistant {
  key: string;
  name: string;
  tokens: AccessTokenRecord[];
  activity: AgentSummary | null;
}

/**
 * One entry per assistant: its connections (tokens carrying its name) and what it did
 * (attributed writes under its name). A token without a name stands alone, named by how
 * it was made; writes that named no assistant are "An unnamed assistant".
 */
function assistantsOf(tokens: AccessTokenRecord[], agents: AgentSummary[]): Assistant[] {
  const byKey = new Map<string, Assistant>();
  for (const t of tokens) {
    const key = t.agentName !== null ? `name:${t.agentName}` : `token:${t.id}`;
    const name = t.agentName ?? (t.label === 'mobile app' ? 'Mobile app' : (t.label ?? 'Unnamed assistant'));
    const entry = byKey.get(key) ?? { key, name, tokens: [], activity: null };
    entry.tokens.push(t);
    byKey.set(key, entry);
  }
  for (const a of agents) {
    const key = a.agentName !== null ? `name:${a.agentName}` : 'unnamed';
    const entry = byKey.get(key) ?? { key, name: a.agentName ?? 'An unnamed assistant', tokens: [], activity: null };
    entry.activity = a;
    byKey.set(key, entry);
  }
  const live = (a: Assistant) => a.tokens.some((t) => t.active);
  const last = (a: Assistant) =>
    Math.max(a.activity?.lastSeen.getTime() ?? 0, ...a.tokens.map((t) => Date.parse(t.last_used_at ?? t.created_at)));
  return [...byKey.values()].sort((a, b) => Number(live(b)) - Number(live(a)) || last(b) - last(a));
}

export default async function AgentsPage() {
  const { user } = await requireSession('/account/agents');
  const db = getDb();
  const [tokens, { agents, recent }, toConfirm] = await Promise.all([
    listAccessTokens(db, user.id),
    listAgentActivity(db, user.id),
    listTokensToConfirm(db, user.id),
  ]);
  const assistants = assistantsOf(tokens, agents);
  const live = tokens.filter((t) => t.active).length;

  return (
    <>
      <h1>Connected assistants</h1>
      {toConfirm.length > 0 ? (
        <ConfirmAssistants tokens={toConfirm} keep={keepTokenAction} revoke={revokeTokenAction} />
      ) : null}
      <p>
        Assistants are AI apps, such as Claude or ChatGPT, that you let act for you here: find people, send and answer
        buddy requests, chat and edit your profile. Each one holds its own access. Disconnect one and it is refused at
        once; nothing it did is undone.
      </p>
      <p className="muted">
        {live === 0
          ? 'No assistant can act for you now.'
          : live === 1
            ? '1 connection can act for you now.'
            : `${live} connections can act for you now.`}
      </p>
      {assistants.length === 0 ? (
        <p className="notice">No assistant has been connected to your account yet.</p>
      ) : (
        <ul className="token-list" aria-label="Your assistants">
          {assistants.map((a) => {
            const did = a.activity ? describeAgentCounts(a.activity.counts) : [];
            const headingId = `assistant-${a.key.replace(/[^\w-]/g, '_')}`;
            return (
              <li key={a.key} className="card stack" aria-labelledby={headingId}>
                <div className="token-head">
                  <h2 id={headingId}>{a.name}</h2>
                  {a.tokens.length === 0 ? null : a.tokens.some((t) => t.active) ? (
                    <span className="tag tag-ok">Connected</span>
                  ) : (
                    <span className="tag">Disconnected</span>
                  )}
                </div>
                <div>
                  <h3 className="small-heading">What it did</h3>
                  {did.length === 0 ? (
                    <p className="muted">Nothing yet.</p>
                  ) : (
                    <ul className="assistant-did" aria-label={`What ${a.name} did`}>
                      {did.map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  )}
                  {a.activity ? (
                    <p className="muted">
                      Last active <LocalTime value={a.activity.lastSeen.toISOString()} />
                    </p>
                  ) : null}
                  {a.tokens.length === 0 ? (
                    <p className="muted">It has no access of its own: it acted through another connection.</p>
                  ) : null}
                </div>
                {a.tokens.length > 0 ? (
                  <ul className="connection-list" aria-label={`${a.name}: connections`}>
                    {a.tokens.map((t, i) => {
                      const kind = connectionKind(t);
                      const which = a.tokens.length > 1 ? `, connection ${i + 1} of ${a.tokens.length}` : '';
                      return (
                        <li key={t.id}>
                          <div className="token-head">
                            <h3>{kind}</h3>
                            {t.active ? (
                              <span className="tag tag-ok">Active</span>
                            ) : (
                              <span className="tag">Revoked</span>
                            )}
                          </div>
                          <TokenFacts token={t} />
                          {t.active ? (
                            <form action={revokeTokenAction}>
                              <input type="hidden" name="tokenId" value={t.id} />
                              <button
                                type="submit"
                                className="button-danger"
                                aria-label={`Disconnect ${a.name} (${kind}${which})`}
                              >
                                Disconnect
                              </button>
                            </form>
                          ) : null}
                        </li>
                      );
                    })}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {recent.length > 0 ? (
        <section aria-labelledby="recent-heading">
          <h2 id="recent-heading">Recent actions</h2>
          <ol className="stack recent-actions" aria-label="Recent actions">
            {recent.map((r) => (
              <li key={r.id}>
                <strong>{r.agentName ?? 'An unnamed assistant'}</strong> {describeAgentAction(r.action)}{' '}
                <span className="muted">
                  — <LocalTime value={r.at.toISOString()} />
                  {r.agentSessionId ? ` (session ${r.agentSessionId})` : ''}
                </span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </>
  );
}
