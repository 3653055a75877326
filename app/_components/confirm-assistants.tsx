// The first-sign-in question on /account/agents (Connected assistants): which assistants hold a token, and does
// the person want each to keep it? Plain forms posting server actions (no script needed).
import type { AccessTokenRecord } from '@/lib/accounts/tokens';
import { formatDateTime } from '@/lib/web/labels';
import { TokenFacts, tokenTitle } from './token-facts';

type Action = (formData: FormData) => Promise<void>;

export function ConfirmAssistants({
  tokens,
  keep,
  revoke,
}: {
  tokens: AccessTokenRecord[];
  keep: Action;
  revoke: Action;
}) {
  return (
    <section className="card stack" aria-labelledby="confirm-assistants-heading">
      <h2 id="confirm-assistants-heading">Do you know these assistants?</h2>
      <p>
        {tokens.length === 1 ? 'This assistant holds' : `These ${tokens.length} assistants hold`} an access token that
        lets it act as you: read your chats, send messages and edit your profile. Keep the ones you use. Revoke any you
        don’t recognise: someone may have signed up with your email address before you did.
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
              <TokenFacts token={t} />
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
