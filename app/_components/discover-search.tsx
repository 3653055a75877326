'use client';
// Discover for people: the filters of GET /api/v1/discover.json as a form, ranked
// results with why each one matches, "Show more" through next_cursor, and a buddy
// request from each card (POST .../buddy_request.json, the agents' call).
// Built for a phone: how many match comes first, the filters sit behind a "Filters (N)"
// button (open on wide screens, in a sidebar from 64rem, by CSS), and people come as
// compact rows, several to a screen (or, switched, as full-width photo cards). Each row
// is one big link to the person's profile (a stretched link on the name: nothing
// interactive is nested in it) with the request button above it. Any catalog activity
// can be searched, not only the person's own (the API's activities filter takes any).
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import useSWRInfinite from 'swr/infinite';
import type { DiscoverResponse, DiscoverResult } from '@/lib/contract/discover';
import { DISCOVER_LIMITS, SOCIAL_LIMITS } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { ageText } from '@/lib/web/people';
import { ApiCallError, getJson, sendJson, fieldFailure } from './api-client';
import { Avatar } from './avatar';
import { ErrorSummary, TextAreaField } from './fields';

export interface DiscoverFilters {
  activities: string[];
  radius_km: number;
  available: number;
  gender: string[];
  age_min: string;
  age_max: string;
}

const RADII = [5, 10, 25, 50, 100, 200] as const;
const OVERLAPS = [
  { value: 0, label: 'Any time' },
  { value: 1, label: '1+ hours a week' },
  { value: 2, label: '2+ hours a week' },
  { value: 4, label: '4+ hours a week' },
  { value: 10, label: '10+ hours a week' },
] as const;
const GENDER_CHOICES = [
  { value: 'female', label: 'Women' },
  { value: 'male', label: 'Men' },
  { value: 'non_binary', label: 'Non-binary people' },
] as const;
const LAST_ACTIVE_WORDS: Record<DiscoverResult['last_active'], string> = {
  within_a_day: 'Active today',
  within_a_week: 'Active this week',
  within_a_month: 'Active this month',
  over_a_month: 'Not active lately',
};
/** The API's field names as the form calls them, for its error messages. */
const FIELD_WORDS: Record<string, string> = {
  age_min: 'youngest age',
  age_max: 'oldest age',
  activities: 'activities',
  radius_km: 'distance',
};
const PAGE_SIZE = 20;

export function discoverUrl(filters: DiscoverFilters, cursor?: string): string {
  const params = new URLSearchParams();
  params.set('activities', filters.activities.join(','));
  params.set('radius_km', String(filters.radius_km));
  params.set('available', String(filters.available));
  if (filters.gender.length > 0) params.set('gender', filters.gender.join(','));
  if (filters.age_min.trim() !== '') params.set('age_min', filters.age_min.trim());
  if (filters.age_max.trim() !== '') params.set('age_max', filters.age_max.trim());
  params.set('limit', String(PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `${paths.discover()}?${params.toString()}`;
}

type Suggestion = NonNullable<DiscoverResponse['suggestions']>[number];

/** The filters of a suggested search (its ready-made URL), the activities kept as they are. */
export function suggestedFilters(suggestion: Suggestion, current: DiscoverFilters): DiscoverFilters {
  const query = new URL(suggestion.url, 'http://x').searchParams;
  const list = (name: string) => (query.get(name) ?? '').split(',').filter(Boolean);
  return {
    activities: current.activities,
    radius_km: Number(query.get('radius_km') ?? current.radius_km),
    available: Number(query.get('available') ?? 0),
    gender: list('gender'),
    age_min: query.get('age_min') ?? '',
    age_max: query.get('age_max') ?? '',
  };
}

/** A suggestion in people's words, from what its search changes in `current`, and how many that finds. */
export function suggestionLabel(suggestion: Suggestion, current: DiscoverFilters): string {
  const count = `${suggestion.matches}${suggestion.matches_at_least ? '+' : ''}`;
  const people = `${count} ${suggestion.matches === 1 && !suggestion.matches_at_least ? 'person' : 'people'}`;
  const next = suggestedFilters(suggestion, current);
  if (next.radius_km !== current.radius_km) return `Within ${next.radius_km} km: ${people}`;
  if (next.available !== current.available) return `Free any time: ${people}`;
  if (
    next.gender.length < current.gender.length ||
    next.age_min !== current.age_min ||
    next.age_max !== current.age_max
  )
    return `Anyone, any age: ${people}`;
  return `${suggestion.change}: ${people}`;
}

function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiCallError) || !error.failure.fields) return {};
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(error.failure.fields)) {
    out[field] = Object.entries(FIELD_WORDS).reduce((text, [name, words]) => text.replaceAll(name, words), message);
  }
  return out;
}

