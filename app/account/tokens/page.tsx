import type { Metadata } from 'next';
import { getDb } from '@/db';
import { listAccessTokens } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { formatDateTime } from '@/lib/web/labels';
import { TokenFacts, tokenTitle } from '../../_components/token-facts';
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
            const title = tokenTitle(t);
            return (
              <li key={t.id} className="card">
                <div className="token-head">
                  <h2>{title}</h2>
                  {t.active ? <span className="tag tag-ok">Active</span> : <span className="tag">Revoked</span>}
                </div>
                <TokenFacts token={t} />
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
