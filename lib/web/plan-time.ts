// When a plan happens, as the web app says it (issue 29, sections 1 and 8): in the reader's
// own zone (users.timezone, so server and browser agree), and where the buddy lives in
// another zone, their local time too. Pure and dependency-free: it runs in the browser.

const formats = new Map<string, Intl.DateTimeFormat>();

function format(zone: string, kind: 'day' | 'clock' | 'offset'): Intl.DateTimeFormat {
  const key = `${zone}|${kind}`;
  let found = formats.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'day'
        ? { weekday: 'short', day: 'numeric', month: 'short', timeZone: zone }
        : kind === 'clock'
          ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: zone }
          : { timeZone: zone, timeZoneName: 'longOffset' };
    found = new Intl.DateTimeFormat('en-GB', options);
    formats.set(key, found);
  }
  return found;
}

/** A zone the runtime knows, or UTC (a stored name is always known; this guards odd browsers). */
function knownZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** The zone's UTC offset in minutes at an instant (+60 for Europe/Madrid in winter). */
export function offsetMinutes(zone: string, at: Date): number {
  const text =
    format(knownZone(zone), 'offset')
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** "Sat 28 Nov, 10:00–12:00" in a zone; the end's day is named when it differs. */
export function span(start: Date, end: Date, zone: string): string {
  const z = knownZone(zone);
  const day = format(z, 'day');
  const clock = format(z, 'clock');
  const endDay = day.format(end) === day.format(start) ? '' : `${day.format(end)}, `;
  return `${day.format(start)}, ${clock.format(start)}–${endDay}${clock.format(end)}`;
}

/** A zone as people read it: "Europe/Madrid" → "Madrid". */
export function zonePlace(zone: string): string {
  return (zone.split('/').pop() ?? zone).replace(/_/g, ' ');
}

export interface PlanWhen {
  /** In the reader's zone. */
  mine: string;
  /** In the buddy's zone, where its clock differs from the reader's on that date; else null. */
  theirs: string | null;
}

export function planWhen(
  startsAt: string,
  endsAt: string,
  readerZone: string | null,
  buddyZone: string | null,
  buddyFirstName: string,
): PlanWhen {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const mine = knownZone(readerZone);
  const mineText = `${span(start, end, mine)}${readerZone ? '' : ' UTC'}`;
  if (!buddyZone) return { mine: mineText, theirs: null };
  const theirs = knownZone(buddyZone);
  if (offsetMinutes(theirs, start) === offsetMinutes(mine, start)) return { mine: mineText, theirs: null };
  return { mine: mineText, theirs: `${span(start, end, theirs)} for ${buddyFirstName} (${zonePlace(theirs)} time)` };
}

/**
 * The instant a person means by a date and a time of day typed in their zone, as ISO 8601
 * with that zone's offset ("2026-11-28T10:00:00+01:00"). Two passes find the offset that
 * holds at the moment itself, so a date across a daylight-saving change is right.
 */
export function zonedInstant(date: string, time: string, zone: string | null): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})/.exec(time);
  if (!d || !t) return null;
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  const z = knownZone(zone);
  let offset = offsetMinutes(z, new Date(wall));
  offset = offsetMinutes(z, new Date(wall - offset * 60_000));
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d[1]}-${d[2]}-${d[3]}T${t[1]}:${t[2]}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
