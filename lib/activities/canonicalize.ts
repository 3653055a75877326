// Plain-English activities -> canonical ids. Agents relay whatever people type
// ("going to the gym", "Hiking & camping!", "tenis"), so this never throws:
// anything it cannot place comes back as unmatched, with suggestions when close.
import { ACTIVITIES, AMBIGUOUS_TERMS } from './catalog';
import { buildActivityIndex, type IndexedPhrase } from './lookup';
import { phraseScore, toPhrase } from './similarity';
import { candidatePhrases, isIgnorablePart, keyVariants, normalizeText, splitEntry, stemWord, tokenize } from './text';

export interface CanonicalizeResult {
  /** Matched activity ids, de-duplicated, in input order. */
  ids: string[];
  /** Entries (or parts of entries) that matched nothing, in the caller's own words. */
  unmatched: string[];
  /** Up to 3 close activity ids per unmatched entry; absent when nothing is close. */
  suggestions: Record<string, string[]>;
  /**
   * Entries read as something other than their own words ("climbing" as rock_climbing,
   * "hiking & tennis" as two), for a note: the caller should know what was saved.
   */
  readAs: { entry: string; ids: string[] }[];
}

const INDEX = buildActivityIndex(ACTIVITIES);
/** An activity's own words: its id and its name, normalized ("rock climbing"). */
const OWN_WORDS = new Map(
  ACTIVITIES.map((a) => [a.id, new Set([normalizeText(a.id.replace(/_/g, ' ')), normalizeText(a.name)])]),
);
const AMBIGUOUS = new Set(AMBIGUOUS_TERMS.map(normalizeText));

export const DEFAULT_SUGGESTION_LIMIT = 3;

// Matching only after stemming is slightly weaker evidence than matching the words as typed
// ("skating" is nearer "ice skating" than "skate park").
const STEM_PENALTY = 0.05;

// Long inputs are sentences; scanning a few words is enough and keeps suggestion cost bounded
// (the longest catalog phrase has 4 words; 24 tokens cost twice as much for nothing).
const MAX_FUZZY_TOKENS = 12;
// The contract takes 100 characters per activity; feeds and other callers are held to this too.
const MAX_SUGGESTION_INPUT_CHARS = 200;
export const MAX_SUGGESTED_ENTRIES = 5;

export function canonicalizeActivities(inputs: readonly string[]): CanonicalizeResult {
  const ids = new Set<string>();
  const unmatched = new Set<string>();
  const readAs: CanonicalizeResult['readAs'] = [];
  // Callers are agents sending JSON: tolerate a non-array or non-string items rather than throw.
  const entries: readonly unknown[] = Array.isArray(inputs) ? inputs : [];
  for (const entry of entries) {
    if (typeof entry !== 'string' || entry.trim() === '') continue;
    const resolved = resolveEntry(entry);
    const [first, ...more] = resolved.ids;
    // One activity named in its own words is no reading; an alias, another form or a split is.
    if (first !== undefined && (more.length > 0 || !OWN_WORDS.get(first)?.has(normalizeText(entry))))
      readAs.push({ entry, ids: resolved.ids });
    for (const id of resolved.ids) ids.add(id);
    for (const text of resolved.unmatched) unmatched.add(text);
  }
  // fromEntries defines own properties, so an entry like "__proto__" is just a key. A
  // suggestion costs milliseconds (every catalog phrase is compared), so only the first few
  // unmatched entries get one: twenty sentences made one request cost 1.3 s (issue 28).
  const suggestions = Object.fromEntries(
    [...unmatched]
      .slice(0, MAX_SUGGESTED_ENTRIES)
      .map((text) => [text, suggestActivities(text)] as const)
      .filter(([, ids]) => ids.length > 0),
  );
  return { ids: [...ids], unmatched: [...unmatched], suggestions, readAs };
}

/** The activity id for one whole entry (no splitting), or undefined. */
export function matchActivity(text: string): string | undefined {
  return typeof text === 'string' ? lookupKey(normalizeText(text)) : undefined;
}

