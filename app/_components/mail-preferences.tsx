'use client';

// "Mail" on /account/settings: optional mail on or off (one model with check-ins and digests).
import { useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

type Prefs = { reminders: boolean; checkins: boolean; digests: boolean };

const LABELS: Record<keyof Prefs, string> = {
  reminders: 'Plan reminders (a day and two hours before)',
  checkins: 'Check-ins after a meeting',
  digests: 'Digests of what you missed',
};

export function MailPreferences({ initial }: { initial: Prefs }) {
  const [prefs, setPrefs] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);

  async function toggle(kind: keyof Prefs, on: boolean) {
    setProblem(null);
    const result = await sendJson<Prefs>('PATCH', paths.mailPreferences(), { [kind]: on });
    if (result.ok) setPrefs(result.data);
    else setProblem(result.error.message);
  }

  return (
    <section className="card stack" aria-labelledby="mail-heading">
      <h2 id="mail-heading">Mail</h2>
      {(Object.keys(LABELS) as (keyof Prefs)[]).map((kind) => (
        <label key={kind} className="checkbox">
          <input type="checkbox" checked={prefs[kind]} onChange={(e) => void toggle(kind, e.currentTarget.checked)} />{' '}
          {LABELS[kind]}
        </label>
      ))}
      {problem ? (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
