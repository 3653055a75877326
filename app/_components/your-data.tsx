'use client';

// "Your data" on /account/settings (issue 31): download everything (GDPR Art. 20) and
// delete the account (Art. 17), through the same endpoints the API offers
// (export_my_data, delete_my_account). Deleting takes two steps: open, then confirm with
// the password, or with nothing when the person signed in within the last 10 minutes.
import { useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

export function YourData({ freshSignin }: { freshSignin: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function deleteAccount(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    const result = await sendJson('DELETE', paths.me(), password ? { password } : {});
    if (!result.ok) {
      setBusy(false);
      setError(result.error.message);
      return;
    }
    // The session is gone with the account; a full load shows the signed-out page.
    window.location.assign('/signin?deleted=1');
  }

  return (
    <section className="card stack" aria-labelledby="your-data-heading">
      <h2 id="your-data-heading">Your data</h2>
      <p>
        <a href={paths.exportData()} download className="button-secondary">
          Download my data
        </a>
      </p>
      <p className="small muted">
        One file with your profile, photos, requests, chats, plans and what your assistants did.
      </p>
      {!confirming ? (
        <p>
          <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
            Delete my account
          </button>
        </p>
      ) : (
        <form className="stack" onSubmit={(e) => void deleteAccount(e)} aria-label="Delete my account">
          <p>
            This deletes your profile, photos, requests and assistant connections for good, and signs you out
            everywhere. People you chatted with keep the conversation, from “a deleted member”. Your email can be used
            to sign up again.
          </p>
          <label>
            {freshSignin ? 'Password (not needed: you signed in just now)' : 'Your password, to confirm'}
            <input
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required={!freshSignin}
            />
          </label>
          {freshSignin ? null : (
            <p className="small muted">No password? Sign out, sign in again with an emailed link, then delete here.</p>
          )}
          <div className="actions">
            <button type="submit" className="button-danger" disabled={busy}>
              Delete my account for good
            </button>
            <button type="button" className="button-secondary" onClick={() => setConfirming(false)} disabled={busy}>
              Keep my account
            </button>
          </div>
          <p className="small" role="alert">
            {error}
          </p>
        </form>
      )}
    </section>
  );
}
