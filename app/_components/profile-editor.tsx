'use client';
// Profile view and edit for the web app. It reads and writes through the same JSON API
// agents use (GET/PATCH /api/v1/me.json with the session cookie), so validation, the
// plain-English fields and their warnings are exactly the API's. SWR keeps the view
// live: a change an agent makes shows up when the tab regains focus.
// Made for thumbs: activities are chips with suggestions from the catalog, free time is a
// week of buttons in step with its text, examples speak of the person's own city, and
// dates are in the browser's own language.
import { useEffect, useState, type FormEvent } from 'react';
import useSWR from 'swr';
import { paths } from '@/lib/contract/paths';
import type { OwnProfile } from '@/lib/contract/profiles';
import {
  ActivityChips,
  addActivities,
  isKnownActivity,
  sameActivity,
  useActivityLookup,
  type ActivityLookup,
} from './activity-chips';
import { getJson, sendJson } from './api-client';
import { FreeTimeGrid } from './free-time-grid';
import { ErrorSummary, SavedNotice, useFocusAfterSubmit } from './fields';
import { PhotoUpload } from './photo-upload';

const ME = paths.me();

interface FormValues {
  displayName: string;
  aboutMe: string;
  location: string;
  /** '' = automatic (follows the location) */
  timezone: string;
  gender: string;
  birthday: string;
  showAgeByDecade: boolean;
  activities: string[];
  availability_text: string;
}

/** The form's labels, for the error summary's links. */
const FIELD_LABELS: Record<string, string> = {
  displayName: 'Name',
  aboutMe: 'About you',
  location: 'Where you are',
  timezone: 'Time zone',
  gender: 'Gender',
  birthday: 'Birthday',
  activities: 'Activities',
  availability_text: 'When you’re free',
};

const LIMITS = { displayName: 60, aboutMe: 600, location: 120, availability_text: 500 } as const;

function valuesOf(profile: OwnProfile, names: Record<string, string>): FormValues {
  return {
    displayName: profile.displayName,
    aboutMe: profile.aboutMe ?? '',
    location: profile.location ?? '',
    timezone: profile.timezone_source === 'person' ? (profile.timezone ?? '') : '',
    gender: profile.gender ?? '',
    birthday: profile.birthday ?? '',
    showAgeByDecade: profile.showAgeByDecade,
    activities: profile.activities.map((id) => names[id] ?? id),
    availability_text: profile.availability_text ?? '',
  };
}

/** Only the fields the person changed, in the API's shape (empty optional fields clear). */
function changes(base: FormValues, next: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const orNull = (s: string) => (s.trim() === '' ? null : s);
  if (next.displayName !== base.displayName) body.displayName = next.displayName;
  if (next.aboutMe !== base.aboutMe) body.aboutMe = orNull(next.aboutMe);
  if (next.location !== base.location) body.location = orNull(next.location);
  if (next.timezone !== base.timezone) body.timezone = next.timezone || null;
  if (next.gender !== base.gender) body.gender = next.gender || null;
  if (next.birthday !== base.birthday) body.birthday = next.birthday || null;
  if (next.showAgeByDecade !== base.showAgeByDecade) body.showAgeByDecade = next.showAgeByDecade;
  if (next.activities.join('\n') !== base.activities.join('\n')) body.activities = next.activities;
  if (next.availability_text !== base.availability_text) body.availability_text = orNull(next.availability_text);
  return body;
}

/** error.fields names like "activities.2" belong to the "activities" input. */
function errorsByField(fields: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, message] of Object.entries(fields ?? {})) {
    const base = name.split('.')[0] ?? name;
    out[base] ??= message;
  }
  return out;
}

/**
 * Chips kept in the person's own words that the server placed on save, as renamings
 * ("tenis → Tennis"); one line for several when it cannot tell which became which.
 */
function serverRenamings(sent: string[], saved: string[], unmatched: string[], lookup: ActivityLookup): string[] {
  const own = sent.filter((chip) => !isKnownActivity(lookup, chip) && !saved.some((name) => sameActivity(name, chip)));
  const placed = own.filter((chip) => !unmatched.some((u) => sameActivity(u, chip)));
  const found = saved.filter((name) => !sent.some((chip) => sameActivity(chip, name)));
  if (placed.length === 0 || found.length === 0) return [];
  return [`${placed.join(', ')} → ${found.join(', ')}`];
}

