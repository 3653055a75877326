/**
 * Reads a grid back in plain English so a person can confirm what we stored, e.g.
 * "Weekday evenings; Saturday and Sunday, all day" or "Tuesday and Thursday evenings (5pm–midnight)".
 *
 * Rules (deterministic): days with identical slots are grouped, groups are ordered by their
 * first day and joined with "; ". A run of slots that is exactly a named period is named
 * (morning/afternoon/evening), any other run is a time range. When the whole summary is a
 * single group, period names also show their hours, since there is room to be explicit.
 * Saturday+Sunday all day is spelled out ("Saturday and Sunday, all day") because "weekends"
 * is the word whose meaning the person is confirming; otherwise "Weekend"/"Weekdays" are used.
 */
import { LRUCache } from 'lru-cache';
import {
  DAY_NAMES,
  DAYS,
  FIRST_HOUR,
  PERIOD_NAMES,
  PERIODS,
  SLOTS,
  cell,
  gridToBits,
  type Grid,
  type Period,
} from './grid';

export const EMPTY_SUMMARY = 'No availability set';

/** "6am", "noon", "5pm", "midnight" for whole hours 0-24. */
export function formatHour(hour: number): string {
  if (hour === 12) return 'noon';
  if (hour === 0 || hour === 24) return 'midnight';
  return hour < 12 ? `${hour}am` : `${hour - 12}pm`;
}

/** "a", "a and b", "a, b and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Maximal runs of consecutive true entries as inclusive [from, to] index pairs. */
function runs(flags: readonly boolean[]): [number, number][] {
  const out: [number, number][] = [];
  flags.forEach((on, i) => {
    const last = out[out.length - 1];
    if (!on) return;
    if (last && last[1] === i - 1) last[1] = i;
    else out.push([i, i]);
  });
  return out;
}

function periodOf([from, to]: [number, number]): Period | null {
  return PERIOD_NAMES.find((p) => PERIODS[p][0] === from && PERIODS[p][1] === to) ?? null;
}

/** "10am–2pm" for the inclusive slot run [from, to]. */
function slotRange([from, to]: [number, number]): string {
  return `${formatHour(from + FIRST_HOUR)}–${formatHour(to + 1 + FIRST_HOUR)}`;
}

export interface DescribeSlotsOptions {
  /** "evenings" rather than "evening" (several days share the slots). */
  plural?: boolean;
  /** Follow period names with their hours: "evening (5pm–midnight)". */
  hours?: boolean;
}

/**
 * One day's slots (18 booleans) in words: "all day", "morning and evening",
 * "10am–2pm and evening". Empty → "".
 */
export function describeSlots(slots: readonly boolean[], options: DescribeSlotsOptions = {}): string {
  const slotRuns = runs(slots.slice(0, SLOTS));
  const [only] = slotRuns;
  if (slotRuns.length === 1 && only && only[0] === 0 && only[1] === SLOTS - 1) return 'all day';
  const parts = slotRuns.map((run) => {
    const period = periodOf(run);
    if (!period) return slotRange(run);
    const name = options.plural ? `${period}s` : period;
    return options.hours ? `${name} (${slotRange(run)})` : name;
  });
  return joinList(parts);
}

interface DayWords {
  /** Stands alone: "Weekdays 6pm–midnight", "Every day, all day". */
  noun: string;
  /** Precedes a period name: "Weekday evenings", "Every morning". */
  adjective: string;
  /** Whether period names after the adjective are plural. */
  plural: boolean;
}

const same = (days: readonly number[], expected: readonly number[]): boolean =>
  days.length === expected.length && days.every((d, i) => d === expected[i]);

/** Day indexes (sorted) in words, using "Weekdays"/"Every day" and ranges of 3+ days. */
export function describeDays(days: readonly number[]): string {
  return dayWords(
    [...days].sort((a, b) => a - b),
    false,
  ).noun;
}

function dayWords(days: readonly number[], allDay: boolean): DayWords {
  if (days.length === DAYS) return { noun: 'Every day', adjective: 'Every', plural: false };
  if (same(days, [0, 1, 2, 3, 4])) return { noun: 'Weekdays', adjective: 'Weekday', plural: true };
  if (same(days, [5, 6]) && !allDay) return { noun: 'Weekends', adjective: 'Weekend', plural: true };
  const flags = Array.from({ length: DAYS }, (_, d) => days.includes(d));
  const pieces = runs(flags).flatMap(([from, to]): string[] => {
    const names = DAY_NAMES.slice(from, to + 1);
    return names.length >= 3 ? [`${DAY_NAMES[from]}–${DAY_NAMES[to]}`] : [...names];
  });
  const text = joinList(pieces);
  return { noun: text, adjective: text, plural: days.length > 1 };
}

function describeGroup(days: readonly number[], slots: readonly boolean[], detailed: boolean): string {
  const slotRuns = runs(slots);
  const isAllDay = describeSlots(slots) === 'all day';
  const words = dayWords(days, isAllDay);
  if (isAllDay) return `${words.noun}, all day`;
  if (slotRuns.every((run) => periodOf(run) !== null)) {
    return `${words.adjective} ${describeSlots(slots, { plural: words.plural, hours: detailed })}`;
  }
  return `${words.noun} ${describeSlots(slots, { plural: words.plural, hours: detailed })}`;
}

/**
 * Summaries already written, by grid: every profile and Discover card read carries one, and
 * people share a few thousand common weeks, so a read mostly finds it here (issue 48).
 */
const summaries = new LRUCache<string, string>({ max: 10_000 });

/** The compact, deterministic confirmation text for a grid. */
export function summarizeGrid(grid: Grid): string {
  const bits = gridToBits(grid);
  let summary = summaries.get(bits);
  if (summary === undefined) summaries.set(bits, (summary = writeSummary(grid)));
  return summary;
}

function writeSummary(grid: Grid): string {
  // Group days by identical slot patterns, in order of first appearance (Monday first).
  const groups = new Map<string, { days: number[]; slots: boolean[] }>();
  for (let d = 0; d < DAYS; d++) {
    const slots = Array.from({ length: SLOTS }, (_, s) => cell(grid, d, s));
    if (!slots.includes(true)) continue;
    const key = slots.map((on) => (on ? '1' : '0')).join('');
    const group = groups.get(key);
    if (group) group.days.push(d);
    else groups.set(key, { days: [d], slots });
  }
  if (groups.size === 0) return EMPTY_SUMMARY;
  const detailed = groups.size === 1;
  return [...groups.values()].map((g) => describeGroup(g.days, g.slots, detailed)).join('; ');
}
