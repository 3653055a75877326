// The weekly grid as a small table a person can read: days down, morning / afternoon /
// evening across, each cell "Free", a time range such as "9am–noon", or nothing.
import {
  DAY_NAMES,
  FIRST_HOUR,
  PERIOD_NAMES,
  PERIODS,
  cell,
  formatHour,
  type Grid,
  type Period,
} from '../availability';

export interface AvailabilityCell {
  period: Period;
  state: 'free' | 'some' | 'none';
  text: string;
}

export interface AvailabilityRow {
  day: string;
  cells: AvailabilityCell[];
}

const hours = (p: Period) => `${formatHour(PERIODS[p][0] + FIRST_HOUR)}–${formatHour(PERIODS[p][1] + 1 + FIRST_HOUR)}`;

export const PERIOD_HEADINGS: Record<Period, { name: string; hours: string }> = {
  morning: { name: 'Morning', hours: hours('morning') },
  afternoon: { name: 'Afternoon', hours: hours('afternoon') },
  evening: { name: 'Evening', hours: hours('evening') },
};

export function availabilityTable(grid: Grid): AvailabilityRow[] {
  return DAY_NAMES.map((day, d) => ({
    day,
    cells: PERIOD_NAMES.map((period) => {
      const [from, to] = PERIODS[period];
      const runs: [number, number][] = [];
      for (let s = from; s <= to; s++) {
        if (!cell(grid, d, s)) continue;
        const last = runs[runs.length - 1];
        if (last && last[1] === s - 1) last[1] = s;
        else runs.push([s, s]);
      }
      if (runs.length === 0) return { period, state: 'none' as const, text: 'Not free' };
      if (runs.length === 1 && runs[0]![0] === from && runs[0]![1] === to)
        return { period, state: 'free' as const, text: 'Free' };
      const text = runs.map(([a, b]) => `${formatHour(a + FIRST_HOUR)}–${formatHour(b + 1 + FIRST_HOUR)}`).join(', ');
      return { period, state: 'some' as const, text };
    }),
  }));
}
