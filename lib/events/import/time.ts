// Timezone arithmetic with Intl only: wall-clock times in an IANA zone <-> instants.
const DAY_MS = 86_400_000;

export function isTimeZone(name: string | null | undefined): name is string {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in a zone. */
export function wallTimeIn(instant: Date, timeZone: string): WallTime {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const wallAsUtc = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** The instant a wall-clock time denotes in a zone (the earlier one in a DST overlap). */
export function instantOf(wall: WallTime, timeZone: string): Date {
  const target = wallAsUtc(wall);
  let guess = target;
  // Two rounds settle every real offset change; a time skipped by DST moves forward.
  for (let round = 0; round < 2; round++) {
    const offset = wallAsUtc(wallTimeIn(new Date(guess), timeZone)) - guess;
    guess = target - offset;
  }
  return new Date(guess);
}

/** The process-local wall clock of a Date (how node-ical represents floating and date-only values). */
export function localWallTime(date: Date): WallTime {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function ymd(wall: Pick<WallTime, 'year' | 'month' | 'day'>): string {
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** The calendar date of an instant in a zone (UTC when the zone is unknown). */
export function localDateOf(instant: Date, timeZone: string | null): string {
  return timeZone ? ymd(wallTimeIn(instant, timeZone)) : instant.toISOString().slice(0, 10);
}

/** Midnight UTC of a YYYY-MM-DD date: how whole-day events are stored. */
export function utcMidnight(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}
