/**
 * The weekly availability grid.
 *
 * 7 days x 18 one-hour slots. Day 0 = Monday .. 6 = Sunday. Slot 0 = 6:00-7:00 ..
 * slot 17 = 23:00-24:00 (slot s starts at hour 6 + s). Nothing before 6am is stored:
 * buddies don't meet at 3am, and a narrow grid keeps matching cheap.
 *
 * Stored in PostgreSQL as bit(126), day-major: bit index = day * 18 + slot.
 *
 * Named periods (this is the contract shared by the parser, the summary and the
 * legacy {day, period} input):
 *   morning   = 6:00-12:00  (slots 0-5)
 *   afternoon = 12:00-17:00 (slots 6-10)
 *   evening   = 17:00-24:00 (slots 11-17)   ("night(s)" means evening)
 *   all day   = all 18 slots
 */

export const DAYS = 7;
export const SLOTS = 18;
/** Hour of day at which slot 0 starts. */
export const FIRST_HOUR = 6;
/** grid[day][slot], day 0 = Monday, slot 0 = 6am. */
export type Grid = boolean[][];

export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const DAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type DayKey = (typeof DAY_KEYS)[number];

export type Period = 'morning' | 'afternoon' | 'evening';
/** Inclusive slot ranges of the named periods. */
export const PERIODS: Readonly<Record<Period, readonly [number, number]>> = {
  morning: [0, 5],
  afternoon: [6, 10],
  evening: [11, 17],
};
export const PERIOD_NAMES: readonly Period[] = ['morning', 'afternoon', 'evening'];

export function emptyGrid(): Grid {
  return Array.from({ length: DAYS }, () => Array.from({ length: SLOTS }, () => false));
}

/** A grid with every slot set. */
export function fullGrid(): Grid {
  return Array.from({ length: DAYS }, () => Array.from({ length: SLOTS }, () => true));
}

/** Reads a cell, treating anything missing (ragged input) as unavailable. */
export function cell(grid: Grid, day: number, slot: number): boolean {
  return grid[day]?.[slot] === true;
}

export function gridToBits(grid: Grid): string {
  let bits = '';
  for (let d = 0; d < DAYS; d++) {
    for (let s = 0; s < SLOTS; s++) bits += cell(grid, d, s) ? '1' : '0';
  }
  return bits;
}

/** Parses a bit(126) string; throws RangeError on anything else (corrupt row). */
export function bitsToGrid(bits: string): Grid {
  if (bits.length !== DAYS * SLOTS || !/^[01]*$/.test(bits)) {
    throw new RangeError(
      `Expected ${DAYS * SLOTS} characters of 0/1, got ${JSON.stringify(bits.slice(0, 20))}… (${bits.length} chars)`,
    );
  }
  return mapGrid((d, s) => bits[d * SLOTS + s] === '1');
}

/** Builds a grid from a per-cell predicate. */
export function mapGrid(fn: (day: number, slot: number) => boolean): Grid {
  // Plain loops: every profile read builds one (Array.from's callbacks cost a read 3%, issue 48).
  const grid: Grid = [];
  for (let d = 0; d < DAYS; d++) {
    const day: boolean[] = [];
    for (let s = 0; s < SLOTS; s++) day.push(fn(d, s));
    grid.push(day);
  }
  return grid;
}

/** Union (OR) of any number of grids; no grids gives an empty grid. */
export function mergeGrids(...grids: Grid[]): Grid {
  return mapGrid((d, s) => grids.some((g) => cell(g, d, s)));
}

/** Slots free in both grids (AND): what two buddies can share. */
export function intersectGrids(a: Grid, b: Grid): Grid {
  return mapGrid((d, s) => cell(a, d, s) && cell(b, d, s));
}

/** Slots of a that are not in b. */
export function subtractGrids(a: Grid, b: Grid): Grid {
  return mapGrid((d, s) => cell(a, d, s) && !cell(b, d, s));
}

export function countSlots(grid: Grid): number {
  let n = 0;
  for (let d = 0; d < DAYS; d++) {
    for (let s = 0; s < SLOTS; s++) if (cell(grid, d, s)) n++;
  }
  return n;
}

export function isEmptyGrid(grid: Grid): boolean {
  return countSlots(grid) === 0;
}

/** Sets the inclusive slot range [from, to] on the given days (mutates; for builders). */
export function fillSlots(grid: Grid, days: readonly number[], from: number, to: number): Grid {
  for (const d of days) {
    const row = grid[d];
    if (!row) continue;
    for (let s = Math.max(0, from); s <= Math.min(SLOTS - 1, to); s++) row[s] = true;
  }
  return grid;
}
