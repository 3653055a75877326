'use client';
// Activities as removable chips with type-ahead. Suggestions come from the activity
// catalog the API serves (GET /api/v1/activities.json) as a <datalist>; what a person
// types that is a catalog name or alias becomes that activity at once, and a renaming
// ("bouldering → Rock Climbing") is said. Anything else is kept in their words: the
// server matches it on save (PATCH /api/v1/me.json) and reports what it could not place.
import { useMemo, useState, type KeyboardEvent } from 'react';
import useSWR from 'swr';
import type { ActivityCatalogResponse } from '@/lib/activities/list';
import { paths } from '@/lib/contract/paths';
import { normalizeText } from '@/lib/activities/text';
import { getJson } from './api-client';

export const MAX_ACTIVITIES = 20;

/** Normalised name or alias → catalog name. */
export type ActivityLookup = Map<string, string>;

export function useActivityLookup(): { lookup: ActivityLookup; names: string[] } {
  const { data } = useSWR<ActivityCatalogResponse>(paths.activities(), getJson, { revalidateOnFocus: false });
  return useMemo(() => {
    const lookup: ActivityLookup = new Map();
    const activities = data?.activities ?? [];
    for (const a of activities) lookup.set(normalizeText(a.name), a.name);
    for (const a of activities)
      for (const alias of a.aliases) if (!lookup.has(normalizeText(alias))) lookup.set(normalizeText(alias), a.name);
    return { lookup, names: activities.map((a) => a.name).sort((x, y) => x.localeCompare(y)) };
  }, [data]);
}

export const isKnownActivity = (lookup: ActivityLookup, text: string) => lookup.has(normalizeText(text));

export const sameActivity = (a: string, b: string) => normalizeText(a) === normalizeText(b);

/**
 * Adds what was typed (commas separate several) to the chips: catalog names and aliases
 * as their catalog name, the rest as written. Returns the new chips and any renamings.
 */
export function addActivities(
  chips: readonly string[],
  typed: string,
  lookup: ActivityLookup,
): { chips: string[]; renamed: string[] } {
  const next = [...chips];
  const renamed: string[] = [];
  for (const part of typed.split(/[,;\n]/)) {
    const words = part.trim();
    if (words === '') continue;
    const name = lookup.get(normalizeText(words));
    const chip = name ?? words;
    if (name && !sameActivity(words, name)) renamed.push(`${words} → ${name}`);
    if (!next.some((c) => sameActivity(c, chip))) next.push(chip);
  }
  return { chips: next, renamed };
}

export function ActivityChips(props: {
  id: string;
  chips: string[];
  draft: string;
  renamed: string[];
  lookup: ActivityLookup;
  names: string[];
  placeholder: string;
  describedBy?: string;
  invalid?: boolean;
  onChange: (chips: string[], draft: string, renamed: string[]) => void;
}) {
  const { id, chips, draft, lookup } = props;
  const [said, setSaid] = useState<string | null>(null);
  const full = chips.length >= MAX_ACTIVITIES;

  function add() {
    if (draft.trim() === '') return;
    const result = addActivities(chips, draft, lookup);
    props.onChange(result.chips.slice(0, MAX_ACTIVITIES), '', [...props.renamed, ...result.renamed]);
    setSaid(
      result.chips.length > chips.length
        ? `Added ${result.chips.slice(chips.length).join(', ')}.`
        : 'Already in your activities.',
    );
  }

  function remove(chip: string) {
    props.onChange(
      chips.filter((c) => c !== chip),
      draft,
      props.renamed.filter((line) => !line.endsWith(`→ ${chip}`)),
    );
    setSaid(`Removed ${chip}.`);
    document.getElementById(id)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add();
    }
  }

  return (
    <>
      {chips.length > 0 ? (
        <ul className="chips activity-chips" aria-label="Your activities">
          {chips.map((chip) => (
            <li key={chip}>
              <span className="chip-name">{chip}</span>
              <button type="button" className="chip-remove" aria-label={`Remove ${chip}`} onClick={() => remove(chip)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No activities yet.</p>
      )}
      <div className="chip-input">
        <input
          type="text"
          id={id}
          name="activities"
          list={`${id}-options`}
          value={draft}
          placeholder={props.placeholder}
          autoComplete="off"
          enterKeyHint="done"
          disabled={full}
          aria-invalid={props.invalid ? true : undefined}
          aria-describedby={props.describedBy}
          onChange={(event) => {
            const value = event.target.value;
            // Picking a suggestion from the list (not typing) adds it straight away.
            const picked = !(event.nativeEvent instanceof InputEvent) && props.names.includes(value);
            if (picked) {
              const result = addActivities(chips, value, lookup);
              props.onChange(result.chips.slice(0, MAX_ACTIVITIES), '', props.renamed);
              setSaid(`Added ${value}.`);
            } else {
              props.onChange(chips, value, props.renamed);
            }
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="button-secondary" onClick={add} disabled={full || draft.trim() === ''}>
          Add
        </button>
      </div>
      <datalist id={`${id}-options`}>
        {props.names.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
      {props.renamed.length > 0 ? (
        <ul className="help renamed" aria-label="How we read your activities">
          {props.renamed.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
