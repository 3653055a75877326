'use client';
// One meetup, live (issue 45): what, when on the reader's clock, where (the address once in),
// the seats left or one's place on the waitlist, the faces of those going, and the one action
// that fits, in a bar at the bottom where a thumb reaches it on a phone. The page reads the
// meetup again every few seconds while it is open (SWR pauses in a hidden tab), so a seat that
// frees up shows without a reload. The host also answers joins, cancels, and takes attendance.
// Whoever holds a seat may share the meetup with a friend, with check-in (./plan-safety.tsx).
import { useState } from 'react';
import useSWR from 'swr';
import type { MeetupRecord } from '@/lib/contract/meetups';
import { paths } from '@/lib/contract/paths';
import type { ShareState } from '@/lib/contract/web-app';
import { getJson, sendJson } from './api-client';
import { Avatar } from './avatar';
import { activityTitle, meetupWhen, placeText, seatsText } from './meetup-views';
import { MeetupSafety, NOT_SHARED } from './plan-safety';

const POLL_MS = 4_000;

type Answer = { meetup: MeetupRecord };

export function MeetupPage({
  initial,
  zone,
  names,
  safety,
}: {
  initial: MeetupRecord;
  zone: string | null;
  names: Readonly<Record<string, string>>;
  /** The person's share of it (null when they held no seat as the page was made), and the check-in settings. */
  safety: { share: ShareState | null; mailDelivered: boolean; answerMinutes: number };
}) {
  const [meetup, setMeetup] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const id = meetup.id;
  useSWR<Answer>(meetup.status === 'cancelled' ? null : paths.meetup({ meetupId: id }), getJson, {
    refreshInterval: POLL_MS,
    dedupingInterval: 0,
    onSuccess: (answer) => setMeetup(answer.meetup),
  });

  async function act(url: string, body: unknown = {}) {
    setBusy(true);
    setProblem(null);
    const result = await sendJson<Answer>('POST', url, body);
    setBusy(false);
    if (result.ok) setMeetup(result.data.meetup);
    else setProblem(result.error.message);
  }

  const { me } = meetup;
  const open = meetup.status === 'upcoming';
  const title = activityTitle(meetup.activity, names);
  const inside = me.role === 'host' || me.role === 'confirmed';
  // Shared with a friend until it ends (under way included), as a plan is.
  const shareable = meetup.status === 'upcoming' || meetup.status === 'under_way';
  const mine = placeText(meetup, zone);

  let action: { label: string; url: string; secondary?: boolean } | null = null;
  let second: { label: string; url: string } | null = null;
  if (open) {
    if (me.role === 'none' || me.role === 'left' || me.role === 'missed')
      action = {
        label: meetup.join === 'approval' ? 'Ask to join' : meetup.seats_left > 0 ? 'Join' : 'Join the waitlist',
        url: paths.joinMeetup({ meetupId: id }),
      };
    else if (me.role === 'offered') {
      action = { label: 'Take the seat', url: paths.joinMeetup({ meetupId: id }) };
      second = { label: 'No thanks', url: paths.leaveMeetup({ meetupId: id }) };
    } else if (me.role === 'confirmed' || me.role === 'waitlisted' || me.role === 'pending')
      action = {
        label: me.role === 'confirmed' ? 'Leave' : me.role === 'waitlisted' ? 'Leave the waitlist' : 'Withdraw request',
        url: paths.leaveMeetup({ meetupId: id }),
        secondary: true,
      };
  }

  const confirmed = meetup.people.filter((p) => p.status === 'confirmed');
  const waiting = meetup.people.filter((p) => p.status !== 'confirmed');
  return (
    <>
      <p>
        <a href="/account/meetups">‹ Meetups</a>
      </p>
      <h1>{title}</h1>
      <div className="card meetup-detail">
        <p className="meetup-when">{meetupWhen(meetup, zone)}</p>
        <p>
          {meetup.place.name}
          {meetup.place.address ? `, ${meetup.place.address}` : null}
          {meetup.place.area ? <span className="muted"> · {meetup.place.area}</span> : null}
        </p>
        {inside ? null : <p className="muted small">The address is shown to the people going.</p>}
        <div className="person">
          <Avatar name={meetup.host.first_name} photoURL={meetup.host.photoURL} size="small" />
          <div className="person-text">
            <p>Hosted by {me.role === 'host' ? 'you' : meetup.host.first_name}</p>
          </div>
        </div>
        {meetup.note ? <p>{meetup.note}</p> : null}
        <p className="meetup-seats" data-testid="meetup-seats">
          {meetup.status === 'cancelled' ? 'Cancelled' : seatsText(meetup)}
          {meetup.join === 'approval' && open ? ' · the host approves each person' : null}
        </p>
        {mine ? (
          <p className="meetup-place" role="status" data-testid="meetup-place">
            {mine}
          </p>
        ) : null}
        {meetup.cancel_reason ? <p>“{meetup.cancel_reason}”</p> : null}
      </div>

      {inside ? (
        <section className="card" aria-labelledby="going">
          <h2 id="going">Going</h2>
          <ul className="meetup-faces">
            <li>
              <Avatar name={meetup.host.first_name} photoURL={meetup.host.photoURL} size="small" />
              <span>{meetup.host.first_name} (host)</span>
            </li>
            {confirmed.map((p) => (
              <li key={p.id}>
                <Avatar name={p.first_name} photoURL={p.photoURL} size="small" />
                <span>{p.first_name}</span>
              </li>
            ))}
          </ul>
          <p className="meetup-links">
            {meetup.chatId ? (
              <a className="button" href={`/account/meetups/${encodeURIComponent(id)}/chat`}>
                Group chat
              </a>
            ) : null}{' '}
            {open ? (
              <a
                className="button button-secondary"
                href={paths.meetupCalendar({ meetupId: id })}
                download="meetup.ics"
              >
                Add to calendar
              </a>
            ) : null}
          </p>
        </section>
      ) : null}

      {inside && (shareable || safety.share?.shared) ? (
        <MeetupSafety
          meetupId={id}
          initial={safety.share ?? NOT_SHARED}
          zone={zone}
          mailDelivered={safety.mailDelivered}
          answerMinutes={safety.answerMinutes}
          open={shareable}
        />
      ) : null}

      {me.role === 'host' ? <HostTools meetup={meetup} waiting={waiting} busy={busy} act={act} /> : null}

      {problem ? (
        <div className="notice notice-error" role="alert">
          <p>{problem}</p>
        </div>
      ) : null}

      {action ? (
        <div className="meetup-action">
          <button
            type="button"
            className={action.secondary ? 'button-secondary button-big' : 'button-big'}
            disabled={busy}
            onClick={() => void act(action.url)}
          >
            {action.label}
          </button>
          {second ? (
            <button
              type="button"
              className="button-secondary button-big"
              disabled={busy}
              onClick={() => void act(second.url)}
            >
              {second.label}
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function HostTools({
  meetup,
  waiting,
  busy,
  act,
}: {
  meetup: MeetupRecord;
  waiting: MeetupRecord['people'];
  busy: boolean;
  act: (url: string, body?: unknown) => Promise<void>;
}) {
  const id = meetup.id;
  const [noShow, setNoShow] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const pending = waiting.filter((p) => p.status === 'pending');
  const queued = waiting.filter((p) => p.status !== 'pending');
  const confirmed = meetup.people.filter((p) => p.status === 'confirmed');
  return (
    <>
      {pending.length > 0 ? (
        <section className="card" aria-labelledby="asking">
          <h2 id="asking">Asking to join</h2>
          <ul className="meetup-faces">
            {pending.map((p) => (
              <li key={p.id}>
                <Avatar name={p.first_name} photoURL={p.photoURL} size="small" />
                <span>{p.first_name}</span>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => void act(paths.approveMeetupJoin({ meetupId: id }), { user_id: p.id })}
                >
                  Approve {p.first_name}
                </button>
                <button
                  type="button"
                  className="button-secondary"
                  disabled={busy}
                  onClick={() => void act(paths.declineMeetupJoin({ meetupId: id }), { user_id: p.id })}
                >
                  Decline
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {queued.length > 0 ? (
        <section className="card" aria-labelledby="waiting">
          <h2 id="waiting">Waiting for a seat</h2>
          <ol className="meetup-faces">
            {queued.map((p) => (
              <li key={p.id}>
                <Avatar name={p.first_name} photoURL={p.photoURL} size="small" />
                <span>
                  {p.first_name}
                  {p.status === 'offered' ? ' (a seat is held for them)' : null}
                </span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {meetup.status === 'over' && confirmed.length > 0 ? (
        <form
          className="card stack"
          aria-labelledby="attendance"
          onSubmit={(event) => {
            event.preventDefault();
            void act(paths.meetupAttendance({ meetupId: id }), { no_show: [...noShow] });
          }}
        >
          <h2 id="attendance">Who didn’t come?</h2>
          <p className="muted small">
            Private: only repeated no-shows, seen by different people, count against anyone.
          </p>
          {confirmed.map((p) => (
            <label key={p.id} className="checkbox">
              <input
                type="checkbox"
                checked={noShow.has(p.id)}
                onChange={(event) =>
                  setNoShow((known) => {
                    const next = new Set(known);
                    if (event.target.checked) next.add(p.id);
                    else next.delete(p.id);
                    return next;
                  })
                }
              />{' '}
              {p.first_name} didn’t come
            </label>
          ))}
          <p>
            <button type="submit" disabled={busy}>
              Save attendance
            </button>
          </p>
        </form>
      ) : null}
      {meetup.status === 'upcoming' ? (
        <section className="card" aria-labelledby="host-cancel">
          <h2 id="host-cancel">Can’t make it?</h2>
          {confirming ? (
            <p>
              <button
                type="button"
                className="button-danger"
                disabled={busy}
                onClick={() => void act(paths.cancelMeetup({ meetupId: id }), {})}
              >
                Yes, cancel the meetup
              </button>{' '}
              <button type="button" className="button-secondary" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </p>
          ) : (
            <p>
              <button type="button" className="button-secondary" onClick={() => setConfirming(true)}>
                Cancel meetup
              </button>
            </p>
          )}
        </section>
      ) : null}
    </>
  );
}
