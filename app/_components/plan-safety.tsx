'use client';
// The plan page's safety net (issue 29 §6): "Share with a friend" makes a read-only page
// of the plan for a trusted contact (its link is shown once: only its hash is kept), and
// "Check in" asks "All good?" after the start, mailing that contact if nobody answers.
// "I'm fine" stops it at any time. The meetup page (issue 45) has the same control, for
// whoever holds a seat in the meetup: ShareSafety with the meetup's endpoints.
import { useId, useState } from 'react';
import { paths } from '@/lib/contract/paths';
import type { ShareState } from '@/lib/contract/web-app';
import { fieldFailure, sendJson } from './api-client';

function when(iso: string | null, zone: string | null): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone ?? 'UTC',
  }).format(new Date(iso));
}

interface SafetyProps {
  initial: ShareState;
  zone: string | null;
  mailDelivered: boolean;
  answerMinutes: number;
  /** It can still be shared (a plan proposed or confirmed, a meetup not cancelled; not over). */
  open: boolean;
}

export function PlanSafety({ planId, buddyName, ...props }: SafetyProps & { planId: string; buddyName: string }) {
  return (
    <ShareSafety
      {...props}
      what="plan"
      shown={`what, when, where and with ${buddyName}`}
      shareUrl={paths.planShare({ planId })}
      checkinUrl={paths.planCheckin({ planId })}
    />
  );
}

/** One's share of a meetup one holds a seat in. */
export function MeetupSafety({ meetupId, ...props }: SafetyProps & { meetupId: string }) {
  return (
    <ShareSafety
      {...props}
      what="meetup"
      shown="what, when, where, who hosts and how many go"
      shareUrl={paths.meetupShare({ meetupId })}
      checkinUrl={paths.meetupCheckin({ meetupId })}
    />
  );
}

/** Not shared (yet): what the control starts from for someone who had no seat when the page was made. */
export const NOT_SHARED: ShareState = {
  success: true,
  shared: false,
  url: null,
  created_at: null,
  expires_at: null,
  contact_email: null,
  checkin: { on: false, asks_at: null, asked_at: null, fine_at: null, contact_mailed: false },
};

