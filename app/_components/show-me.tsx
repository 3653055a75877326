'use client';

// "Yes, show me to people nearby" (issue 41 §2): with REQUIRE_PERSON_CONSENT on, a profile an
// assistant made stays out of sight until its person presses this, signed in on the web. The
// button calls the web app's own endpoint with the session; no assistant's token can.
import { useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { SHOW_ME_BUTTON } from '@/lib/profiles/onboarding';
import { sendJson } from './api-client';

export function ShowMe({ complete }: { complete: boolean }) {
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  const [error, setError] = useState('');

  async function show() {
    setBusy(true);
    setError('');
    const result = await sendJson('POST', paths.showMe());
    setBusy(false);
    if (!result.ok) {
      setError(`Not changed: ${result.error.message}`);
      return;
    }
    // The answer stays on screen: nothing else on the page changes with it.
    setShown(true);
  }

  if (shown)
    return (
      <p className="notice notice-ok" role="status">
        {complete
          ? 'Done: people nearby can now find you in Discover and see your profile page.'
          : 'Done: once your profile is complete, people nearby will find you in Discover.'}
      </p>
    );
  return (
    <section className="notice notice-warn stack" id="show-me" aria-labelledby="show-me-heading">
      <h2 id="show-me-heading">Nobody can see your profile yet</h2>
      <p>
        An assistant made this profile for you. Until you say so, it is not in Discover, your profile page shows
        nothing, and nobody can ask you to be buddies. If that’s all right with you:
      </p>
      <p>
        <button type="button" className="button" onClick={() => void show()} disabled={busy}>
          {busy ? 'One moment…' : SHOW_ME_BUTTON}
        </button>
      </p>
      <p className="muted">
        Didn’t ask for this account? Use “This wasn’t me” in the email we sent you: the account stops and its photo and
        profile are taken down.
      </p>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
