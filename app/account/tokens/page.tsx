import type { Metadata } from 'next';
import { getDb } from '@/db';
import { listAccessTokens } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { formatDateTime } from '@/lib/web/labels';
import { revokeTokenAction } from './actions';

export const metadata: Metadata = { title: 'Access tokens' };

export default async function TokensPage() {
  const { user } = await requireSession('/account/tokens');
  const tokens = await listAccessTokens(getDb(), user.id);
  const live = tokens.filter((t) => t.active).length;

  return (
    <>
      <h1>Access tokens</h1>
      <p>
        Each agent that acts for you holds an access token. Revoking one stops it at once: the agent’s next request is refused. Tokens are stored
        only in scrambled form, so they can’t be shown again.
      </p>
      <p className="muted">
        {live} active of {tokens.length}.
      </p>
      {tokens.length === 0 ? (
        <p>No tokens yet.</p>
      ) : (
        <ul className="token-list" aria-label="Your access tokens">
          {tokens.map((t) => {
            const title = [t.agentName, t.label].filter(Boolean).join(' · ') || 'Unnamed token';
            return (
              <li key={t.id} className="card">
                <div className="token-head">
                  <h2>{title}</h2>
                  {t.active ? <span className="tag tag-ok">Active</span> : <span className="tag">Revoked</span>}
                </div>
                <dl className="meta">
                  <div>
                    <dt>Access</dt>
                    <dd>{t.scopes.length === 7 ? 'Full access' : t.scopes.join(', ')}</dd>
                  </div>
                  {t.agentSessionId ? (
                    <div>
                      <dt>Agent session</dt>
                      <dd>{t.agentSessionId}</dd>
                    </div>
                  ) : null}
                  <div>
                    <dt>Created</dt>
                    <dd>{formatDateTime(t.created_at)}</dd>
                  </div>
                  <div>
                    <dt>Last used</dt>
                    <dd>{t.last_used_at ? formatDateTime(t.last_used_at) : 'Never'}</dd>
                  </div>
                  {t.revoked_at ? (
                    <div>
                      <dt>Revoked</dt>
                      <dd>{formatDateTime(t.revoked_at)}</dd>
                    </div>
                  ) : null}
                </dl>
                {t.active ? (
                  <form action={revokeTokenAction}>
                    <input type="hidden" name="tokenId" value={t.id} />
                    <button type="submit" className="button-danger" aria-label={`Revoke ${title}, created ${formatDateTime(t.created_at)}`}>
                      Revoke
                    </button>
                  </form>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
