'use client';
// A plan as people see it (issue 29, section 8): what, when (in the reader's zone, and the
// buddy's local time where their clock differs), where, its status and who acted, with
// the answers that are open to the reader. The same card sits in the chat, on the home
// screen and on the plan page; it calls the same plan endpoints assistants use, so a
// person can always undo what their assistant did (decline, cancel).
import { useId, useState } from 'react';
import type { PlanRecord } from '@/lib/contract/plans';
import { PLAN_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { planWhen, zonedInstant } from '@/lib/web/plan-time';
import { fieldFailure, getJson, sendJson } from './api-client';

export const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

/** Each person's zone, so times read on each clock. */
export interface PlanZones {
  reader: string | null;
  buddy: string | null;
}

function actorText(
  verb: string,
  actor: { name: string; agent_name: string | null } | null,
  isMe: boolean,
): string | null {
  if (!actor) return null;
  const who = isMe ? 'you' : firstName(actor.name);
  return actor.agent_name ? `${verb} by ${actor.agent_name} for ${who}` : `${verb} by ${who}`;
}

export function statusText(plan: PlanRecord): string {
  const buddy = firstName(plan.buddy.displayName);
  switch (plan.status) {
    case 'proposed':
      return plan.from_me ? `Waiting for ${buddy}` : 'Waiting for your answer';
    case 'confirmed':
      return new Date(plan.ends_at).getTime() < Date.now() ? 'Done' : 'Confirmed';
    case 'superseded':
      return 'Replaced by another time';
    case 'declined':
      return 'Declined';
    case 'cancelled':
      return 'Cancelled';
    case 'expired':
      return 'Expired: nobody answered in time';
  }
}

/**
 * "Proposed by Claude for Ana · Accepted by you". Only the other person accepts or
 * declines, so those are known from who proposed; a cancel may be either, known by name.
 */
export function provenance(plan: PlanRecord, myName: string): string {
  return [
    actorText('Proposed', plan.proposed_by, plan.from_me),
    actorText('Accepted', plan.accepted_by, !plan.from_me),
    actorText('Declined', plan.declined_by, !plan.from_me),
    actorText('Cancelled', plan.cancelled_by, plan.cancelled_by?.name === myName),
  ]
    .filter(Boolean)
    .join(' · ');
}

export function PlanWhenText({ plan, zones }: { plan: PlanRecord; zones: PlanZones }) {
  const when = planWhen(plan.starts_at, plan.ends_at, zones.reader, zones.buddy, firstName(plan.buddy.displayName));
  return (
    <>
      <time dateTime={plan.starts_at}>{when.mine}</time>
      {when.theirs ? <span className="plan-theirs muted"> ({when.theirs})</span> : null}
    </>
  );
}

const open = (plan: PlanRecord) =>
  (plan.status === 'proposed' || plan.status === 'confirmed') && new Date(plan.starts_at).getTime() > Date.now();

/** A plan that will not happen (replaced, declined, cancelled, expired): one line until opened (issue 46 §7). */
const closed = (plan: PlanRecord) => plan.status !== 'proposed' && plan.status !== 'confirmed';

export function PlanCard({
  plan,
  zones,
  myName,
  onChange,
  detailsLink = true,
  headingLevel = 3,
  collapseClosed = true,
}: {
  plan: PlanRecord;
  zones: PlanZones;
  myName: string;
  onChange: (plan: PlanRecord) => void;
  detailsLink?: boolean;
  headingLevel?: 2 | 3;
  /** A closed plan as one line that opens (not on its own page, where it is the subject). */
  collapseClosed?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [countering, setCountering] = useState(false);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const canAnswer = plan.status === 'proposed' && !plan.from_me && open(plan);
  const canCancel = open(plan) && (plan.status === 'confirmed' || plan.from_me);
  const canCounter = open(plan);

  async function act(action: 'accept' | 'decline' | 'cancel') {
    setBusy(true);
    setProblem(null);
    const url = paths[`${action}Plan`]({ planId: plan.id });
    const result = await sendJson<{ plan: PlanRecord }>(
      'POST',
      url,
      action === 'cancel' ? { if_status: plan.status === 'confirmed' ? 'confirmed' : 'proposed' } : undefined,
    );
    setBusy(false);
    if (result.ok) onChange(result.data.plan);
    else setProblem(result.error.message);
  }

  const status = <span className={`plan-status plan-status-${plan.status}`}>{statusText(plan)}</span>;
  const details = detailsLink ? <a href={`/account/plans/${encodeURIComponent(plan.id)}`}>Plan details</a> : null;
  const facts = (
    <dl className="plan-facts">
      <dt>When</dt>
      <dd>
        <PlanWhenText plan={plan} zones={zones} />
      </dd>
      <dt>Where</dt>
      <dd>
        {plan.place.name}
        {plan.place.address ? <span className="muted">, {plan.place.address}</span> : null}
      </dd>
      <dt>With</dt>
      <dd>{plan.buddy.displayName}</dd>
      {plan.note ? (
        <>
          <dt>Note</dt>
          <dd className="quote">{plan.note}</dd>
        </>
      ) : null}
      {plan.cancel_reason ? (
        <>
          <dt>Reason</dt>
          <dd>{plan.cancel_reason}</dd>
        </>
      ) : null}
    </dl>
  );
  if (collapseClosed && closed(plan)) {
    // Once closed, a plan is history: a phone screen each was too much in a long chat.
    return (
      <article className={`plan-card plan-${plan.status} plan-collapsed`} aria-label={`Plan: ${plan.activity}`}>
        <details>
          <summary>
            {status} <span className="plan-activity">{plan.activity}</span>
            <span className="muted">
              {' · '}
              <PlanWhenText plan={plan} zones={zones} />
            </span>
          </summary>
          {facts}
          <p className="plan-by muted small">{provenance(plan, myName)}</p>
          {details ? <p>{details}</p> : null}
        </details>
      </article>
    );
  }

  return (
    <article className={`plan-card plan-${plan.status}`} aria-label={`Plan: ${plan.activity}`}>
      <p className="plan-kicker">{status}</p>
      <Heading className="plan-activity">{plan.activity}</Heading>
      {facts}
      <p className="plan-by muted small">{provenance(plan, myName)}</p>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      {canAnswer || canCancel || canCounter || detailsLink ? (
        <div className="actions">
          {canAnswer ? (
            <button type="button" disabled={busy} onClick={() => void act('accept')}>
              Accept
            </button>
          ) : null}
          {canCounter ? (
            <button
              type="button"
              className="button-secondary"
              disabled={busy}
              aria-expanded={countering}
              onClick={() => setCountering((shown) => !shown)}
            >
              Suggest another time
            </button>
          ) : null}
          {canAnswer ? (
            <button type="button" className="button-secondary" disabled={busy} onClick={() => void act('decline')}>
              Decline
            </button>
          ) : null}
          {canCancel ? (
            <button type="button" className="button-secondary" disabled={busy} onClick={() => void act('cancel')}>
              Cancel plan
            </button>
          ) : null}
          {details}
        </div>
      ) : null}
      {countering ? (
        <PlanForm
          chatId={plan.chatId}
          zone={zones.reader}
          replaces={plan}
          onDone={(counter) => {
            setCountering(false);
            onChange(counter);
            // The plan it replaces has changed too (a proposal is superseded at once).
            void getJson<{ plan: PlanRecord }>(paths.plan({ planId: plan.id })).then(
              (read) => onChange(read.plan),
              () => undefined,
            );
          }}
        />
      ) : null}
    </article>
  );
}

/** The date input's value for an instant in a zone ("2026-11-28"). */
function localDate(iso: string, zone: string | null): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone ?? 'UTC' }).format(new Date(iso));
}
function localClock(iso: string, zone: string | null): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone ?? 'UTC',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/**
 * Propose a plan, or (with `replaces`) suggest another time for one: a counter-proposal
 * that names the plan it replaces. With `like`, a new plan starts from an old one's
 * activity and place ("Plan again?"). The date and time are read in the person's own zone.
 */
