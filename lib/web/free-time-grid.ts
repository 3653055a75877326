// The profile editor's tappable week (days x parts of day) and the availability text kept
// in step with it. No grammar of its own: the text is read with lib/availability's parser
// and written with its summary, whose wording that parser reads back to the same grid
// (free-time-grid.test.ts checks the round trip).
import { DAYS, isEmptyGrid, mapGrid, PERIOD_NAMES, PERIODS, type Grid, type Period } from '../availability/grid';
import { parseAvailabilityText } from '../availability/parse';
import { summarizeGrid } from '../availability/summary';

export type PartState = 'free' | 'some' | 'busy';

/** Free, partly free or busy for each day (Monday first) and part of day (morning, afternoon, evening). */
export function partsOfDay(grid: Grid): PartState[][] {
  return Array.from({ length: DAYS }, (_, day) =>
    PERIOD_NAMES.map((period) => {
      const [from, to] = PERIODS[period];
      const cells = grid[day]?.slice(from, to + 1) ?? [];
      const free = cells.filter(Boolean).length;
      return free === 0 ? 'busy' : free === to - from + 1 ? 'free' : 'some';
    }),
  );
}

/** Tapping a part of a day: a wholly free part becomes busy, anything else wholly free. */
export function togglePart(grid: Grid, day: number, period: Period): Grid {
  const [from, to] = PERIODS[period];
  const wasFree = partsOfDay(grid)[day]?.[PERIOD_NAMES.indexOf(period)] === 'free';
  return mapGrid((d, s) => (d === day && s >= from && s <= to ? !wasFree : grid[d]?.[s] === true));
}

/** The grid the availability text stands for (what the server will store). */
export function gridFromText(text: string): Grid {
  return parseAvailabilityText(text).grid;
}

/** The availability text for a grid ("" when nothing is free, which clears it). */
export function textFromGrid(grid: Grid): string {
  return isEmptyGrid(grid) ? '' : summarizeGrid(grid);
}