/**
 * Up to `limit` activity ids whose names or aliases are closest to `text`, best
 * first. An exact match comes first; typos within a length-scaled edit budget
 * follow; for "x and y" with no close whole, the parts' suggestions are merged.
 */
export function suggestActivities(text: string, limit: number = DEFAULT_SUGGESTION_LIMIT): string[] {
  if (typeof text !== 'string' || !(limit >= 1)) return [];
  text = text.slice(0, MAX_SUGGESTION_INPUT_CHARS);
  const key = normalizeText(text);
  if (key.length === 0) return [];
  const exact = lookupKey(key);
  let ids = unique([...(exact === undefined ? [] : [exact]), ...rankByCloseness(key)]);
  if (ids.length === 0) ids = suggestFromParts(text);
  return ids.slice(0, Math.floor(limit));
}

interface ResolvedEntry {
  ids: string[];
  unmatched: string[];
}

/** Whole entry first (so "arts and crafts" stays one activity), then its parts. */
function resolveEntry(raw: string): ResolvedEntry {
  const id = matchActivity(raw);
  if (id !== undefined) return { ids: [id], unmatched: [] };

  const parts = splitEntry(raw);
  if (parts.length > 1) {
    const meaningful = parts.filter((part) => !isIgnorablePart(normalizeText(part)));
    const matched = meaningful.map((part) => ({ part, id: matchActivity(part) }));
    const ids = matched.flatMap((m) => (m.id === undefined ? [] : [m.id]));
    // Only trust the split if it found something; otherwise report the entry as the caller wrote it.
    if (ids.length > 0) return { ids, unmatched: matched.filter((m) => m.id === undefined).map((m) => m.part) };
  }
  return { ids: [], unmatched: [raw] };
}

function lookupKey(key: string): string | undefined {
  for (const phrase of candidatePhrases(key)) {
    if (AMBIGUOUS.has(phrase)) continue;
    for (const variant of keyVariants(phrase)) {
      const id = INDEX.byKey.get(variant);
      if (id !== undefined) return id;
    }
  }
  return undefined;
}

/** Activity ids with any phrase within typo distance of the text, closest first. */
function rankByCloseness(key: string): string[] {
  const best = new Map<string, { score: number; rank: number }>();
  const trimmed = tokenize(key).slice(0, MAX_FUZZY_TOKENS).join(' ');
  // The literal text and its fully peeled core suffice: sliding windows already
  // cover the partly peeled phrases in between.
  const core = candidatePhrases(trimmed).at(-1) ?? trimmed;
  for (const phrase of unique([trimmed, core])) {
    const words = tokenize(phrase);
    const raw = toPhrase(words);
    const stem = toPhrase(words.map(stemWord));
    for (const entry of INDEX.phrases) {
      const stemScore = phraseScore(stem, entry.stem);
      const score = minScore(
        phraseScore(raw, entry.raw),
        stemScore === undefined ? undefined : stemScore + STEM_PENALTY,
      );
      if (score !== undefined) keepBest(best, entry, score);
    }
  }
  return [...best.entries()].sort(([, a], [, b]) => a.score - b.score || a.rank - b.rank).map(([id]) => id);
}

function keepBest(best: Map<string, { score: number; rank: number }>, entry: IndexedPhrase, score: number): void {
  const current = best.get(entry.id);
  if (current === undefined || score < current.score) best.set(entry.id, { score, rank: entry.rank });
}

/** Round-robin over each part's suggestions so every part gets its best guess in. */
function suggestFromParts(text: string): string[] {
  const parts = splitEntry(text)
    .map(normalizeText)
    .filter((key) => !isIgnorablePart(key));
  if (parts.length < 2) return [];
  const perPart = parts.map(rankByCloseness);
  const longest = Math.max(...perPart.map((ids) => ids.length));
  const merged: string[] = [];
  for (let i = 0; i < longest; i++) for (const ids of perPart) merged.push(...ids.slice(i, i + 1));
  return unique(merged);
}

function minScore(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}