export function PlanForm({
  chatId,
  zone,
  replaces,
  like,
  onDone,
}: {
  chatId: string;
  zone: string | null;
  replaces?: PlanRecord;
  like?: Pick<PlanRecord, 'activity' | 'place'>;
  onDone: (plan: PlanRecord) => void;
}) {
  const id = useId();
  const start = replaces ?? like;
  const [activity, setActivity] = useState(start?.activity ?? '');
  const [date, setDate] = useState(replaces ? localDate(replaces.starts_at, zone) : '');
  const [time, setTime] = useState(replaces ? localClock(replaces.starts_at, zone) : '');
  const [placeName, setPlaceName] = useState(start?.place.name ?? '');
  const [address, setAddress] = useState(start?.place.address ?? '');
  // A counter keeps what it does not change: the note, and (below) how long the plan lasts (issue 46 §7).
  const [note, setNote] = useState(replaces?.note ?? '');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: { preventDefault(): void }) {
    event.preventDefault();
    const startsAt = zonedInstant(date, time, zone);
    if (!startsAt) {
      setProblem('Choose a date and a time.');
      return;
    }
    setBusy(true);
    setProblem(null);
    const lasts = replaces ? Date.parse(replaces.ends_at) - Date.parse(replaces.starts_at) : null;
    const result = await sendJson<{ plan: PlanRecord }>('POST', paths.chatPlans({ chatId }), {
      activity,
      starts_at: startsAt,
      ...(lasts ? { ends_at: new Date(Date.parse(startsAt) + lasts).toISOString() } : {}),
      place: { name: placeName, address: address.trim() === '' ? null : address },
      note: note.trim() === '' ? null : note,
      ...(replaces ? { replaces: replaces.id } : {}),
    });
    setBusy(false);
    if (!result.ok) {
      setProblem(
        result.error.code === 'validation_failed' ? fieldFailure(result.error, 'starts_at') : result.error.message,
      );
      return;
    }
    onDone(result.data.plan);
  }

  const f = (name: string) => `${id}-${name}`;
  return (
    <form className="plan-form stack" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={f('activity')}>Activity</label>
        <input
          id={f('activity')}
          type="text"
          required
          maxLength={PLAN_LIMITS.activity}
          value={activity}
          onChange={(e) => setActivity(e.target.value)}
        />
      </div>
      <div className="plan-form-when">
        <div className="field">
          <label htmlFor={f('date')}>Date</label>
          <input id={f('date')} type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={f('time')}>Time</label>
          <input id={f('time')} type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={f('place')}>Place</label>
        <p className="help" id={f('place-help')}>
          A public place is best for a first meeting.
        </p>
        <input
          id={f('place')}
          type="text"
          required
          aria-describedby={f('place-help')}
          maxLength={PLAN_LIMITS.placeName}
          value={placeName}
          onChange={(e) => setPlaceName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={f('address')}>Address (optional)</label>
        <input
          id={f('address')}
          type="text"
          maxLength={PLAN_LIMITS.placeAddress}
          value={address}
          onChange={(e) => setAddress(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={f('note')}>Note (optional)</label>
        <textarea
          id={f('note')}
          rows={2}
          maxLength={PLAN_LIMITS.note}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={busy}>
          {replaces ? 'Suggest this time' : 'Propose plan'}
        </button>
      </div>
    </form>
  );
}