function AgeField(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const { id, error } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={DISCOVER_LIMITS.ageMin}
        max={DISCOVER_LIMITS.ageMax}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type Asked = { text: string; chatId?: string | null } | { error: string };

function AskButton({ result, name }: { result: DiscoverResult; name: string }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState<Asked | null>(null);
  const fieldId = `ask-${result.user.id}`;

  async function ask(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const body = {
      message: message.trim() === '' ? null : message,
      activityIds: result.shared_activities.slice(0, SOCIAL_LIMITS.activityIds),
    };
    const sent = await sendJson<{ outcome: string; chat: { chatId: string } | null }>(
      'POST',
      paths.buddyRequest({ slug: result.user.slug }),
      body,
    );
    setBusy(false);
    if (!sent.ok) {
      setAsked({ error: fieldFailure(sent.error, 'message') });
      return;
    }
    setAsked(
      sent.data.outcome === 'accepted_reverse'
        ? { text: `${name} had already asked you, so you’re buddies now.`, chatId: sent.data.chat?.chatId }
        : { text: `Request sent. ${name} will see it in their inbox.` },
    );
    setOpen(false);
  }

  if (asked && 'text' in asked) {
    return (
      <p className="notice notice-ok" role="status">
        {asked.text} {asked.chatId ? <a href={`/account/chats/${asked.chatId}`}>Open the chat</a> : null}
      </p>
    );
  }
  if (result.pending_request === 'sent') return <span className="tag">Request sent</span>;
  if (result.pending_request === 'received') {
    return (
      <a className="tag tag-ok" href="/account/requests">
        {name} asked you: answer
      </a>
    );
  }
  if (!open) {
    return (
      // Short on screen, whole to a screen reader ("Ask" starts the name: label in name).
      <button
        type="button"
        className="ask-button"
        aria-label={`Ask ${name} to be buddies`}
        onClick={() => setOpen(true)}
      >
        Ask
      </button>
    );
  }
  const error = asked && 'error' in asked ? asked.error : null;
  return (
    <form className="stack" onSubmit={(event) => void ask(event)}>
      <TextAreaField
        id={fieldId}
        label={`A few words to ${name} (optional)`}
        value={message}
        onChange={setMessage}
        maxLength={SOCIAL_LIMITS.requestMessage}
        error={error}
      />
      <div className="actions">
        <button type="submit" disabled={busy}>
          Send request
        </button>
        <button type="button" className="button-secondary" onClick={() => setOpen(false)}>
          Not now
        </button>
      </div>
    </form>
  );
}

export type DiscoverView = 'list' | 'photos';

function SharedChips({
  result,
  activityNames,
  own,
}: {
  result: DiscoverResult;
  activityNames: Record<string, string>;
  own: readonly string[];
}) {
  // A searched activity that is not on one's own profile is theirs, not shared.
  const shared = result.shared_activities.every((id) => own.includes(id));
  return (
    <ul className="chips match-chips" aria-label={shared ? 'You both like' : 'Likes'}>
      {result.shared_activities.map((id) => (
        <li key={id}>{activityNames[id] ?? id}</li>
      ))}
    </ul>
  );
}

function FreeTogether({ result }: { result: DiscoverResult }) {
  return (
    <p className="match-free">
      <span className="match-label">Free together:</span> {result.overlap_summary}
      {result.overlap_hours > 0 ? ` · ${result.overlap_hours} h a week` : ''}
    </p>
  );
}

function ResultCard({
  result,
  activityNames,
  own,
  view,
}: {
  result: DiscoverResult;
  activityNames: Record<string, string>;
  own: readonly string[];
  view: DiscoverView;
}) {
  const { user } = result;
  // The name as the person wrote it (usually a first name and an initial): first names alone would repeat.
  const name = user.displayName;
  // Approximate on purpose: measured between public points, never exact ones.
  const facts = [ageText(user), `about ${result.distance_km} km away`].filter(Boolean).join(' · ');
  const heading = (
    <h3>
      <a className="card-link" href={`/u/${encodeURIComponent(user.slug)}`}>
        {name}
      </a>
    </h3>
  );
  const actions = (
    <div className="match-actions">
      <AskButton result={result} name={name} />
    </div>
  );
  if (view === 'photos') {
    return (
      <li className="card match-photo">
        <div className="match-frame">
          <Avatar name={user.displayName} photoURL={user.photoURL} />
          <div className="match-overlay">
            <div className="match-line">
              {heading}
              <span>{facts}</span>
            </div>
            <SharedChips result={result} activityNames={activityNames} own={own} />
          </div>
        </div>
        <p className="muted small">
          {user.location} · {LAST_ACTIVE_WORDS[result.last_active]}
        </p>
        <FreeTogether result={result} />
        {actions}
      </li>
    );
  }
  return (
    <li className="card match-row">
      <Avatar name={user.displayName} photoURL={user.photoURL} size="small" />
      <div className="match-body">
        <div className="match-line">
          {heading}
          <span className="muted">{facts}</span>
        </div>
        <SharedChips result={result} activityNames={activityNames} own={own} />
        <FreeTogether result={result} />
      </div>
      {actions}
    </li>
  );
}

/** How many filters narrow the search in effect (what "Filters (N)" counts). */
export function activeFilterCount(filters: DiscoverFilters): number {
  return [
    filters.activities.length > 0,
    true, // a distance always applies
    filters.available > 0,
    filters.gender.length > 0,
    filters.age_min.trim() !== '' || filters.age_max.trim() !== '',
  ].filter(Boolean).length;
}

function matchCount(count: number, more: boolean): string {
  if (more) return `${count}+ people match`;
  return count === 1 ? '1 person matches' : `${count} people match`;
}

export function DiscoverSearch({
  defaults,
  ownActivities,
  firstPage,
  activityNames,
}: {
  defaults: DiscoverFilters;
  ownActivities: string[];
  firstPage: DiscoverResponse;
  activityNames: Record<string, string>;
}) {
  const [form, setForm] = useState<DiscoverFilters>(defaults);
  const [filters, setFilters] = useState<DiscoverFilters>(defaults);
  const [formError, setFormError] = useState<string | null>(null);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [view, setView] = useState<DiscoverView>('list');
  // Activities searched that are not on the person's profile, and the one being typed.
  const [otherActivities, setOtherActivities] = useState<string[]>([]);
  const [activityDraft, setActivityDraft] = useState('');
  const searchedDefaults = filters === defaults;
  const nameToId = useMemo(
    () => new Map(Object.entries(activityNames).map(([id, name]) => [name.toLowerCase(), id])),
    [activityNames],
  );

  const { data, error, size, setSize, isValidating } = useSWRInfinite<DiscoverResponse>(
    (index, previous: DiscoverResponse | null) => {
      if (index === 0) return discoverUrl(filters);
      return previous?.next_cursor ? discoverUrl(filters, previous.next_cursor) : null;
    },
    getJson,
    { fallbackData: searchedDefaults ? [firstPage] : undefined, revalidateFirstPage: false, revalidateOnFocus: false },
  );
  const pages = data ?? [];
  const results = pages.flatMap((page) => page.results);
  // What the first page says would find more (a page of a few, or none; issue 46 §8).
  const suggestions = pages[0]?.suggestions ?? [];
  const emptyReason = pages[0]?.empty_reason;
  const hasMore = pages.length > 0 && pages[pages.length - 1]!.next_cursor !== null;
  const loading = isValidating && (pages.length < size || pages.length === 0);
  const errors = fieldErrors(error);
  // After a search is submitted, a refusal takes focus (the summary, or the activities error).
  const searched = useRef(false);
  const summaryRef = useRef<HTMLDivElement | null>(null);
  const activitiesErrorRef = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    if (!searched.current) return;
    if (formError) activitiesErrorRef.current?.focus();
    else if (error) summaryRef.current?.focus();
    else return;
    searched.current = false;
  }, [error, formError]);

  function toggle(list: 'activities' | 'gender', value: string, on: boolean) {
    setForm((f) => ({ ...f, [list]: on ? [...f[list], value] : f[list].filter((v) => v !== value) }));
  }

  /** Ticks the typed activity (a catalog name, else the words as typed: the API reads plain English). */
  function addOnEnter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // Enter adds the activity; the Search button searches
    addActivity(form);
  }

  function addActivity(current: DiscoverFilters): DiscoverFilters {
    const words = activityDraft.trim();
    if (words === '') return current;
    const id = nameToId.get(words.toLowerCase()) ?? words;
    setActivityDraft('');
    if (!ownActivities.includes(id) && !otherActivities.includes(id)) setOtherActivities((list) => [...list, id]);
    const next = current.activities.includes(id) ? current : { ...current, activities: [...current.activities, id] };
    setForm(next);
    return next;
  }

  function search(event: FormEvent) {
    event.preventDefault();
    searched.current = true;
    // Words left in the activity box are meant to be searched too.
    const submitted = addActivity(form);
    if (submitted.activities.length === 0) {
      setFormError('Choose at least one activity.');
      return;
    }
    setFormError(null);
    setFilters({ ...submitted });
    setFiltersOpen(false);
    void setSize(1);
  }

  function widen(suggestion: Suggestion) {
    const next = suggestedFilters(suggestion, filters);
    setForm(next);
    setFilters(next);
    void setSize(1);
  }

  // A refusal of the filters keeps them open, so the marked field is in view.
  const showFilters = filtersOpen || formError !== null || Object.keys(errors).length > 0;
  const filterCount = activeFilterCount(filters);

  return (
    <div className="discover-layout">
      <div className="discover-top">
        <p className="match-count" role="status">
          {loading && results.length === 0 ? 'Searching…' : error ? '' : matchCount(results.length, hasMore)}
        </p>
        <button
          type="button"
          className="button-secondary filters-toggle"
          aria-expanded={showFilters}
          aria-controls="discover-filters"
          onClick={() => setFiltersOpen(!showFilters)}
        >
          Filters ({filterCount})
        </button>
        <fieldset className="view-switch">
          <legend className="visually-hidden">Show people as</legend>
          {(['list', 'photos'] as const).map((v) => (
            <button
              key={v}
              type="button"
              className="button-secondary"
              aria-pressed={view === v}
              onClick={() => setView(v)}
            >
              {v === 'list' ? 'List' : 'Photos'}
            </button>
          ))}
        </fieldset>
      </div>
      <form
        id="discover-filters"
        className={`card stack filters${showFilters ? ' filters-open' : ''}`}
        onSubmit={search}
        aria-label="Search filters"
        noValidate
      >
        <fieldset aria-describedby={formError ? 'activities-error' : undefined}>
          <legend>Activities</legend>
          <div className="choice-row">
            {[...ownActivities, ...otherActivities].map((id) => (
              <label key={id} className="checkbox">
                <input
                  type="checkbox"
                  checked={form.activities.includes(id)}
                  onChange={(e) => toggle('activities', id, e.target.checked)}
                />
                {activityNames[id] ?? id}
              </label>
            ))}
          </div>
          {formError || errors.activities ? (
            <p className="error" id="activities-error" role="alert" tabIndex={-1} ref={activitiesErrorRef}>
              {formError ?? errors.activities}
            </p>
          ) : null}
          <div className="field activity-add">
            <label htmlFor="discover-activity">Any other activity</label>
            <div className="inline-field">
              <input
                id="discover-activity"
                list="discover-activity-names"
                value={activityDraft}
                autoComplete="off"
                onChange={(e) => setActivityDraft(e.target.value)}
                onKeyDown={addOnEnter}
              />
              <button type="button" className="button-secondary" onClick={() => addActivity(form)}>
                Add
              </button>
            </div>
            <datalist id="discover-activity-names">
              {Object.values(activityNames).map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </div>
          <p className="help">Yours are listed; add any other to find people who like it.</p>
        </fieldset>
        <div className="filter-grid">
          <div className="field">
            <label htmlFor="discover-radius">Distance</label>
            <select
              id="discover-radius"
              value={form.radius_km}
              onChange={(e) => setForm((f) => ({ ...f, radius_km: Number(e.target.value) }))}
            >
              {RADII.map((km) => (
                <option key={km} value={km}>
                  Within {km} km
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="discover-available">Free at the same time</label>
            <select
              id="discover-available"
              value={form.available}
              onChange={(e) => setForm((f) => ({ ...f, available: Number(e.target.value) }))}
            >
              {OVERLAPS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <AgeField
            id="discover-age-min"
            label="Youngest age"
            value={form.age_min}
            error={errors.age_min}
            onChange={(age_min) => setForm((f) => ({ ...f, age_min }))}
          />
          <AgeField
            id="discover-age-max"
            label="Oldest age"
            value={form.age_max}
            error={errors.age_max}
            onChange={(age_max) => setForm((f) => ({ ...f, age_max }))}
          />
        </div>
        <fieldset>
          <legend>Show</legend>
          <div className="choice-row">
            {GENDER_CHOICES.map((g) => (
              <label key={g.value} className="checkbox">
                <input
                  type="checkbox"
                  checked={form.gender.includes(g.value)}
                  onChange={(e) => toggle('gender', g.value, e.target.checked)}
                />
                {g.label}
              </label>
            ))}
          </div>
          <p className="help">Leave all unticked to see everyone.</p>
        </fieldset>
        <p>
          <button type="submit">Search</button>
        </p>
      </form>

      <section aria-labelledby="results-heading" aria-busy={loading}>
        <h2 id="results-heading" className="visually-hidden">
          People near you
        </h2>
        {error ? (
          <ErrorSummary
            focusRef={summaryRef}
            title={
              Object.keys(errors).length > 0
                ? 'Please fix the filters marked above.'
                : error instanceof ApiCallError
                  ? error.failure.message
                  : 'The search failed.'
            }
            items={Object.entries(errors)
              .filter(([field]) => field === 'age_min' || field === 'age_max')
              .map(([field, text]) => ({
                fieldId: field === 'age_min' ? 'discover-age-min' : 'discover-age-max',
                text,
              }))}
          />
        ) : null}
        {!loading && !error && results.length === 0 ? (
          <p className="muted">
            {emptyReason ?? 'Nobody matches yet. Try a wider distance, “Any time”, or more activities.'}
          </p>
        ) : null}
        {results.length > 0 ? (
          <ol className={`plain-list matches matches-${view}`} aria-label="Matches, best first">
            {results.map((result) => (
              <ResultCard
                key={result.user.id}
                result={result}
                activityNames={activityNames}
                own={ownActivities}
                view={view}
              />
            ))}
          </ol>
        ) : null}
        {!loading && !error && suggestions.length > 0 ? (
          <section className="discover-widen" aria-labelledby="widen-heading">
            <h3 id="widen-heading">Find more people</h3>
            <ul className="plain-list compact widen-list">
              {suggestions.map((suggestion) => (
                <li key={suggestion.change}>
                  <button type="button" className="button-secondary" onClick={() => widen(suggestion)}>
                    {suggestionLabel(suggestion, filters)}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {hasMore ? (
          <p>
            <button
              type="button"
              className="button-secondary"
              disabled={isValidating}
              onClick={() => void setSize(size + 1)}
            >
              {isValidating ? 'Loading…' : 'Show more'}
            </button>
          </p>
        ) : null}
      </section>
    </div>
  );
}