/** A date (YYYY-MM-DD or a moment) in the browser's language; null until mounted (the server cannot know it). */
function useLocalDate(value: string | null, withTime: boolean): string | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (!value) return setText(null);
    const date = new Date(withTime ? value : `${value}T00:00:00Z`);
    if (Number.isNaN(date.getTime())) return setText(null);
    const format = withTime
      ? new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeStyle: 'short' })
      : new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' });
    setText(format.format(date));
  }, [value, withTime]);
  return text;
}

interface Status {
  tone: 'ok' | 'warn' | 'error';
  title: string;
  details: string[];
  /** A validation refusal: the summary lists each field (other refusals say it all in the title). */
  listFields?: boolean;
}

function warningLines(warnings: Record<string, unknown>, names: Record<string, string>): string[] {
  const lines: string[] = [];
  if (typeof warnings.schedule_summary === 'string')
    lines.push(
      `We understood your availability as: ${warnings.schedule_summary}. If that’s not right, say it differently.`,
    );
  const unmatched = Array.isArray(warnings.activities_unmatched) ? (warnings.activities_unmatched as string[]) : [];
  const suggestions = (warnings.activities_suggestions ?? {}) as Record<string, string[]>;
  for (const item of unmatched) {
    const ideas = (suggestions[item] ?? []).map((id) => names[id] ?? id);
    lines.push(
      `We didn’t recognise the activity “${item}”${ideas.length ? ` — did you mean ${ideas.join(' or ')}?` : '.'}`,
    );
  }
  if (Array.isArray(warnings.availability_unparsed) && warnings.availability_unparsed.length > 0) {
    lines.push(
      `We couldn’t understand this part of your availability: “${(warnings.availability_unparsed as string[]).join('”, “')}”.`,
    );
  }
  if (typeof warnings.location_unresolved === 'string')
    lines.push('We couldn’t find that place on the map, so people nearby won’t find you yet. Try a nearby city.');
  return lines;
}

