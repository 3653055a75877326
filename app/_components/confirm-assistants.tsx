// The first-sign-in question on /account/agents: which assistants hold a token, and does
// the person want each to keep it? Plain forms posting server actions (no script needed).
import { SCOPES } from '@/lib/contract/define';
import type { AccessTokenRecord } from '@/lib/accounts/tokens';
import { formatDateTime } from '@/lib/web/labels';

type Action = (formData: FormData) => Promise<void>;

export function tokenTitle(t: Pick<AccessTokenRecord, 'agentName' | 'label'>): string {
  return [t.agentName, t.label].filter(Boolean).join(' · ') || 'Unnamed token';
}

export function ConfirmAssistants({ tokens, keep, revoke }: { tokens: AccessTokenRecord[]; keep: Action; revoke: Action }) {
  return (
    <section className="card stack" aria-labelledby="confirm-assistants-heading">
      <h2 id="confirm-assistants-heading">Do you know these assistants?</h2>
      <p>
        {tokens.length === 1 ? 'This assistant holds' : `These ${tokens.length} assistants hold`} an access token that lets it act as you: read
        your chats, send messages and edit your profile. Keep the ones you use. Revoke any you don’t recognise: someone may have signed up with
        your email address before you did.
      </p>
      <ul className="token-list" aria-label="Assistants to confirm">
        {tokens.map((t) => {
          const title = tokenTitle(t);
          const created = formatDateTime(t.created_at);
          return (
            <li key={t.id} className="card">
              <div className="token-head">
                <h3>{title}</h3>
              </div>
              <dl className="meta">
                <div>
                  <dt>Created</dt>
                  <dd>{created}</dd>
                </div>
                <div>
                  <dt>Access</dt>
                  <dd>{t.scopes.length === SCOPES.length ? 'Full access' : t.scopes.join(', ')}</dd>
                </div>
                <div>
                  <dt>Last used</dt>
                  <dd>{t.last_used_at ? formatDateTime(t.last_used_at) : 'Never'}</dd>
                </div>
                {t.agentSessionId ? (
                  <div>
                    <dt>Agent session</dt>
                    <dd>{t.agentSessionId}</dd>
                  </div>
                ) : null}
              </dl>
              <div className="actions">
                <form action={keep}>
                  <input type="hidden" name="tokenId" value={t.id} />
                  <button type="submit" aria-label={`Keep ${title}, created ${created}`}>
                    Keep
                  </button>
                </form>
                <form action={revoke}>
                  <input type="hidden" name="tokenId" value={t.id} />
                  <button type="submit" className="button-danger" aria-label={`Revoke ${title}, created ${created}`}>
                    Revoke
                  </button>
                </form>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
