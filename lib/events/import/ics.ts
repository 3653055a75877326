// iCalendar feeds -> event occurrences, with node-ical: recurring events are expanded
// within the import window, EXDATEs and cancelled occurrences are left out, and
// RECURRENCE-ID overrides replace the occurrence they stand for.
import ical, { type DateWithTimeZone, type EventInstance, type ParameterValue, type VEvent } from 'node-ical';
import { LIMITS, clip, cleanList, httpUrl, type EventDraft, type ImportWindow, type ParsedFeed } from './draft';
import { addDays, instantOf, isTimeZone, localDateOf, localWallTime, utcMidnight, ymd } from './time';

export function looksLikeICalendar(text: string): boolean {
  return /^\s*BEGIN:VCALENDAR/i.test(text.replace(/^\uFEFF/, ''));
}

export async function parseICalendar(text: string, window: ImportWindow): Promise<ParsedFeed> {
  // The async parser yields to the event loop between chunks of a large feed.
  const calendar = await ical.async.parseICS(text);
  const calendarZone = calendarTimeZone(calendar.vcalendar?.['WR-TIMEZONE']);
  const result: ParsedFeed = { drafts: [], skipped: [], cancelled: 0 };
  for (const component of Object.values(calendar)) {
    if (component?.type !== 'VEVENT') continue;
    const event = component as VEvent;
    const uid = typeof event.uid === 'string' && event.uid.trim() ? event.uid.trim() : null;
    if (!uid) {
      result.skipped.push({ uid: '(none)', reason: 'no UID' });
      continue;
    }
    if (statusOf(event) === 'CANCELLED') {
      result.cancelled += 1;
      continue;
    }
    if (!(event.start instanceof Date) || Number.isNaN(event.start.getTime())) {
      result.skipped.push({ uid, reason: 'no valid DTSTART' });
      continue;
    }
    let instances: EventInstance[];
    try {
      instances = ical.expandRecurringEvent(event, {
        from: window.from,
        // A one-off event is kept whenever it is; only series are cut at the horizon.
        to: event.rrule ? window.to : addDays(window.to, 3650),
        expandOngoing: true,
      });
    } catch (error) {
      result.skipped.push({ uid, reason: `cannot expand: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    for (const instance of instances) {
      if (statusOf(instance.event) === 'CANCELLED') {
        result.cancelled += 1;
        continue;
      }
      const draft = toDraft(uid, event, instance, calendarZone);
      if (draft) result.drafts.push(draft);
      else result.skipped.push({ uid, reason: 'no title' });
    }
  }
  return result;
}

function toDraft(uid: string, series: VEvent, instance: EventInstance, calendarZone: string | null): EventDraft | null {
  const source = instance.event;
  const title = clip(textOf(source.summary) ?? textOf(series.summary), LIMITS.title);
  if (!title) return null;
  const start = resolveTime(instance.start, instance.isFullDay, calendarZone);
  let end = resolveTime(instance.end ?? instance.start, instance.isFullDay, calendarZone);
  if (instance.isFullDay && end.at <= start.at) end = { ...end, at: addDays(start.at, 1) };
  if (end.at < start.at) end = start;
  const occurrence = series.rrule ? occurrenceKey(instance, calendarZone) : null;
  const geo = source.geo as { lat?: unknown; lon?: unknown } | undefined;
  const coords =
    typeof geo?.lat === 'number' && typeof geo.lon === 'number' && Math.abs(geo.lat) <= 90 && Math.abs(geo.lon) <= 180
      ? { latitude: geo.lat, longitude: geo.lon }
      : null;
  return {
    uid: occurrence ? `${uid}#${occurrence}` : uid,
    seriesUid: uid,
    title,
    description: clip(textOf(source.description) ?? textOf(series.description), LIMITS.description),
    start: start.at,
    end: end.at,
    allDay: instance.isFullDay,
    timezone: start.timezone,
    localDate: start.localDate,
    location: clip(textOf(source.location) ?? textOf(series.location), LIMITS.text),
    venueName: null,
    venueAddress: null,
    city: null,
    region: null,
    country: null,
    coords,
    categories: cleanList(source.categories ?? series.categories),
    activities: [],
    url: httpUrl(textOf(source.url as ParameterValue | undefined) ?? textOf(series.url as ParameterValue | undefined)),
  };
}

interface ResolvedTime {
  at: Date;
  timezone: string | null;
  localDate: string;
}

/**
 * node-ical gives date-only and floating values as process-local wall clocks and
 * zoned values as real instants. Whole days are stored as UTC midnights of their
 * date; floating times are read in the calendar's zone (X-WR-TIMEZONE), else UTC.
 */
function resolveTime(value: DateWithTimeZone, allDay: boolean, calendarZone: string | null): ResolvedTime {
  if (allDay || value.dateOnly) {
    const date = ymd(localWallTime(value));
    return { at: utcMidnight(date), timezone: calendarZone, localDate: date };
  }
  const zone = typeof value.tz === 'string' ? normalizeZone(value.tz) : null;
  if (zone) {
    // A UTC time in a calendar that declares its zone: show the calendar's zone.
    const timezone = zone === 'Etc/UTC' && calendarZone ? calendarZone : zone;
    return { at: new Date(value.getTime()), timezone, localDate: localDateOf(value, timezone) };
  }
  const at = instantOf(localWallTime(value), calendarZone ?? 'UTC');
  return { at, timezone: calendarZone, localDate: localDateOf(at, calendarZone) };
}

/** Stable per occurrence: its original start (RECURRENCE-ID for an override), in UTC or as a date. */
function occurrenceKey(instance: EventInstance, calendarZone: string | null): string {
  const original = instance.isOverride && instance.event.recurrenceid ? instance.event.recurrenceid : instance.start;
  const resolved = resolveTime(original, instance.isFullDay, calendarZone);
  return instance.isFullDay ? resolved.localDate : resolved.at.toISOString();
}

function normalizeZone(tz: string): string | null {
  const name = tz.replace(/^"|"$/g, '');
  if (name === 'Z' || name === 'UTC' || name === 'Etc/UTC') return 'Etc/UTC';
  return isTimeZone(name) ? name : null;
}

function calendarTimeZone(value: unknown): string | null {
  return typeof value === 'string' && isTimeZone(value.trim()) ? value.trim() : null;
}

function statusOf(event: { status?: unknown }): string | undefined {
  return typeof event.status === 'string' ? event.status.toUpperCase() : undefined;
}

function textOf(value: ParameterValue | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value : typeof value === 'object' && 'val' in value ? value.val : null;
  return typeof text === 'string' ? text : null;
}
