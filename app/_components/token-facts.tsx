// What the person is shown about one access token, under each assistant on /account/agents
// and in the first-sign-in question there: the same facts, in the same words, at the
// reader's local time.
import type { AccessTokenRecord } from '@/lib/accounts/tokens';
import { SCOPES } from '@/lib/contract/define';
import { LocalTime } from './local-time';

/** How a connection was made, in plain words (not the stored label, "registration"). */
export function connectionKind(t: Pick<AccessTokenRecord, 'label'>): string {
  if (t.label === 'Connected with OAuth') return 'Connected with OAuth';
  if (t.label === 'registration') return 'Key given when it created your account';
  if (t.label === 'mobile app') return 'Signed in to the mobile app';
  return t.label ?? 'Access key';
}

/** "ChatGPT (key given when it created your account)"; a token without an agent is named by how it was made. */
export function tokenTitle(t: Pick<AccessTokenRecord, 'agentName' | 'label'>): string {
  const kind = connectionKind(t);
  return t.agentName ? `${t.agentName} (${kind.charAt(0).toLowerCase()}${kind.slice(1)})` : kind;
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