export function ProfileEditor({
  initial,
  activityNames,
  timezones,
}: {
  initial: OwnProfile;
  activityNames: Record<string, string>;
  /** The zone names the API takes, for the time zone picker. */
  timezones: readonly string[];
}) {
  const { data, mutate } = useSWR<{ profile: OwnProfile }>(ME, getJson, {
    fallbackData: { profile: initial },
    revalidateOnMount: false,
  });
  const profile = data?.profile ?? initial;
  const [base, setBase] = useState<FormValues>(() => valuesOf(initial, activityNames));
  const [values, setValues] = useState<FormValues>(base);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status | null>(null);
  const [saving, setSaving] = useState(false);
  const [draft, setDraft] = useState('');
  const [renamed, setRenamed] = useState<string[]>([]);
  const { lookup, names } = useActivityLookup();
  const [saved, setSaved] = useState<string | null>(null);
  const summary = useFocusAfterSubmit<HTMLDivElement>();
  const edited = Object.keys(changes(base, values)).length > 0 || draft.trim() !== '';
  const city = (profile.public_location ?? '').split(',')[0]?.trim() || null;
  const birthdayText = useLocalDate(values.birthday || null, false);
  const changedText = useLocalDate(profile.updated_at, true);

  // Someone else (an agent, another tab) changed the profile: follow it unless mid-edit.
  const latest = valuesOf(profile, activityNames);
  const stale = JSON.stringify(latest) !== JSON.stringify(base);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows a new server version (updated_at), never the person's own typing
  useEffect(() => {
    if (stale && !edited) {
      setBase(latest);
      setValues(latest);
    }
  }, [profile.updated_at]);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setSaved(null);
    setValues((v) => ({ ...v, [key]: value }));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    // Words still in the activity box count as added.
    const typed = addActivities(values.activities, draft, lookup);
    const sending = { ...values, activities: typed.chips };
    const renamedNow = [...renamed, ...typed.renamed];
    if (draft.trim() !== '') {
      setValues(sending);
      setDraft('');
      setRenamed(renamedNow);
    }
    const body = changes(base, sending);
    if (Object.keys(body).length === 0) {
      setStatus(null);
      setSaved('Nothing to save: you haven’t changed anything');
      return;
    }
    setSaving(true);
    setStatus(null);
    setSaved(null);
    const result = await sendJson<{ profile: OwnProfile; warnings?: Record<string, unknown> }>('PATCH', ME, body);
    setSaving(false);
    if (result.ok) {
      await mutate({ profile: result.data.profile }, { revalidate: false });
      const next = valuesOf(result.data.profile, activityNames);
      setBase(next);
      setValues(next);
      setErrors({});
      const warnings = result.data.warnings ?? {};
      if (body.activities) {
        const unmatched = Array.isArray(warnings.activities_unmatched)
          ? (warnings.activities_unmatched as string[])
          : [];
        setRenamed([...renamedNow, ...serverRenamings(sending.activities, next.activities, unmatched, lookup)]);
      }
      const details = warningLines(warnings, activityNames);
      setStatus(details.length > 0 ? { tone: 'warn', title: 'Your profile is saved.', details } : null);
      setSaved('Saved');
    } else if (result.error.fields) {
      setErrors(errorsByField(result.error.fields));
      // A refusal that is not a fix-this-field (e.g. moving too often: 429) says itself what to do.
      const title =
        result.error.code === 'validation_failed' ? 'Please fix the fields marked below.' : result.error.message;
      setStatus({ tone: 'error', title, details: [], listFields: result.error.code === 'validation_failed' });
      summary.after();
    } else {
      setErrors({});
      setStatus({ tone: 'error', title: result.error.message, details: [] });
      summary.after();
    }
  }

  const fieldProps = (name: keyof FormValues) => ({
    id: `profile-${name}`,
    name,
    'aria-invalid': errors[name] ? (true as const) : undefined,
    'aria-describedby':
      [errors[name] ? `profile-${name}-error` : '', `profile-${name}-help`].filter(Boolean).join(' ') || undefined,
  });
  const fieldError = (name: keyof FormValues) =>
    errors[name] ? (
      <p className="error" id={`profile-${name}-error`}>
        {errors[name]}
      </p>
    ) : null;

  return (
    <>
      {profile.onboarding.missing.length > 0 ? (
        <div className="notice notice-warn">
          <p>
            Still needed before you show in Discover: {profile.onboarding.missing.length} item
            {profile.onboarding.missing.length === 1 ? '' : 's'}. See the <a href="/account">checklist</a>.
          </p>
        </div>
      ) : null}

      <section className="card" aria-labelledby="photo-heading">
        <h2 id="photo-heading">Photo</h2>
        <PhotoUpload currentUrl={profile.photoURL} name={profile.displayName} onUploaded={() => void mutate()} />
      </section>

      <section className="card" aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        {changedText ? <p className="muted small">Last changed {changedText}</p> : null}
        {status?.tone === 'error' ? (
          <ErrorSummary
            title={status.title}
            focusRef={summary.ref}
            items={Object.entries(status.listFields ? errors : {}).map(([name, text]) =>
              FIELD_LABELS[name] ? { fieldId: `profile-${name}`, text: `${FIELD_LABELS[name]}: ${text}` } : { text },
            )}
          />
        ) : status ? (
          <div className={`notice notice-${status.tone}`} role="status">
            <p>{status.title}</p>
            {status.details.length > 0 ? (
              <ul>
                {status.details.map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        {stale && edited ? (
          <div className="notice notice-warn" role="status">
            <p>
              Your profile was changed elsewhere (perhaps by your agent) while you were editing. Saving keeps your
              changes to the fields you edited.
            </p>
          </div>
        ) : null}
        <form className="stack" onSubmit={save} noValidate>
          <div className="field">
            <label htmlFor="profile-displayName">Name</label>
            <input
              type="text"
              {...fieldProps('displayName')}
              value={values.displayName}
              maxLength={LIMITS.displayName}
              required
              autoComplete="nickname"
              onChange={(e) => set('displayName', e.target.value)}
            />
            <p className="help" id="profile-displayName-help">
              Shown on your profile. Up to {LIMITS.displayName} characters.
            </p>
            {fieldError('displayName')}
          </div>
          <div className="field">
            <label htmlFor="profile-aboutMe">About you</label>
            <textarea
              {...fieldProps('aboutMe')}
              value={values.aboutMe}
              maxLength={LIMITS.aboutMe}
              placeholder={`Like “New in ${city ?? 'town'}, up for a hike on Saturdays and a board game night after work.”`}
              onChange={(e) => set('aboutMe', e.target.value)}
            />
            <p className="help" id="profile-aboutMe-help">
              {values.aboutMe.length} of {LIMITS.aboutMe} characters.
            </p>
            {fieldError('aboutMe')}
          </div>
          <div className="field">
            <label htmlFor="profile-location">Where you are</label>
            <input
              type="text"
              {...fieldProps('location')}
              value={values.location}
              maxLength={LIMITS.location}
              autoComplete="address-level2"
              placeholder={`Like “${city ?? 'Portland, OR'}”`}
              onChange={(e) => set('location', e.target.value)}
            />
            <p className="help" id="profile-location-help">
              A town or city, like “{city ?? 'Portland, OR'}”. Others only see the city
              {profile.public_location ? ` (now: ${profile.public_location})` : ''}.
            </p>
            {fieldError('location')}
          </div>
          <div className="field">
            <label htmlFor="profile-timezone">Time zone</label>
            <select
              {...fieldProps('timezone')}
              value={values.timezone}
              onChange={(e) => set('timezone', e.target.value)}
            >
              <option value="">Automatic, from where you are</option>
              {(values.timezone && !timezones.includes(values.timezone)
                ? [values.timezone, ...timezones]
                : timezones
              ).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
            <p className="help" id="profile-timezone-help">
              Your free times are in this zone’s local time
              {profile.timezone ? ` (now: ${profile.timezone.replaceAll('_', ' ')})` : ''}. Automatic follows where you
              are.
            </p>
            {fieldError('timezone')}
          </div>
          <div className="field">
            <label htmlFor="profile-gender">Gender</label>
            <select {...fieldProps('gender')} value={values.gender} onChange={(e) => set('gender', e.target.value)}>
              <option value="">Not set</option>
              <option value="female">Woman</option>
              <option value="male">Man</option>
              <option value="non_binary">Non-binary</option>
              <option value="prefer_not_to_say">Prefer not to say</option>
            </select>
            <p className="help" id="profile-gender-help">
              Needed for Discover; “Prefer not to say” counts.
            </p>
            {fieldError('gender')}
          </div>
          <div className="field">
            <label htmlFor="profile-birthday">Birthday</label>
            <input
              type="date"
              {...fieldProps('birthday')}
              value={values.birthday}
              autoComplete="bday"
              onChange={(e) => set('birthday', e.target.value)}
            />
            <p className="help" id="profile-birthday-help">
              {birthdayText ? `${birthdayText}. ` : ''}Others see your age, not your birthday. You must be 13 or older.
            </p>
            {fieldError('birthday')}
          </div>
          <div className="field">
            <div className="checkbox">
              <input
                type="checkbox"
                {...fieldProps('showAgeByDecade')}
                checked={values.showAgeByDecade}
                onChange={(e) => set('showAgeByDecade', e.target.checked)}
              />
              <label htmlFor="profile-showAgeByDecade">Show only my age decade (like “30s”)</label>
            </div>
            <p className="help" id="profile-showAgeByDecade-help">
              {profile.age_bucket
                ? `You would show as: ${profile.age_bucket}.`
                : 'Takes effect once your birthday is set.'}
            </p>
          </div>
          <div className="field">
            <label htmlFor="profile-activities">Activities</label>
            <ActivityChips
              id="profile-activities"
              chips={values.activities}
              draft={draft}
              renamed={renamed}
              lookup={lookup}
              names={names}
              placeholder="Type an activity"
              invalid={Boolean(errors.activities)}
              describedBy={fieldProps('activities')['aria-describedby']}
              onChange={(chips, nextDraft, nextRenamed) => {
                set('activities', chips);
                setDraft(nextDraft);
                setRenamed(nextRenamed);
              }}
            />
            <p className="help" id="profile-activities-help">
              Type and pick from the suggestions, or say it in your own words; Enter or Add puts it in. Up to 20.
            </p>
            {fieldError('activities')}
          </div>
          <div className="field">
            <label htmlFor="profile-availability_text">When you’re free</label>
            <div className="free-time">
              <FreeTimeGrid text={values.availability_text} onChange={(text) => set('availability_text', text)} />
              <div className="free-time-text">
                <textarea
                  {...fieldProps('availability_text')}
                  value={values.availability_text}
                  maxLength={LIMITS.availability_text}
                  placeholder="Like “weekends and Wednesday evenings”"
                  onChange={(e) => set('availability_text', e.target.value)}
                />
                <p className="help" id="profile-availability_text-help">
                  Tap the week, or write it your way: “weekends and Wednesday evenings”. When you tap, these words
                  change to match the week. Now: {profile.schedule_summary}.
                </p>
              </div>
            </div>
            {fieldError('availability_text')}
          </div>
          {/* On a phone it stays in view above the tab bar, so Save is never a long scroll away. */}
          <div className="actions profile-save">
            <button type="submit" disabled={saving}>
              {saving ? 'Saving…' : 'Save profile'}
            </button>
            <SavedNotice text={saved} />
            <a href={`/u/${encodeURIComponent(profile.slug)}`}>See your public profile</a>
          </div>
        </form>
      </section>
    </>
  );
}
