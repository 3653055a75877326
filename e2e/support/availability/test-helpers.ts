// Shared builders for the availability tests (not part of the public API).
import { emptyGrid, fillSlots, FIRST_HOUR, type Grid } from '@/lib/availability/grid';
import { seededRandom } from '@/lib/seeded-random';

export const MON = 0,
  TUE = 1,
  WED = 2,
  THU = 3,
  FRI = 4,
  SAT = 5,
  SUN = 6;
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

export { seededRandom };
