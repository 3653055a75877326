// A meetup's times: given with an offset they are that instant; without one they are read on the
// host's clock (their IANA zone), which is what a person means by "Thursday at 7".
import { utcOffsetMinutes } from '../availability/zoned';
import { isoInstant } from '../plans/time';

export { isoInstant };

const OFFSET = /(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The instant of an ISO 8601 date-time; one without an offset is local time in `zone` (UTC when
 * the host has none). A local time skipped by a daylight-saving change is read with the offset
 * before the change (02:30 on a spring-forward night becomes 03:30), as calendar apps do.
 */
export function instantOn(text: string, zone: string | null): Date {
  if (OFFSET.test(text)) return new Date(text);
  const asUtc = Date.parse(`${text}Z`);
  if (!zone) return new Date(asUtc);
  // Two passes: the offset at the guess, then at the instant it gives (they differ only near a change).
  const first = asUtc - utcOffsetMinutes(zone, new Date(asUtc)) * 60_000;
  const second = asUtc - utcOffsetMinutes(zone, new Date(first)) * 60_000;
  return new Date(second);
}
