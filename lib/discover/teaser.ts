// What Discover shows a profile that is not complete yet (issue 31 §2): not the people, only
// how many complete profiles near the caller's public point like what they like, rounded
// down so that a count cannot tell whether any one person is there (docs/security.md).
import type { Database } from '@/db';
import { emptyGrid, gridToBits } from '../availability';
import { ACTIVITY_IDS } from '../activities';
import { reachableBirthdays } from '../ages/worlds';
import { DISCOVER_LIMITS } from '../contract/limits';
import { type DiscoverField, missingFields } from '../profiles/onboarding';
import { loadCaller, matchCounts } from './search';

/** Counts below this show as 0 (no number); above it they are rounded down to a multiple of it. */
export const TEASER_STEP = 5;
/** The largest count shown ("100+"). */
export const TEASER_CAP = 100;

export interface DiscoverTeaser {
  complete: boolean;
  missing: DiscoverField[];
  /** Null while the caller has no place on the map (nothing to count around). */
  nearby: {
    /** At least this many people (0, or a multiple of TEASER_STEP up to TEASER_CAP). */
    at_least: number;
    radius_km: number;
    /** The caller's own activities the count is about (none: anyone in Discover). */
    activities: string[];
  } | null;
}

/** 0-4 → 0, 5-9 → 5, …, 100 and more → 100. */
export function roundTeaserCount(count: number): number {
  if (count < TEASER_STEP) return 0;
  return Math.min(TEASER_CAP, Math.floor(count / TEASER_STEP) * TEASER_STEP);
}

export async function discoverTeaser(db: Database, viewerId: string): Promise<DiscoverTeaser> {
  const { caller, excludedIds } = await loadCaller(db, viewerId);
  const missing = missingFields(caller);
  if (missing.length === 0) return { complete: true, missing, nearby: null };
  if (caller.public_latitude === null || caller.public_longitude === null)
    return { complete: false, missing, nearby: null };
  const radiusKm = DISCOVER_LIMITS.radiusKmDefault;
  // The same statement an empty Discover answer counts with (complete profiles only, blocks
  // and buddies left out), at any free time: the caller may have none set yet. It reads at
  // most COUNT_POSTINGS postings, far more than the largest count shown.
  const {
    counts: [count = 0],
  } = await matchCounts(
    db,
    {
      viewerId,
      latitude: caller.public_latitude,
      longitude: caller.public_longitude,
      radiusKm,
      activities: caller.activities.length > 0 ? caller.activities : ACTIVITY_IDS,
      scheduleBits: gridToBits(emptyGrid()),
      shiftedBits: [],
      shiftIndexByZone: {},
      minOverlapSlots: 0,
      genders: null,
      ageMin: null,
      ageMax: null,
      ages: reachableBirthdays(caller.birthday),
      excludedIds,
      asOf: new Date(),
      after: null,
      limit: 1,
      fineCells: null,
    },
    [radiusKm],
  );
  return {
    complete: false,
    missing,
    nearby: { at_least: roundTeaserCount(count), radius_km: radiusKm, activities: [...caller.activities] },
  };
}
