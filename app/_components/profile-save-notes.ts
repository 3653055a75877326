// What a save says back: the status shown above the form, the API's warnings as sentences, renamed activities.

import { isKnownActivity, sameActivity, type ActivityLookup } from './activity-chips';

/**
 * Chips kept in the person's own words that the server placed on save, as renamings
 * ("tenis → Tennis"); one line for several when it cannot tell which became which.
 */
export function serverRenamings(
  sent: string[],
  saved: string[],
  unmatched: string[],
  lookup: ActivityLookup,
): string[] {
  const own = sent.filter((chip) => !isKnownActivity(lookup, chip) && !saved.some((name) => sameActivity(name, chip)));
  const placed = own.filter((chip) => !unmatched.some((u) => sameActivity(u, chip)));
  const found = saved.filter((name) => !sent.some((chip) => sameActivity(chip, name)));
  if (placed.length === 0 || found.length === 0) return [];
  return [`${placed.join(', ')} → ${found.join(', ')}`];
}

export interface Status {
  tone: 'ok' | 'warn' | 'error';
  title: string;
  details: string[];
  /** A validation refusal: the summary lists each field (other refusals say it all in the title). */
  listFields?: boolean;
}

export function warningLines(warnings: Record<string, unknown>, names: Record<string, string>): string[] {
  const lines: string[] = [];
  if (typeof warnings.schedule_summary === 'string')
    lines.push(
      `We understood your availability as: ${warnings.schedule_summary}. If that’s not right, say it differently.`,
    );
  const unmatched = Array.isArray(warnings.activities_unmatched) ? (warnings.activities_unmatched as string[]) : [];
  const suggestions = (warnings.activities_suggestions ?? {}) as Record<string, string[]>;
  for (const item of unmatched) {
    // Own keys only: the item is the person's word, and "constructor" must not find Object (issue 41).
    const ideas = (Object.hasOwn(suggestions, item) ? suggestions[item]! : []).map((id) => names[id] ?? id);
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
