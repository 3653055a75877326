// Every instant a plan answer carries goes through isoInstant, in the reader's zone
// (users.timezone, issue 29 section 1), or UTC with `Z` for a reader without one; a time a
// person writes without an offset is read on their own clock (instantOn, issue 44 §2).
import { formatInstant, utcOffsetMinutes } from '../availability/zoned';
import { OFFSET_SUFFIX } from '../contract/schemas';

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
  const clock = zone ? `your clock (${zone})` : 'UTC (your profile has no time zone)';
  return `${field}: ${text} has no offset, so it was read on ${clock}: ${isoInstant(read, zone)}`;
}
