// Bit masks: days as 7 bits (bit 0 = Monday), slots as 18 bits (bit 0 = 6am).
import { DAYS, FIRST_HOUR, PERIODS, SLOTS, type Period } from '../grid';

/** Times off the hour met while parsing one text (the parser is synchronous: one text at a time). */
let roundedTimes: Set<number> | null = null;

/** Starts collecting the times hoursMask rounds, for one parse; the set fills as it runs. */
export function collectRoundedTimes(): Set<number> {
  roundedTimes = new Set();
  return roundedTimes;
}

export function stopCollectingRoundedTimes(): void {
  roundedTimes = null;
}

export const ALL_DAYS = (1 << DAYS) - 1;
export const WEEKDAYS = 0b0011111;
export const WEEKEND = 0b1100000;
export const ALL_SLOTS = (1 << SLOTS) - 1;

/** Slots touched by the half-open hour range [start, end), rounded outward, clamped. */
export function hoursMask(start: number, end: number): number {
  for (const point of [start, end]) if (point % 1 !== 0 && point > FIRST_HOUR && point < 24) roundedTimes?.add(point);
  const from = Math.max(0, Math.floor(start) - FIRST_HOUR);
  const to = Math.min(SLOTS, Math.ceil(end) - FIRST_HOUR);
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