function ShareSafety({
  what,
  shown,
  shareUrl,
  checkinUrl,
  initial,
  zone,
  mailDelivered,
  answerMinutes,
  open,
}: SafetyProps & {
  what: 'plan' | 'meetup';
  /** What the friend reads on the page. */
  shown: string;
  shareUrl: string;
  checkinUrl: string;
}) {
  const [state, setState] = useState(initial);
  const [contact, setContact] = useState(initial.contact_email ?? '');
  const [checkin, setCheckin] = useState(mailDelivered);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [contactError, setContactError] = useState<string | null>(null);
  const ids = { contact: useId(), link: useId(), contactHelp: useId() };

  async function act(method: 'POST' | 'DELETE', url: string, body: unknown, done?: string) {
    setBusy(true);
    setNote(null);
    setContactError(null);
    const result = await sendJson<ShareState>(method, url, body);
    setBusy(false);
    if (result.ok) {
      setState(result.data);
      if (done) setNote(done);
    } else if (result.error.code === 'validation_failed' && result.error.fields?.contact_email) {
      setContactError(fieldFailure(result.error, 'contact_email'));
    } else {
      setNote(result.error.message);
    }
  }

  const share = () =>
    act('POST', shareUrl, {
      contact_email: contact.trim() || null,
      checkin: checkin && contact.trim() !== '',
    });

  async function copy() {
    if (!state.url) return;
    try {
      await navigator.clipboard.writeText(state.url);
      setNote('Copied. Send it to your friend.');
    } catch {
      setNote('Select the link and copy it.');
    }
  }

  const c = state.checkin;
  const waiting = state.shared && c.on && !c.fine_at;
  const fineButton = (
    <button type="button" onClick={() => void act('POST', checkinUrl, { fine: true })} disabled={busy}>
      I’m fine
    </button>
  );
  return (
    <section className="card stack" aria-labelledby="safety-heading">
      <h2 id="safety-heading">Share with a friend</h2>
      {waiting && c.asked_at ? (
        <div className="notice stack" role="alert">
          <p>
            <strong>All good?</strong> Tell us you’re fine, or we mail your friend this {what}’s page
            {c.contact_mailed ? ' (we already did)' : ''}.
          </p>
          <p>{fineButton}</p>
        </div>
      ) : null}
      {state.shared ? (
        <>
          <p>
            A friend can read {shown} on a private page until {when(state.expires_at, zone)}
            {state.contact_email ? `; your trusted contact is ${state.contact_email}` : ''}.
          </p>
          {state.url ? (
            <div className="field">
              <label htmlFor={ids.link}>Link for your friend (shown once)</label>
              <div className="copy-row">
                <input id={ids.link} readOnly value={state.url} onFocus={(e) => e.currentTarget.select()} />
                <button type="button" onClick={() => void copy()}>
                  Copy link
                </button>
              </div>
            </div>
          ) : null}
          {c.fine_at ? (
            <p className="muted">You said you’re fine: check-in is done.</p>
          ) : c.on ? (
            <p>
              Check-in is on: at {when(c.asks_at, zone)} we ask “All good?”. With no answer within {answerMinutes}{' '}
              minutes we mail your friend the link, once.
            </p>
          ) : !state.contact_email && mailDelivered && open ? (
            <p className="muted">For check-in, turn the link off and share again with your friend’s email.</p>
          ) : null}
          <p className="actions">
            {waiting && !c.asked_at ? fineButton : null}
            {!c.on && !c.fine_at && state.contact_email && mailDelivered && open ? (
              <button type="button" onClick={() => void act('POST', checkinUrl, { on: true })} disabled={busy}>
                Check in
              </button>
            ) : null}
            {open ? (
              <button
                type="button"
                className="button-secondary"
                onClick={() =>
                  void act('POST', shareUrl, {
                    contact_email: state.contact_email,
                    checkin: state.checkin.on,
                  })
                }
                disabled={busy}
              >
                New link
              </button>
            ) : null}
            <button
              type="button"
              className="button-secondary"
              onClick={() => void act('DELETE', shareUrl, {}, 'The link is off.')}
              disabled={busy}
            >
              Turn link off
            </button>
          </p>
        </>
      ) : open ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void share();
          }}
        >
          <p>
            Meeting someone new? Send a friend a private page with {shown}. It stops working 24 hours after the {what}{' '}
            ends, and you can turn it off.
          </p>
          <div className="field">
            <label htmlFor={ids.contact}>Your friend’s email (for check-in, optional)</label>
            <input
              id={ids.contact}
              type="email"
              autoComplete="email"
              value={contact}
              onChange={(e) => setContact(e.target.value)}
              aria-describedby={contactError ? ids.contactHelp : undefined}
              aria-invalid={contactError ? true : undefined}
            />
            {contactError ? (
              <p id={ids.contactHelp} className="error">
                {contactError}
              </p>
            ) : null}
          </div>
          {mailDelivered ? (
            <label className="checkbox">
              <input type="checkbox" checked={checkin} onChange={(e) => setCheckin(e.currentTarget.checked)} /> Check
              in: after the start we ask “All good?”; with no answer within {answerMinutes} minutes we mail your friend
              the link
            </label>
          ) : (
            <p className="muted">Check-in needs mail, which this server does not send.</p>
          )}
          <p>
            <button type="submit" disabled={busy} aria-busy={busy}>
              Share with a friend
            </button>
          </p>
        </form>
      ) : (
        <p className="muted">This {what} can no longer be shared.</p>
      )}
      {note ? (
        <p className="notice" role="status">
          {note}
        </p>
      ) : null}
    </section>
  );
}
