// Two people's weekly grids and zones, ready to compare: shared by Discover (lib/discover/overlap.ts)
// and plan options (lib/plans/options.ts), so it sits below both.
import type { UserRow } from '@/db/types';
import { bitsToGrid, emptyGrid, type Grid } from './grid';
import { pairZones } from './zoned';

export function gridOf(bits: string | null): Grid {
  return bits ? bitsToGrid(bits) : emptyGrid();
}

/** A person's grid and zone for comparing with someone else's (pairZones: a missing zone borrows the other's). */
export function zonedPair(
  reader: Pick<UserRow, 'schedule' | 'timezone'>,
  other: Pick<UserRow, 'schedule' | 'timezone'>,
): [{ grid: Grid; timezone: string }, { grid: Grid; timezone: string }] {
  const [readerZone, otherZone] = pairZones(reader.timezone, other.timezone);
  return [
    { grid: gridOf(reader.schedule), timezone: readerZone },
    { grid: gridOf(other.schedule), timezone: otherZone },
  ];
}
