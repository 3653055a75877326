'use client';
// Host a meetup (issue 45): what, when (a date and times on the person's own clock, sent without
// an offset so the server reads them in their zone), where, how many, open or by approval, and
// whether it repeats weekly. The server's refusals are shown under the field they name.
import { useState, type FormEvent, type ReactNode } from 'react';
import type { MeetupRecord } from '@/lib/contract/meetups';
import { MEETUP_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';

type Fields = Record<string, string>;

export function MeetupForm({ defaultDate }: { defaultDate: string }) {
  const [errors, setErrors] = useState<Fields>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const date = text('date');
    const weeks = Number(text('weeks') || '1');
    const body = {
      activity: text('activity'),
      starts_at: `${date}T${text('start')}`,
      ends_at: text('end') ? `${date}T${text('end')}` : undefined,
      place: { name: text('place'), address: text('address') || undefined },
      capacity: Number(text('capacity')),
      join: form.get('join') === 'approval' ? 'approval' : 'open',
      note: text('note') || undefined,
      repeat_weekly: weeks > 1 ? weeks : undefined,
    };
    setBusy(true);
    setErrors({});
    setProblem(null);
    const result = await sendJson<{ meetup: MeetupRecord }>('POST', paths.meetups(), body);
    if (result.ok) {
      window.location.assign(`/account/meetups/${encodeURIComponent(result.data.meetup.id)}`);
      return;
    }
    setBusy(false);
    setErrors(result.error.fields ?? {});
    setProblem(result.error.message);
  }

  const err = (...names: string[]) => names.map((n) => errors[n]).find(Boolean);
  const field = (id: string, label: string, input: ReactNode, error?: string, help?: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {input}
      {help ? <p className="help">{help}</p> : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
  return (
    <form className="card stack meetup-form" onSubmit={(event) => void submit(event)} noValidate>
      {field(
        'activity',
        'Activity',
        <input id="activity" name="activity" required maxLength={100} placeholder="Bouldering" />,
        err('activity'),
      )}
      {field(
        'date',
        'Date',
        <input id="date" name="date" type="date" required defaultValue={defaultDate} />,
        err('starts_at'),
      )}
      <div className="actions">
        {field('start', 'Starts', <input id="start" name="start" type="time" required defaultValue="19:00" />)}
        {field('end', 'Ends (optional)', <input id="end" name="end" type="time" />, err('ends_at'))}
      </div>
      {field(
        'place',
        'Place',
        <input id="place" name="place" required maxLength={MEETUP_LIMITS.placeName} />,
        err('place.name', 'place'),
        'A public place: a gym, a café, a trailhead.',
      )}
      {field(
        'address',
        'Address (optional)',
        <input id="address" name="address" maxLength={MEETUP_LIMITS.placeAddress} />,
        err('place.address'),
        'Shown only to the people going.',
      )}
      {field(
        'capacity',
        'People, you included',
        <input
          id="capacity"
          name="capacity"
          type="number"
          inputMode="numeric"
          min={MEETUP_LIMITS.capacityMin}
          max={MEETUP_LIMITS.capacityMax}
          defaultValue={4}
          required
        />,
        err('capacity'),
      )}
      <fieldset>
        <legend>Who can join</legend>
        <label className="checkbox">
          <input type="radio" name="join" value="open" defaultChecked /> Anyone nearby, until it is full (then a
          waitlist)
        </label>
        <label className="checkbox">
          <input type="radio" name="join" value="approval" /> I approve each person
        </label>
      </fieldset>
      {field(
        'weeks',
        'Repeat weekly',
        <select id="weeks" name="weeks" defaultValue="1">
          {Array.from({ length: MEETUP_LIMITS.repeatWeeksMax }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n === 1 ? 'Just this once' : `${n} weeks in all`}
            </option>
          ))}
        </select>,
        err('repeat_weekly'),
      )}
      {field(
        'note',
        'Note (optional)',
        <textarea id="note" name="note" rows={3} maxLength={MEETUP_LIMITS.note} />,
        err('note'),
      )}
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <p>
        <button type="submit" className="button-big" disabled={busy}>
          Host meetup
        </button>
      </p>
    </form>
  );
}
