// What a feed parser produces: one occurrence, before activities and places are resolved.
export interface EventDraft {
  /** Unique within the source: the feed's UID, or '<UID>#<occurrence>' for an occurrence of a recurring event. */
  uid: string;
  /** The feed's UID of the event (shared by all occurrences of a series). */
  seriesUid: string;
  title: string;
  description: string | null;
  start: Date;
  end: Date;
  allDay: boolean;
  timezone: string | null;
  /** YYYY-MM-DD of the start where the event happens. */
  localDate: string;
  /** Free-text location (iCalendar LOCATION); venue and city are derived from it when not given. */
  location: string | null;
  venueName: string | null;
  venueAddress: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  coords: { latitude: number; longitude: number } | null;
  categories: string[];
  /** Activities the feed names explicitly (ids or plain English). */
  activities: string[];
  url: string | null;
}

export interface ParsedFeed {
  drafts: EventDraft[];
  /** Events left out, with why (cancelled ones are not counted: leaving them out is the point). */
  skipped: { uid: string; reason: string }[];
  /** Cancelled events and occurrences (STATUS:CANCELLED, or cancelled in JSON). */
  cancelled: number;
}

export interface ImportWindow {
  /** Occurrences that ended before this are left out. */
  from: Date;
  /** Recurring events are expanded up to here. */
  to: Date;
}

export const LIMITS = { title: 300, description: 5000, text: 300, categories: 20, url: 2048 } as const;

export function clip(text: string | null | undefined, max: number): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

export function httpUrl(text: string | null | undefined): string | null {
  const value = text?.trim();
  if (!value || value.length > LIMITS.url) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function cleanList(values: readonly unknown[] | null | undefined): string[] {
  const out = new Set<string>();
  for (const value of (values ?? []).flat(2)) {
    const text = typeof value === 'string' ? clip(value, LIMITS.text) : null;
    if (text) out.add(text);
  }
  return [...out].slice(0, LIMITS.categories);
}
