'use client';

// Under a chat's ⋯ menu: its notifications on or off. Its own module, so a chat thread does
// not ship the notification settings (notifications.tsx, with its iPhone pictures).
import { useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

/** Mute or unmute one chat's notifications (every device: the app and each browser). */
export function MuteChat({ chatId, initiallyMuted }: { chatId: string; initiallyMuted: boolean }) {
  const [muted, setMuted] = useState(initiallyMuted);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function toggle() {
    setBusy(true);
    setProblem(null);
    const result = await sendJson<{ muted: boolean }>('POST', paths.mute({ chatId }), { muted: !muted });
    if (result.ok) setMuted(result.data.muted);
    else setProblem(result.error.message);
    setBusy(false);
  }

  return (
    <p className="actions small">
      <span className="muted">
        {muted ? 'Notifications for this chat are off.' : 'You get notifications for this chat.'}
      </span>
      <button
        type="button"
        className="button-secondary"
        onClick={() => void toggle()}
        disabled={busy}
        aria-pressed={muted}
      >
        {muted ? 'Unmute' : 'Mute notifications'}
      </button>
      {problem ? <span role="alert">{problem}</span> : null}
    </p>
  );
}
