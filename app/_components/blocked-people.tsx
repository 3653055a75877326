'use client';

// "Blocked people" on /account/settings (issue 31): who the person blocked, and Unblock for
// each, through the same DELETE the agents' API offers (unblock_user).
import { useState } from 'react';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

export interface BlockedPerson {
  slug: string;
  displayName: string;
  location: string | null;
}

export function BlockedPeople({ initial }: { initial: BlockedPerson[] }) {
  const [people, setPeople] = useState(initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  async function unblock(person: BlockedPerson) {
    setBusy(person.slug);
    setStatus('');
    const result = await sendJson('DELETE', paths.block({ slug: person.slug }));
    setBusy(null);
    if (!result.ok) {
      setStatus(`Not unblocked: ${result.error.message}`);
      return;
    }
    setPeople((all) => all.filter((p) => p.slug !== person.slug));
    setStatus(`${person.displayName} is unblocked. They can find you and ask you again.`);
  }

  return (
    <section className="card stack" aria-labelledby="blocked-heading">
      <h2 id="blocked-heading">Blocked people</h2>
      {people.length === 0 ? (
        <p className="muted">You haven’t blocked anyone.</p>
      ) : (
        <ul className="token-list" aria-label="People you blocked">
          {people.map((person) => (
            <li key={person.slug} className="actions">
              <span>
                {person.displayName}
                {person.location ? <span className="muted"> · {person.location}</span> : null}
              </span>
              <button
                type="button"
                className="button-secondary"
                disabled={busy === person.slug}
                onClick={() => void unblock(person)}
                aria-label={`Unblock ${person.displayName}`}
              >
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="small" role="status">
        {status}
      </p>
    </section>
  );
}
