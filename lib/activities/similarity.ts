// Typo tolerance for suggestions: optimal-string-alignment Damerau-Levenshtein,
// so a swapped pair of letters ("yoga" -> "yoag") costs one edit, like a missing one.

// Reused DP rows: suggestions compare one query against ~1000 catalog phrases, and
// allocating three arrays per comparison dominated the cost. Safe because JS is
// single-threaded and editDistance never re-enters itself.
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

function rowsFor(length: number): [Int32Array, Int32Array, Int32Array] {
  if (rows[0].length < length)
    rows = [new Int32Array(length * 2), new Int32Array(length * 2), new Int32Array(length * 2)];
  return rows;
}

/**
 * The longest text an edit distance looks at. The cost is the product of the two lengths,
 * and suggestions run before authentication on whatever a caller sends (a 4 MB tool name
 * stalled the server for 34 s, issue 28): nothing we suggest is longer, so past this a
 * string is compared by its first characters only.
 */
export const EDIT_DISTANCE_MAX_CHARS = 256;

/**
 * Edit distance counting insertions, deletions, substitutions and adjacent
 * transpositions. Stops early and returns `limit + 1` once the distance is
 * certain to exceed `limit`. Looks at most at EDIT_DISTANCE_MAX_CHARS of each string.
 */
export function editDistance(left: string, right: string, limit: number = Number.MAX_SAFE_INTEGER): number {
  const a = left.slice(0, EDIT_DISTANCE_MAX_CHARS);
  const b = right.slice(0, EDIT_DISTANCE_MAX_CHARS);
  if (a === b) return 0;
  // Each character of length difference is one edit at least.
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a.length === 0 || b.length === 0) return Math.min(Math.max(a.length, b.length), limit + 1);

  let [beforePrev, prev, curr] = rowsFor(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;

  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let best = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        best = Math.min(best, beforePrev[j - 2]! + 1);
      }
      curr[j] = best;
      if (best < rowMin) rowMin = best;
    }
    // Row minima never decrease (a transposition costs no less than the substitution path), so stop.
    if (rowMin > limit) return limit + 1;
    [beforePrev, prev, curr] = [prev, curr, beforePrev];
  }
  return Math.min(prev[b.length]!, limit + 1);
}

/**
 * How many edits still count as "close" for a string of this length. Short
 * words get no slack: "art" -> "arm" is not a typo worth suggesting.
 */
export function maxEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  if (length <= 8) return 2;
  return 3;
}

/**
 * Relative distance in [0, 1) when `a` and `b` are within the typo budget of the
 * shorter one, otherwise undefined. Lower is closer.
 */
export function closeness(a: string, b: string): number | undefined {
  const allowed = maxEdits(Math.min(a.length, b.length));
  if (Math.abs(a.length - b.length) > allowed) return undefined;
  const distance = editDistance(a, b, allowed);
  return distance <= allowed ? distance / Math.max(a.length, b.length) : undefined;
}

/** A phrase prepared for comparison: its words joined without spaces, and all its sub-phrases. */
export interface Phrase {
  wordCount: number;
  joined: string;
  /** windows[n - 1] = every run of n consecutive words, joined; runs of stop words only are left out. */
  windows: readonly (readonly string[])[];
}

// Never suggest on the strength of these alone ("and" in "bow and arrow").
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'at',
  'do',
  'for',
  'go',
  'i',
  'in',
  'my',
  'of',
  'on',
  'or',
  'play',
  'the',
  'to',
  'with',
]);

export function toPhrase(words: readonly string[]): Phrase {
  const windows: string[][] = [];
  for (let size = 1; size <= words.length; size++) {
    const runs: string[] = [];
    for (let start = 0; start + size <= words.length; start++) {
      const run = words.slice(start, start + size);
      if (!run.every((word) => STOP_WORDS.has(word))) runs.push(run.join(''));
    }
    windows.push(runs);
  }
  return { wordCount: words.length, joined: words.join(''), windows };
}

// A match on only part of either phrase ("hiking" inside "hiking boots shopping")
// ranks below a whole-phrase typo match.
export const PARTIAL_PENALTY = 0.2;

/**
 * Whole-phrase closeness when the word counts agree; otherwise the shorter phrase
 * is slid over the longer one (both ways: "skating" ~ "ice skating", and "run"
 * inside "run with my dog"), plus a penalty. Spaces are ignored.
 */
export function phraseScore(query: Phrase, candidate: Phrase): number | undefined {
  if (query.wordCount === candidate.wordCount) return closeness(query.joined, candidate.joined);
  const [short, long] = query.wordCount < candidate.wordCount ? [query, candidate] : [candidate, query];
  // A short side made only of stop words has no whole-length window: it matches nothing.
  if (short.windows[short.wordCount - 1]?.length === 0) return undefined;
  let best: number | undefined;
  for (const window of long.windows[short.wordCount - 1] ?? []) {
    const score = closeness(short.joined, window);
    if (score !== undefined && (best === undefined || score < best)) best = score;
  }
  return best === undefined ? undefined : best + PARTIAL_PENALTY;
}
