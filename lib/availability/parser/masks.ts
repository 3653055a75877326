// Bit masks: days as 7 bits (bit 0 = Monday), slots as 18 bits (bit 0 = 6am).
import { DAYS, FIRST_HOUR, PERIODS, SLOTS, type Period } from '../grid';

/** A time off the hour, and whether it starts or ends the free time it was written in. */
export interface RoundedTime {
  time: number;
  role: 'start' | 'end';
}

/** Times off the hour met while parsing one text (the parser is synchronous: one text at a time), by roundedKey. */
let roundedTimes: Map<string, RoundedTime> | null = null;

const roundedKey = (t: RoundedTime) => `${t.role}${t.time}`;

/** Starts collecting the times hoursMask rounds, for one parse; the map fills as it runs. */
export function collectRoundedTimes(): Map<string, RoundedTime> {
  roundedTimes = new Map();
  return roundedTimes;
}

export function stopCollectingRoundedTimes(): void {
  roundedTimes = null;
}

/** Runs `fn` with the times it rounds kept aside (a reading that may not be the one used). */
export function roundedBy<T>(fn: () => T): { value: T; rounded: RoundedTime[] } {
  const outer = roundedTimes;
  const own = new Map<string, RoundedTime>();
  roundedTimes = outer ? own : null;
  try {
    return { value: fn(), rounded: [...own.values()] };
  } finally {
    roundedTimes = outer;
  }
}

/** Reports `times` as rounded (the reading used), and no longer `instead` (the one not used). */
export function reportRounded(times: readonly RoundedTime[], instead: readonly RoundedTime[] = []): void {
  for (const t of instead) roundedTimes?.delete(roundedKey(t));
  for (const t of times) roundedTimes?.set(roundedKey(t), t);
}

export const ALL_DAYS = (1 << DAYS) - 1;
export const WEEKDAYS = 0b0011111;
export const WEEKEND = 0b1100000;
export const ALL_SLOTS = (1 << SLOTS) - 1;

/**
 * Whole slots within the half-open hour range [start, end), clamped: a start off the hour counts
 * from the next hour and an end off the hour up to its own, so the grid never claims time the
 * person did not offer ("5:30pm to 9:30pm" is 6pm-9pm).
 */
export function hoursMask(start: number, end: number): number {
  for (const t of [
    { time: start, role: 'start' },
    { time: end, role: 'end' },
  ] as const) {
    if (t.time % 1 !== 0 && t.time > FIRST_HOUR && t.time < 24) roundedTimes?.set(roundedKey(t), t);
  }
  const from = Math.max(0, Math.ceil(start) - FIRST_HOUR);
  const to = Math.min(SLOTS, Math.floor(end) - FIRST_HOUR);
  let mask = 0;
  for (let s = from; s < to; s++) mask |= 1 << s;
  return mask;
}

export function periodMask(period: Period): number {
  const [from, to] = PERIODS[period];
  return hoursMask(from + FIRST_HOUR, to + 1 + FIRST_HOUR);
}

export function dayRangeMask(from: number, to: number): number {
  let mask = 0;
  // Wraps past Sunday, so "Fri-Mon" is Fri, Sat, Sun, Mon.
  for (let d = from; ; d = (d + 1) % DAYS) {
    mask |= 1 << d;
    if (d === to) return mask;
  }
}
