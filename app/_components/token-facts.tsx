// What the person is shown about one access token, under each assistant on /account/agents
// and in the first-sign-in question there: the same facts, in the same words, at the
// reader's local time.
import type { AccessTokenRecord } from '@/lib/accounts/tokens';
import { SCOPES } from '@/lib/contract/define';
import { LocalTime } from './local-time';

export function tokenTitle(t: Pick<AccessTokenRecord, 'agentName' | 'label'>): string {
  return [t.agentName, t.label].filter(Boolean).join(' · ') || 'Unnamed token';
}

export function TokenFacts({ token: t }: { token: AccessTokenRecord }) {
  return (
    <dl className="meta">
      <div>
        <dt>Access</dt>
        <dd>{t.scopes.length === SCOPES.length ? 'Full access' : t.scopes.join(', ')}</dd>
      </div>
      {t.agentSessionId ? (
        <div>
          <dt>Assistant session</dt>
          <dd>{t.agentSessionId}</dd>
        </div>
      ) : null}
      <div>
        <dt>Created</dt>
        <dd>
          <LocalTime value={t.created_at} />
        </dd>
      </div>
      <div>
        <dt>Last used</dt>
        <dd>{t.last_used_at ? <LocalTime value={t.last_used_at} /> : 'Never'}</dd>
      </div>
      {t.revoked_at ? (
        <div>
          <dt>Revoked</dt>
          <dd>
            <LocalTime value={t.revoked_at} />
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
