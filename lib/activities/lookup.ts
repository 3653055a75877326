// Precomputed index over the catalog: an exact-key map for matching and a phrase
// list for fuzzy suggestions. Built once at module load by canonicalize.ts.
import type { Activity } from './catalog';
import { toPhrase, type Phrase } from './similarity';
import { keyVariants, normalizeText, stemWord, tokenize } from './text';

export interface IndexedPhrase {
  id: string;
  /** Catalog position, used to break ties between equally close suggestions. */
  rank: number;
  raw: Phrase;
  stem: Phrase;
}

export interface AliasCollision {
  key: string;
  ids: readonly [string, string];
}

export interface ActivityIndex {
  /** Every key variant (literal, stemmed, space-free) -> activity id. */
  byKey: ReadonlyMap<string, string>;
  phrases: readonly IndexedPhrase[];
  /** Keys claimed by two activities; the catalog test requires this to be empty. */
  collisions: readonly AliasCollision[];
}

/** The normalized phrases an activity answers to: its id as words, its name and its aliases. */
export function activityPhrases(activity: Activity): string[] {
  const texts = [activity.id.replace(/_/g, ' '), activity.name, ...activity.aliases];
  return [...new Set(texts.map(normalizeText))].filter((key) => key.length > 0);
}

export function buildActivityIndex(activities: readonly Activity[]): ActivityIndex {
  const byKey = new Map<string, string>();
  const collisions: AliasCollision[] = [];
  const claim = (key: string, id: string): void => {
    const owner = byKey.get(key);
    if (owner === undefined) byKey.set(key, id);
    else if (owner !== id) collisions.push({ key, ids: [owner, id] });
  };

  const perActivity = activities.map((activity) => ({ activity, keys: activityPhrases(activity) }));
  // Literal keys first, for every activity, so a real alias always beats another
  // activity's stemmed or space-free variant if the two ever coincide.
  for (const { activity, keys } of perActivity) for (const key of keys) claim(key, activity.id);
  for (const { activity, keys } of perActivity) {
    for (const variant of keys.flatMap((key) => keyVariants(key).slice(1))) claim(variant, activity.id);
  }

  const phrases = perActivity.flatMap(({ activity, keys }, rank) =>
    keys.map((key) => {
      const raw = tokenize(key);
      return { id: activity.id, rank, raw: toPhrase(raw), stem: toPhrase(raw.map(stemWord)) };
    }),
  );
  return { byKey, phrases, collisions };
}
