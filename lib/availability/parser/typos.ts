// Typos: a word we do not know, close to one we do, is read as that word and reported.
import {
  APPROX_WORDS,
  DAY_FORMS,
  DAY_WORDS,
  FILLERS,
  LEADS,
  NAMED_ENDPOINTS,
  PHRASES,
  RANGE_WORDS,
  TIME_SUFFIXES,
} from './lexicon';
import type { Token } from './tokens';

const TYPO_TARGETS: readonly string[] = [
  ...DAY_FORMS.flatMap((forms) => forms.filter((f) => f.length >= 6)),
  ...'morning mornings afternoon afternoons evening evenings night nights weekend weekends weekday weekdays weeknight weeknights lunchtime anytime except'.split(
    ' ',
  ),
];

/** Longest typo target plus the largest distance allowed: longer words cannot be typos of one. */
const MAX_TYPO_LENGTH = 14;
const rows = [
  new Int32Array(MAX_TYPO_LENGTH + 1),
  new Int32Array(MAX_TYPO_LENGTH + 1),
  new Int32Array(MAX_TYPO_LENGTH + 1),
];

/**
 * Optimal string alignment distance (transpositions count 1: "wendesday"), or max + 1 once it
 * must exceed max. Runs on every unknown word, so it reuses three rows and stops early.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || a.length > MAX_TYPO_LENGTH || b.length > MAX_TYPO_LENGTH) return max + 1;
  let [prev2, prev, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[b.length] ?? max + 1;
}

function isKnownWord(word: string): boolean {
  return (
    DAY_WORDS.has(word) ||
    FILLERS.has(word) ||
    RANGE_WORDS.has(word) ||
    KNOWN_PHRASE_WORDS.has(word) ||
    NAMED_ENDPOINTS.has(word)
  );
}

const KNOWN_PHRASE_WORDS = new Set<string>([
  ...PHRASES.flatMap((p) => p.words.flat()),
  ...LEADS.flatMap((l) => l.words.flat()),
  ...APPROX_WORDS,
  ...TIME_SUFFIXES,
]);

/** Replaces misspelt words in place; returns one note per correction. */
export function correctTypos(tokens: Token[]): string[] {
  const notes: string[] = [];
  const seen = new Map<string, string | null>();
  for (const t of tokens) {
    if (t.kind !== 'word' || t.norm.length < 5 || t.norm.length > MAX_TYPO_LENGTH) continue;
    if (!/^\p{L}+$/u.test(t.norm) || isKnownWord(t.norm)) continue;
    let best = seen.get(t.norm);
    if (best === undefined) {
      const max = t.norm.length >= 8 ? 2 : 1;
      let bestDistance = max + 1;
      best = null;
      for (const target of TYPO_TARGETS) {
        const d = editDistance(t.norm, target, max);
        if (d < bestDistance) {
          best = target;
          bestDistance = d;
        }
      }
      seen.set(t.norm, best);
    }
    if (best === null) continue;
    const note = `read "${t.norm}" as "${best}"`;
    if (!notes.includes(note)) notes.push(note);
    t.norm = best;
  }
  return notes;
}
