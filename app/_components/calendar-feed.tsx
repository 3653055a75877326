'use client';

// "Add to calendar" on /account/settings: the private webcal:// feed of your plans, with
// Copy, Rotate (a new URL; the old one stops) and Turn off. Its secret is stored hashed,
// so the URL is shown only right after it is made.
import { useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

interface FeedState {
  on: boolean;
  webcal_url: string | null;
}

export function CalendarFeed({ initiallyOn }: { initiallyOn: boolean }) {
  const [state, setState] = useState<FeedState>({ on: initiallyOn, webcal_url: null });
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  async function change(method: 'POST' | 'DELETE') {
    setBusy(true);
    setNote(null);
    const result = await sendJson<FeedState>(method, paths.calendarFeed(), {});
    setBusy(false);
    if (result.ok) setState(result.data);
    else setNote(result.error.message);
  }

  async function copy() {
    if (!state.webcal_url) return;
    try {
      await navigator.clipboard.writeText(state.webcal_url);
      setNote('Copied. Paste it into your calendar app as a subscription.');
    } catch {
      setNote('Select the address and copy it.');
    }
  }

  return (
    <section className="card stack" aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Add to calendar</h2>
      <p>
        {state.on
          ? 'Your calendar app follows your confirmed plans through a private address.'
          : 'Subscribe your calendar app to your confirmed plans. Anyone with the address can read them.'}
      </p>
      {state.webcal_url ? (
        <p>
          <label htmlFor="calendar-url">Your calendar address (shown once)</label>
          <input id="calendar-url" readOnly value={state.webcal_url} onFocus={(e) => e.currentTarget.select()} />
        </p>
      ) : state.on ? (
        <p className="muted">Lost the address? Get a new one: the old one stops working.</p>
      ) : null}
      {note ? (
        <p className="notice" role="status">
          {note}
        </p>
      ) : null}
      <p className="actions">
        {state.webcal_url ? (
          <>
            <a className="button" href={state.webcal_url}>
              Open in calendar
            </a>
            <button type="button" className="button-secondary" onClick={() => void copy()}>
              Copy
            </button>
          </>
        ) : null}
        <button type="button" onClick={() => void change('POST')} disabled={busy} aria-busy={busy}>
          {state.on ? 'Rotate address' : 'Turn on calendar feed'}
        </button>
        {state.on ? (
          <button type="button" className="button-secondary" onClick={() => void change('DELETE')} disabled={busy}>
            Turn off
          </button>
        ) : null}
      </p>
    </section>
  );
}
