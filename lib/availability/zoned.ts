// Weekly grids in real time. A grid is local time (grid.ts): Saturday 9am means 9am where
// its owner lives. These turn it into instants, and compare two people's grids when their
// zones differ, daylight saving included.
//
// Whole hours: the grid has one-hour slots, so a zone's UTC offset is rounded to the hour
// (halves up: +5:30 → +6, +5:45 → +6, −3:30 → −3) wherever a grid meets real time. A
// Kolkata slot 9-10 is then 03:00-04:00 UTC, shown as 08:30-09:30 +05:30. Instants shown
// (formatInstant) keep the zone's exact offset.
import { FALLBACK_TIMEZONE } from '../geo/timezone';
import { cell, DAYS, FIRST_HOUR, mapGrid, SLOTS, type Grid } from './grid';

const HOUR_MS = 3_600_000;
const WEEK_HOURS = DAYS * 24;

/** A person's weekly grid and the zone it is in. */
export interface ZonedGrid {
  grid: Grid;
  timezone: string;
}

/** [start, end) in real time; both on whole UTC hours where they come from a grid. */
export interface Interval {
  start: Date;
  end: Date;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's exact UTC offset in minutes at an instant (+330 for Asia/Kolkata); throws RangeError for no zone. */
export function utcOffsetMinutes(timezone: string, at: Date): number {
  let format = offsetFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
    offsetFormats.set(timezone, format);
  }
  const text = format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return 0; // "GMT": UTC itself
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The offset a grid uses: whole hours, halves rounded up (see the top of this file). */
export function gridOffsetHours(timezone: string, at: Date): number {
  return Math.floor(utcOffsetMinutes(timezone, at) / 60 + 0.5);
}

/**
 * The zones to read two grids in: each person's own, and for one without a zone (no
 * place yet) the other's, as if they lived alike; UTC when neither has one.
 */
export function pairZones(a: string | null, b: string | null): [string, string] {
  return [a ?? b ?? FALLBACK_TIMEZONE, b ?? a ?? FALLBACK_TIMEZONE];
}

/**
 * The same free hours `hours` later on the clock: a grid in a zone at offset X, read in a
 * zone at offset X + hours. The week wraps (Sunday 11pm + 2 h is Monday 1am of a week
 * that repeats), and hours that land before 6am are dropped: the grid cannot hold them,
 * and nobody in that zone could be free then anyway.
 */
export function shiftGrid(grid: Grid, hours: number): Grid {
  const shifted = mapGrid(() => false);
  if (!Number.isInteger(hours)) throw new RangeError(`shiftGrid takes whole hours, got ${hours}`);
  for (let day = 0; day < DAYS; day++) {
    for (let slot = 0; slot < SLOTS; slot++) {
      if (!cell(grid, day, slot)) continue;
      const weekHour = (((day * 24 + FIRST_HOUR + slot + hours) % WEEK_HOURS) + WEEK_HOURS) % WEEK_HOURS;
      const localHour = weekHour % 24;
      if (localHour >= FIRST_HOUR) shifted[Math.floor(weekHour / 24)]![localHour - FIRST_HOUR] = true;
    }
  }
  return shifted;
}

/**
 * Hours to shift `other`'s grid by to read it in `reader`'s zone at an instant (their
 * rounded offsets' difference): Europe/Madrid read from Europe/Lisbon is −1.
 */
export function shiftBetween(otherZone: string, readerZone: string, at: Date): number {
  return gridOffsetHours(readerZone, at) - gridOffsetHours(otherZone, at);
}

/**
 * The weekly hours both are free, in the reader's zone: the other's grid shifted by the
 * difference of the two zones' offsets at `at` (for a weekly figure such as Discover's
 * "free together", the offsets of the current week). Its slot count is the same whoever reads.
 */
export function weeklyOverlap(reader: ZonedGrid, other: ZonedGrid, at: Date): Grid {
  const shifted = shiftGrid(other.grid, shiftBetween(other.timezone, reader.timezone, at));
  return mapGrid((day, slot) => cell(reader.grid, day, slot) && cell(shifted, day, slot));
}

const ceilHour = (t: number) => Math.ceil(t / HOUR_MS) * HOUR_MS;

/** Whether the person is free during the UTC hour starting at `t`, on their own clock that day. */
function freeAt(person: ZonedGrid, t: number): boolean {
  const local = new Date(t + gridOffsetHours(person.timezone, new Date(t)) * HOUR_MS);
  const day = (local.getUTCDay() + 6) % 7; // 0 = Monday
  const hour = local.getUTCHours();
  return hour >= FIRST_HOUR && cell(person.grid, day, hour - FIRST_HOUR);
}

/** Consecutive hour starts joined into intervals. */
function toIntervals(hourStarts: number[]): Interval[] {
  const intervals: Interval[] = [];
  for (const t of hourStarts) {
    const last = intervals[intervals.length - 1];
    if (last && last.end.getTime() === t) last.end = new Date(t + HOUR_MS);
    else intervals.push({ start: new Date(t), end: new Date(t + HOUR_MS) });
  }
  return intervals;
}

function hourStartsBetween(from: Date, to: Date): number[] {
  const starts: number[] = [];
  for (let t = ceilHour(from.getTime()); t + HOUR_MS <= to.getTime(); t += HOUR_MS) starts.push(t);
  return starts;
}

/**
 * The concrete free time of one person between two instants: the whole UTC hours inside
 * [from, to) that their weekly grid marks free on their own clock that day, so a date
 * after a daylight-saving change uses the new offset. Joined into runs, earliest first.
 */
export function freeIntervals(person: ZonedGrid, from: Date, to: Date): Interval[] {
  return toIntervals(hourStartsBetween(from, to).filter((t) => freeAt(person, t)));
}

/**
 * The hours two people are both free between two instants, each on their own clock:
 * the basis of plan options. Joined into runs, earliest first.
 */
export function sharedIntervals(a: ZonedGrid, b: ZonedGrid, from: Date, to: Date): Interval[] {
  return toIntervals(hourStartsBetween(from, to).filter((t) => freeAt(a, t) && freeAt(b, t)));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** ISO 8601 with the zone's exact offset at that instant: 2026-11-28T09:00:00+01:00. */
export function formatInstant(date: Date, timezone: string): string {
  const offset = utcOffsetMinutes(timezone, date);
  const local = new Date(date.getTime() + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}
