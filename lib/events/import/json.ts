// JSON feeds -> event occurrences. Accepts an array of events or {events: [...]},
// so the feed's own output (or an upstream's) can be imported as it is.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseDateBound } from '@/lib/contract/event-params';
import { LIMITS, clip, cleanList, httpUrl, type EventDraft, type ImportWindow, type ParsedFeed } from './draft';
import { addDays, isTimeZone, localDateOf, utcMidnight } from './time';

const optionalText = z.string().nullish();
const coords = z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) });
const when = z
  .string()
  .refine((value) => parseDateBound(value) !== null, 'must be YYYY-MM-DD or an ISO 8601 date-time with offset');

/** One event in a JSON feed. Field names follow the feed's own items; unknown fields are ignored. */
export const jsonEventSchema = z.looseObject({
  uid: z.string().min(1).max(500).optional(),
  id: z.union([z.string().min(1).max(500), z.number()]).optional(),
  title: z.string().trim().min(1),
  description: optionalText,
  start: when,
  end: when.nullish(),
  all_day: z.boolean().nullish(),
  timezone: optionalText,
  location: optionalText,
  venue_name: optionalText,
  venue_address: optionalText,
  city: optionalText,
  region: optionalText,
  country: optionalText,
  coords: coords.nullish(),
  latitude: z.number().min(-90).max(90).nullish(),
  longitude: z.number().min(-180).max(180).nullish(),
  activities: z.array(z.string()).nullish(),
  categories: z.array(z.string()).nullish(),
  url: optionalText,
  status: optionalText,
  cancelled: z.boolean().nullish(),
});
export type JsonEvent = z.infer<typeof jsonEventSchema>;

export function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text.replace(/^\uFEFF/, ''));
}

export function parseJsonFeed(text: string, window: ImportWindow): ParsedFeed {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Error('The feed is not valid JSON');
  }
  const items = Array.isArray(data) ? data : (data as { events?: unknown } | null)?.events;
  if (!Array.isArray(items))
    throw new Error('A JSON feed must be an array of events or an object with an "events" array');

  const result: ParsedFeed = { drafts: [], skipped: [], cancelled: 0 };
  items.forEach((item, index) => {
    const parsed = jsonEventSchema.safeParse(item);
    const label = describeItem(item, index);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      result.skipped.push({
        uid: label,
        reason: `${issue?.path.join('.') || 'event'}: ${issue?.message ?? 'invalid'}`,
      });
      return;
    }
    const event = parsed.data;
    if (event.cancelled === true || /^cancel+ed$/i.test(event.status ?? '')) {
      result.cancelled += 1;
      return;
    }
    const draft = toDraft(event);
    if (draft.end < window.from) {
      result.skipped.push({ uid: draft.uid, reason: 'already over' });
      return;
    }
    result.drafts.push(draft);
  });
  return result;
}

function toDraft(event: JsonEvent): EventDraft {
  const timezone = isTimeZone(event.timezone) ? event.timezone : null;
  const startBound = parseDateBound(event.start)!;
  const allDay = event.all_day ?? startBound.kind === 'date';
  const start = startBound.kind === 'date' ? utcMidnight(startBound.date) : startBound.at;
  const localDate = startBound.kind === 'date' ? startBound.date : localDateOf(start, timezone);
  const endBound = event.end ? parseDateBound(event.end) : null;
  let end = endBound
    ? endBound.kind === 'date'
      ? utcMidnight(endBound.date)
      : endBound.at
    : allDay
      ? addDays(start, 1)
      : start;
  if (end < start) end = start;
  const uid = event.uid ?? (event.id !== undefined ? String(event.id) : syntheticUid(event));
  const point =
    event.coords ??
    (event.latitude != null && event.longitude != null
      ? { latitude: event.latitude, longitude: event.longitude }
      : null);
  return {
    uid,
    seriesUid: uid,
    title: clip(event.title, LIMITS.title)!,
    description: clip(event.description, LIMITS.description),
    start,
    end,
    allDay,
    timezone,
    localDate,
    location: clip(event.location, LIMITS.text),
    venueName: clip(event.venue_name, LIMITS.text),
    venueAddress: clip(event.venue_address, LIMITS.text),
    city: clip(event.city, LIMITS.text),
    region: clip(event.region, LIMITS.text),
    country: clip(event.country, LIMITS.text),
    coords: point,
    categories: cleanList(event.categories),
    activities: cleanList(event.activities),
    url: httpUrl(event.url),
  };
}

/** Feeds without ids still get a stable uid: the same title at the same time is the same event. */
function syntheticUid(event: JsonEvent): string {
  return `sha256:${createHash('sha256')
    .update(`${event.title}\n${event.start}\n${event.location ?? ''}`)
    .digest('hex')
    .slice(0, 32)}`;
}

function describeItem(item: unknown, index: number): string {
  const record = item as { uid?: unknown; id?: unknown } | null;
  const id =
    record &&
    (typeof record.uid === 'string'
      ? record.uid
      : typeof record.id === 'string' || typeof record.id === 'number'
        ? String(record.id)
        : null);
  return id ?? `#${index}`;
}
