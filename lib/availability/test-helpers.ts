// Shared builders for the availability tests (not part of the public API).
import { emptyGrid, fillSlots, FIRST_HOUR, type Grid } from './grid';

export const MON = 0, TUE = 1, WED = 2, THU = 3, FRI = 4, SAT = 5, SUN = 6;
export const WEEKDAYS = [MON, TUE, WED, THU, FRI];
export const WEEKEND = [SAT, SUN];
export const EVERY_DAY = [MON, TUE, WED, THU, FRI, SAT, SUN];

/** A block of cells: the given days, hours [from, to) on the 24h clock. */
export interface Block {
  days: readonly number[];
  from: number;
  to: number;
}

export const at = (days: readonly number[], from: number, to: number): Block => ({ days, from, to });

export function gridOf(...blocks: Block[]): Grid {
  const grid = emptyGrid();
  for (const b of blocks) fillSlots(grid, b.days, b.from - FIRST_HOUR, b.to - FIRST_HOUR - 1);
  return grid;
}

/** Deterministic PRNG (mulberry32) so fuzz and round-trip tests are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
