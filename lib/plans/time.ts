// Every instant a plan answer carries goes through isoInstant, so showing it in the
// reader's time zone (issue 29, section 1: users.timezone) is a change in one place.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/**
 * ISO 8601 with an offset: in `zone` (an IANA name) when given, with that zone's offset on
 * that date (daylight saving included); otherwise UTC with `Z`. An unknown zone falls back to UTC.
 */
export function isoInstant(date: Date, zone?: string | null): string {
  if (!zone) return date.toISOString();
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatterFor(zone).formatToParts(date);
  } catch {
    return date.toISOString();
  }
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  const offsetMinutes = Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const local = new Date(wall);
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`
  );
}
