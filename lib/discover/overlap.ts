// Shared free time: the slots free in both people's weekly grids, in the forms an
// agent needs to propose a time (grid, plain English, runs of hours).
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import {
  DAY_KEYS,
  DAYS,
  EMPTY_SUMMARY,
  FIRST_HOUR,
  SLOTS,
  cell,
  countSlots,
  gridToBits,
  summarizeGrid,
  type Grid,
} from '../availability';
import { gridOffsetHours, shiftGrid, weeklyOverlap } from '../availability/zoned';
import type { OverlapResponse } from '../contract/discover';
import { KNOWN_TIMEZONES } from '../geo/timezone';
import { eitherBlocked } from '../blocks/status';
import { ApiError } from '../core/errors';
import { getActiveUserOrThrow, getUserOrThrow } from '../profiles/profile';
import { zonedPair } from '../availability/zoned-pair';
import { toDiscoverCard } from './records';

// Moved to lib/availability/zoned-pair.ts so plans can use them without importing discover.

export const NO_SHARED_TIME = 'No shared free time';

export interface SharedWindow {
  day: (typeof DAY_KEYS)[number];
  start: string;
  end: string;
  hours: number;
}

const clock = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * The hours free in both weekly grids, in the reader's zone, with this week's offsets
 * (weeklyOverlap): what Discover and overlap.json call free together.
 */
export function freeTogether(
  reader: Pick<UserRow, 'schedule' | 'timezone'>,
  other: Pick<UserRow, 'schedule' | 'timezone'>,
  at: Date,
): Grid {
  const [a, b] = zonedPair(reader, other);
  return weeklyOverlap(a, b, at);
}

/** Each zone's grid offset in one UTC hour, computed once per hour (offsets change on the hour). */
let offsetsCache: { hour: number; offsets: Map<string, number> } | null = null;
function offsetsAt(at: Date): Map<string, number> {
  const hour = Math.floor(at.getTime() / 3_600_000);
  if (offsetsCache?.hour !== hour) {
    const instant = new Date(hour * 3_600_000);
    offsetsCache = { hour, offsets: new Map(KNOWN_TIMEZONES.map((zone) => [zone, gridOffsetHours(zone, instant)])) };
  }
  return offsetsCache.offsets;
}

/**
 * The reader's grid as read on each other zone's clock, for SQL that compares it with
 * each candidate's own grid: `grids` holds one bit(126) text per shift other than none,
 * and `indexByZone` names the 1-based entry for every known zone whose clock differs
 * from the reader's this hour. Zones not in it (the reader's own, same-offset ones,
 * unknown) compare with the reader's grid as it is. A reader without a zone differs from nobody.
 */
export function readerGridByZone(
  readerGrid: Grid,
  readerZone: string | null,
  at: Date,
): { grids: string[]; indexByZone: Record<string, number> } {
  const grids: string[] = [];
  const indexByZone: Record<string, number> = {};
  if (readerZone === null) return { grids, indexByZone };
  const offsets = offsetsAt(at);
  const own = offsets.get(readerZone) ?? gridOffsetHours(readerZone, at);
  const indexByShift = new Map<number, number>();
  for (const [zone, offset] of offsets) {
    const shift = offset - own;
    if (shift === 0) continue;
    let index = indexByShift.get(shift);
    if (index === undefined) {
      grids.push(gridToBits(shiftGrid(readerGrid, shift)));
      index = grids.length;
      indexByShift.set(shift, index);
    }
    indexByZone[zone] = index;
  }
  return { grids, indexByZone };
}

/** Each maximal run of consecutive free slots, Monday first, as clock times. */
export function sharedWindows(grid: Grid): SharedWindow[] {
  const windows: SharedWindow[] = [];
  for (let day = 0; day < DAYS; day++) {
    let start = -1;
    for (let slot = 0; slot <= SLOTS; slot++) {
      const free = slot < SLOTS && cell(grid, day, slot);
      if (free && start < 0) start = slot;
      if (!free && start >= 0) {
        windows.push({
          day: DAY_KEYS[day]!,
          start: clock(FIRST_HOUR + start),
          end: clock(FIRST_HOUR + slot),
          hours: slot - start,
        });
        start = -1;
      }
    }
  }
  return windows;
}

/** Plain English for shared time; "No shared free time" rather than the profile wording. */
export function describeSharedTime(grid: Grid): string {
  const summary = summarizeGrid(grid);
  return summary === EMPTY_SUMMARY ? NO_SHARED_TIME : summary;
}

function explainNoSharedTime(caller: UserRow, other: UserRow): string {
  if (!caller.schedule?.includes('1'))
    return `${NO_SHARED_TIME}: your availability is not set (PATCH /api/v1/me.json with availability_text)`;
  if (!other.schedule?.includes('1')) return `${NO_SHARED_TIME}: this person has not set their availability`;
  return NO_SHARED_TIME;
}

/**
 * Free together with each of several people, for a list such as the Requests page: hours
 * a week and in words, by user id (people not found are left out).
 */
export async function freeTogetherWithEach(
  db: Database,
  reader: Pick<UserRow, 'schedule' | 'timezone'>,
  otherIds: readonly string[],
  at = new Date(),
): Promise<Record<string, { hours: number; summary: string }>> {
  const ids = [...new Set(otherIds)];
  if (ids.length === 0) return {};
  const others = await db.selectFrom('users').select(['id', 'schedule', 'timezone']).where('id', 'in', ids).execute();
  return Object.fromEntries(
    others.map((other) => {
      const grid = freeTogether(reader, other, at);
      return [other.id, { hours: countSlots(grid), summary: describeSharedTime(grid) }];
    }),
  );
}

/**
 * GET /users/{slug}/overlap.json. Anyone's weekly grid is already on their public
 * profile, so this needs no completeness; a block either way reads as not found,
 * as if the person did not exist, so a block is never revealed.
 */
export async function sharedFreeTime(
  db: Database,
  {
    viewerId,
    slugOrId,
    baseUrl,
    now,
    reads = db,
  }: { viewerId: string; slugOrId: string; baseUrl: string; now?: Date; reads?: Database },
): Promise<OverlapResponse> {
  // The other person may come from a replica; the caller and blocks always from the primary.
  const other: UserRow = await getActiveUserOrThrow(db, reads, slugOrId, viewerId);
  if (other.id === viewerId) {
    throw new ApiError('cannot_target_self', 'That is you: shared free time needs another person', {
      hint: "Use the other person's slug, e.g. from a discover result.",
    });
  }
  if (await eitherBlocked(db, viewerId, other.id)) {
    throw new ApiError('not_found', `No user with slug or id "${slugOrId}"`, {
      hint: 'Check the slug; it is the last part of the profile_url.',
    });
  }
  const caller = await getUserOrThrow(db, viewerId);
  // Each on their own clock, shown on the caller's.
  const grid = freeTogether(caller, other, now ?? new Date());
  const hours = countSlots(grid);
  return {
    user: toDiscoverCard(other, baseUrl),
    overlap: {
      hours_per_week: hours,
      summary: hours > 0 ? describeSharedTime(grid) : explainNoSharedTime(caller, other),
      windows: sharedWindows(grid),
      grid,
    },
  };
}
