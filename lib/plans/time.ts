// Every instant a plan answer carries goes through isoInstant, in the reader's zone
// (users.timezone, issue 29 section 1), or UTC with `Z` for a reader without one; a time a
// person writes without an offset is read on their own clock (instantOn, issue 44 §2).
import { formatInstant, utcOffsetMinutes } from '../availability/zoned';
import { isIsoDateTime, OFFSET_SUFFIX } from '../contract/schemas';
import { ApiError } from '../core/errors';
import { type LocalMoment, readPlainTime } from './plain-time';

/**
 * ISO 8601 with an offset: in `zone` (an IANA name) when given, with that zone's exact offset
 * on that date (daylight saving included); otherwise UTC with `Z`. An unknown zone falls back to UTC.
 */
export function isoInstant(date: Date, zone?: string | null): string {
  if (!zone) return date.toISOString();
  try {
    return formatInstant(new Date(Math.floor(date.getTime() / 1000) * 1000), zone);
  } catch {
    return date.toISOString();
  }
}

/** Whether an ISO 8601 date-time names its offset (Z or ±hh:mm). */
export const hasOffset = (text: string): boolean => OFFSET_SUFFIX.test(text);

/**
 * The instant of an ISO 8601 date-time; one without an offset is local time in `zone` (UTC when
 * the host has none). A local time skipped by a daylight-saving change is read with the offset
 * before the change (02:30 on a spring-forward night becomes 03:30), as calendar apps do.
 */
export function instantOn(text: string, zone: string | null): Date {
  if (hasOffset(text)) return new Date(text);
  const asUtc = Date.parse(`${text}Z`);
  if (!zone) return new Date(asUtc);
  // Two passes: the offset at the guess, then at the instant it gives (they differ only near a change).
  const first = asUtc - utcOffsetMinutes(zone, new Date(asUtc)) * 60_000;
  const second = asUtc - utcOffsetMinutes(zone, new Date(first)) * 60_000;
  return new Date(second);
}

/**
 * What warnings.normalized says of a time written without an offset: the zone and the instant it
 * was read as (`read`, from instantOn): "starts_at: 2026-12-08T19:00 has no offset, so it was read
 * on your clock (America/Mexico_City): 2026-12-08T19:00:00-06:00". Null for a time with an offset.
 */
export function localTimeNote(field: string, text: string, zone: string | null, read: Date): string | null {
  if (hasOffset(text)) return null;
  return `${field}: ${text} has no offset, so it was read on ${clockOf(zone)}: ${isoInstant(read, zone)}`;
}

const clockOf = (zone: string | null) => (zone ? `your clock (${zone})` : 'UTC (your profile has no time zone)');

const pad = (n: number) => String(n).padStart(2, '0');
const localIso = (m: LocalMoment) => `${m.year}-${pad(m.month)}-${pad(m.day)}T${pad(m.hour)}:${pad(m.minute)}`;

/** The wall clock at `at` in `zone` (UTC without one). */
function localMoment(at: Date, zone: string | null): LocalMoment {
  const iso = isoInstant(at, zone);
  return {
    year: Number(iso.slice(0, 4)),
    month: Number(iso.slice(5, 7)),
    day: Number(iso.slice(8, 10)),
    hour: Number(iso.slice(11, 13)),
    minute: Number(iso.slice(14, 16)),
  };
}

interface ReadTime {
  at: Date;
  /** The end a range gave ("Sat 10-13"), when it gave one. */
  end: Date | null;
  note: string | null;
}

/** One time as written: ISO 8601, or the person's words read on their calendar (`today`). */
function readTime(field: string, text: string, zone: string | null, today: LocalMoment): ReadTime {
  if (isIsoDateTime(text)) {
    const at = instantOn(text, zone);
    return { at, end: null, note: localTimeNote(field, text, zone, at) };
  }
  const reading = readPlainTime(text, today);
  if (!reading.ok)
    throw new ApiError('validation_failed', `${field} could not be read as a time`, {
      hint: 'Write it as the person says it ("Saturday 10am", "tomorrow at 7pm", "Sat 10-13") or as ISO 8601 (2026-06-06T19:00 on your clock).',
      fields: { [field]: reading.problem },
    });
  const at = instantOn(localIso(reading.start), zone);
  const end = reading.end ? instantOn(localIso(reading.end), zone) : null;
  const instants = `${isoInstant(at, zone)}${end ? ` to ${isoInstant(end, zone)}` : ''}`;
  return { at, end, note: `${field}: "${text}" was read as ${reading.read} on ${clockOf(zone)}: ${instants}` };
}

/**
 * A plan's or meetup's times as the person (or their assistant) wrote them: ISO 8601 with or without
 * an offset, or in words ("next Saturday 10am", "Sat 10-13", issue 44 §2), read on `zone`'s clock.
 * `endsAt` is null when neither ends_at nor a range gave one (the caller's default length applies).
 * Each time not given with an offset gets a note for warnings.normalized; words it cannot read, or
 * that could mean two things, are a 400 naming the field with the fix.
 */
export function readTimes(
  body: { starts_at: string; ends_at?: string | null },
  zone: string | null,
  now: Date,
): { startsAt: Date; endsAt: Date | null; notes: string[] } {
  const start = readTime('starts_at', body.starts_at, zone, localMoment(now, zone));
  // An end in words is on the start's day unless it names its own ("Saturday 10am" to "1pm").
  const end = body.ends_at ? readTime('ends_at', body.ends_at, zone, localMoment(start.at, zone)) : null;
  const notes = [start.note, end?.note ?? null].filter((note) => note !== null);
  return { startsAt: start.at, endsAt: end ? end.at : start.end, notes };
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * What is wrong with a plan's or meetup's times, by field (empty when nothing is): a start in the
 * future and at most `maxDaysAhead` away, an end after it and at most `maxDurationHours` later.
 */
export function timeProblems(
  startsAt: Date,
  endsAt: Date,
  now: Date,
  limits: { maxDaysAhead: number; maxDurationHours: number },
): Record<string, string> {
  const fields: Record<string, string> = {};
  if (startsAt.getTime() <= now.getTime()) fields.starts_at = 'must be in the future';
  else if (startsAt.getTime() > now.getTime() + limits.maxDaysAhead * DAY_MS)
    fields.starts_at = `must be at most ${limits.maxDaysAhead} days ahead`;
  if (endsAt.getTime() <= startsAt.getTime()) fields.ends_at = 'must be after starts_at';
  else if (endsAt.getTime() - startsAt.getTime() > limits.maxDurationHours * HOUR_MS)
    fields.ends_at = `must be at most ${limits.maxDurationHours} hours after starts_at`;
  return fields;
}
