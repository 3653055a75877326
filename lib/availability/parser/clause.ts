// Clauses: the days and times one phrase names, and whether the next item joins it or starts another.
import { DAYS } from '../grid';
import type { DaysItem, TimeItem } from './items';
import { ALL_DAYS, ALL_SLOTS, reportRounded } from './masks';
import type { SepLevel } from './tokens';

export interface TimeEntry {
  mask: number;
  kind: 'period' | 'open' | 'fixed';
  allDay?: boolean;
  range?: boolean;
}

export interface Clause {
  days: number;
  hasDays: boolean;
  collective: boolean;
  times: TimeEntry[];
  defaultDays: number | null;
  first: 'days' | 'time' | null;
  last: 'days' | 'time' | null;
  /** Unknown words split its times: it stores nothing rather than guess wider. */
  broken?: boolean;
  /** It says "whenever": words we cannot read after it are a condition, and it stores nothing. */
  condition?: boolean;
  /** Day items listed so far ("saturdays, and thursdays from 5:30pm" is two clauses, a list of one each). */
  dayItems: number;
}

/** Slot masks per day, Monday first. */
export type Week = number[];

export function newClause(): Clause {
  return {
    days: 0,
    hasDays: false,
    collective: false,
    times: [],
    defaultDays: null,
    first: null,
    last: null,
    dayItems: 0,
  };
}

export const isEmptyClause = (c: Clause): boolean => !c.hasDays && c.times.length === 0;

/** Whether a day item continues clause c or starts a new one. */
export function joinsDays(c: Clause, item: DaysItem, sep: SepLevel | null): boolean {
  if (isEmptyClause(c)) return true;
  const collectiveBreak = sep !== null && (c.collective || item.collective);
  if (!c.hasDays) return sep === null; // "6-9pm on Wednesdays", but not "evenings, weekends"
  if (c.times.length === 0) return !collectiveBreak; // "Tue and Thu …", not "weekends, Monday"
  // Times came first and days are still being listed: "mornings on Sat and Sun".
  return c.first === 'time' && c.last === 'days' && !collectiveBreak;
}

/** Whether a time item continues clause c or starts a new one. */
export function joinsTime(c: Clause, item: TimeItem, sep: SepLevel | null): boolean {
  if (isEmptyClause(c)) return true;
  if (!c.hasDays) {
    // "morning or evening", but "mornings before work, and all day saturday" is two clauses.
    return sep === null || (!item.allDay && c.defaultDays === null && item.defaultDays === undefined);
  }
  if (c.times.length === 0) return !(c.collective && sep === 'conj' && !item.allDay); // not "weekends and evenings"
  if (item.allDay && sep !== null) return false; // "weekday evenings and all day Sunday"
  if (c.first === 'time' && c.last === 'days' && sep === null) return true; // "at 9:00 on Sunday mornings"
  return c.first === 'days'; // "Saturday mornings and evenings"
}

/**
 * A bare hour's reading after a period: the other one where only it says when in that period
 * ("evenings from 8" is 8pm on, "evenings before 9" until 9pm), else the one guessed.
 */
function readingIn(prev: TimeEntry | undefined, item: TimeItem): number {
  if (item.otherReading === undefined || prev?.kind !== 'period') return item.mask;
  const narrowsPeriod = (mask: number) => (prev.mask & mask) !== 0 && (prev.mask & mask) !== prev.mask;
  if (narrowsPeriod(item.mask) || !narrowsPeriod(item.otherReading)) return item.mask;
  if (item.readingsRounded) reportRounded(item.readingsRounded.other, item.readingsRounded.guessed);
  return item.otherReading;
}

/** Whether time `next`, written right after `prev`, narrows it rather than adding to it. */
function narrows(prev: TimeEntry, next: TimeEntry): boolean {
  if (next.kind === 'period' || (prev.mask & next.mask) === 0) return false; // contradiction: keep both
  return prev.kind === 'period' || (prev.kind === 'open' && next.kind === 'open');
}

export function addToClause(c: Clause, item: DaysItem | TimeItem, sep: SepLevel | null): void {
  if (item.kind === 'days') {
    c.days |= item.mask;
    c.hasDays = true;
    c.dayItems += 1;
    c.collective ||= item.collective;
    c.first ??= 'days';
    c.last = 'days';
    return;
  }
  const prev = c.times[c.times.length - 1];
  if (item.condition) c.condition = true;
  const entry: TimeEntry = {
    mask: readingIn(c.last === 'time' ? prev : undefined, item),
    kind: item.narrows ?? 'period',
    allDay: item.allDay,
    range: item.range,
  };
  const qualifiesDays = sep === null && c.first === 'time' && c.last === 'days' && entry.kind === 'period';
  if (qualifiesDays && c.times.every((t) => (t.mask & entry.mask) !== 0)) {
    // "at 9:00 on Sunday mornings": the period names which part of those days, not more time.
    c.times = c.times.map((t) => ({ ...t, mask: t.mask & entry.mask }));
    c.last = 'time';
    return;
  }
  // A clock time right after a period, or after a comma or bracket ("afternoons, 4:00 to 6:00",
  // "in the evening (4:00 PM until 11:00 PM)"), says when in it; a range states its hours outright.
  // After a comma a point is an example ("early evenings (like 5 p.m.)"), not the whole of the period.
  const narrowing = sep === null || (sep === 'soft' && entry.kind !== 'fixed') || (sep === 'soft' && entry.range);
  if (narrowing && c.last === 'time' && prev && narrows(prev, entry)) {
    const stated = prev.kind === 'period' && entry.range === true;
    c.times[c.times.length - 1] = { mask: stated ? entry.mask : prev.mask & entry.mask, kind: entry.kind };
  } else {
    c.times.push(entry);
  }
  if (item.defaultDays !== undefined) c.defaultDays = (c.defaultDays ?? 0) | item.defaultDays;
  c.first ??= 'time';
  c.last = 'time';
}

export function clauseWeek(c: Clause): Week {
  if (c.broken) return Array.from({ length: DAYS }, () => 0);
  const days = c.hasDays ? c.days : (c.defaultDays ?? ALL_DAYS);
  const slots = c.times.length > 0 ? c.times.reduce((acc, t) => acc | t.mask, 0) : ALL_SLOTS;
  return Array.from({ length: DAYS }, (_, d) => (days & (1 << d) ? slots : 0));
}

export const overlaps = (a: Week, b: Week): boolean => a.some((slots, d) => (slots & (b[d] ?? 0)) !== 0);
