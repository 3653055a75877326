// A signup this browser already finished: say so rather than offer to create the account again.
import type { Dispatch, SetStateAction } from 'react';
import type { SignupDraft } from '@/lib/signup-link';
import type { View } from './use-signup';

export function AlreadyCreated({
  email,
  at,
  draft,
  setDraft,
  setView,
}: {
  email: string;
  at: string;
  draft: SignupDraft;
  setDraft: Dispatch<SetStateAction<SignupDraft>>;
  setView: (view: View) => void;
}) {
  return (
    <section className="card stack" aria-labelledby="already-heading">
      <div className="notice notice-ok">
        <h2 id="already-heading">Your account already exists</h2>
        <p>
          An account for <strong>{email}</strong> was created from this browser on {new Date(at).toLocaleString()}. Use
          the sign-in link from that page or from your email to open the app. It is not created twice.
        </p>
      </div>
      <div className="actions">
        <button
          type="button"
          className="button-secondary"
          onClick={() => {
            setDraft({ ...draft, email: '' });
            setView({ name: 'edit' });
          }}
        >
          Sign up with a different email
        </button>
      </div>
    </section>
  );
}
