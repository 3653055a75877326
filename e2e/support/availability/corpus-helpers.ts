// Compact expected grids for the corpus test: "mon-fri 17-24 | sat 6-12,14-16" (hours [from, to) on the
// 24h clock, day names Monday-first, `wd` = Monday-Friday, `we` = Saturday+Sunday, `all` = every day).
import { DAY_KEYS, emptyGrid, fillSlots, FIRST_HOUR, type Grid } from '@/lib/availability/grid';

const DAY_SETS: Record<string, number[]> = { wd: [0, 1, 2, 3, 4], we: [5, 6], all: [0, 1, 2, 3, 4, 5, 6] };

function days(spec: string): number[] {
  return spec.split(',').flatMap((part) => {
    const set = DAY_SETS[part];
    if (set) return set;
    const [from, to] = part.split('-').map((d) => DAY_KEYS.indexOf(d as (typeof DAY_KEYS)[number]));
    if (from === undefined || from < 0 || (to !== undefined && to < 0)) throw new Error(`bad days: ${part}`);
    if (to === undefined) return [from];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/** The grid a compact spec describes; "" is the empty week. */
export function week(spec: string): Grid {
  const grid = emptyGrid();
  for (const group of spec
    .split('|')
    .map((g) => g.trim())
    .filter(Boolean)) {
    const [daySpec = '', hourSpec = '6-24'] = group.split(/\s+/);
    for (const range of hourSpec.split(',')) {
      const [from = 6, to = 24] = range.split('-').map(Number);
      fillSlots(grid, days(daySpec), from - FIRST_HOUR, to - FIRST_HOUR - 1);
    }
  }
  return grid;
}
