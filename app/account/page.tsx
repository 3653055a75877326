import type { Metadata } from 'next';
import { getDb } from '@/db';
import { listTokensToConfirm } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { loadVapidKeys } from '@/lib/notifications/web-push';
import { NotificationsOptIn } from '../_components/notifications';
import { DISCOVER_FIELDS, missingFields } from '@/lib/profiles/onboarding';
import { CHECKLIST_LABELS } from '@/lib/web/labels';

export const metadata: Metadata = { title: 'Your account' };

export default async function AccountPage() {
  const { user } = await requireSession('/account');
  const missing = new Set(missingFields(user));
  const done = DISCOVER_FIELDS.length - missing.size;
  const toConfirm = (await listTokensToConfirm(getDb(), user.id)).length;
  const vapid = await loadVapidKeys(getDb(), config().vapid, config().publicBaseUrl);

  return (
    <>
      <h1>Hi, {user.display_name}</h1>
      {toConfirm > 0 ? (
        // Where a person lands after signing in: the first thing to settle is who else holds access.
        <section className="notice notice-warn" aria-labelledby="confirm-agents-heading">
          <h2 id="confirm-agents-heading">Check who can act for you</h2>
          <p>
            {toConfirm === 1 ? 'An assistant holds' : `${toConfirm} assistants hold`} access to your account. Confirm you know{' '}
            {toConfirm === 1 ? 'it' : 'each of them'}, or revoke access you didn’t give.
          </p>
          <p>
            <a className="button" href="/account/agents">
              Review your assistants
            </a>
          </p>
        </section>
      ) : null}
      <section className="card" aria-labelledby="onboarding-heading">
        <h2 id="onboarding-heading">Your profile</h2>
        {missing.size === 0 ? (
          <div className="notice notice-ok">
            <p>Your profile is complete and visible in Discover.</p>
          </div>
        ) : (
          <p>
            {done} of {DISCOVER_FIELDS.length} done. To appear in Discover, add what’s still missing:
          </p>
        )}
        <ul className="checklist" aria-label="Onboarding checklist">
          {DISCOVER_FIELDS.map((field) => {
            const isDone = !missing.has(field);
            return (
              <li key={field} className={isDone ? 'done' : 'todo'}>
                <span className="mark" aria-hidden="true">
                  {isDone ? '✓' : '!'}
                </span>
                <span>
                  <strong>{CHECKLIST_LABELS[field].label}</strong> <span className="visually-hidden">{isDone ? '(done)' : '(missing)'}</span>
                  {isDone ? null : <span className="muted"> — {CHECKLIST_LABELS[field].help}</span>}
                </span>
              </li>
            );
          })}
        </ul>
        <p className="actions">
          <a className="button" href="/account/profile">
            {missing.size === 0 ? 'Edit your profile' : 'Complete your profile'}
          </a>
          <a href={`/u/${encodeURIComponent(user.slug)}`}>See your public profile</a>
        </p>
      </section>
      <section className="card" aria-labelledby="agents-heading">
        <h2 id="agents-heading">Your agents</h2>
        <p>
          See <a href="/account/agents">which agents acted for you</a> and <a href="/account/tokens">the access they hold</a>; revoke any you no
          longer trust.
        </p>
      </section>
      <NotificationsOptIn publicKey={vapid.publicKey} />
    </>
  );
}
