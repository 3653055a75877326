// Every instant a plan answer carries goes through isoInstant, in the reader's zone
// (users.timezone, issue 29 section 1), or UTC with `Z` for a reader without one.
import { formatInstant } from '../availability/zoned';

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
