// GET /api/v1/meetups.json: upcoming meetups near the caller, ranked by fit and explained as
// Discover's cards are (issue 45). The work is bounded by the page, not by the city:
//   candidates  for each searched activity and each Discover cell the circle touches (cells.ts,
//               over public points only), the soonest MEETUP_LIMITS.candidatesPerCell open
//               meetups in the time window: one LIMIT-bounded range scan of meetups_search_idx
//               ((activity, cell, starts_at) where open) per pair, so at most
//               activities × cells × candidatesPerCell rows are read however many meetups a city holds;
//   filter      visibility (blocks, closed accounts, age worlds: ./records.ts), the radius between
//               public points, `when`;
//   rank        exactly, in memory: shared activity, free then, distance, seats left.
// Paging is a keyset over (score desc, id asc) with the search's start pinned in the cursor.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { cell as gridCell, FIRST_HOUR } from '../availability/grid';
import { freeIntervals, utcOffsetMinutes } from '../availability/zoned';
import { gridOf } from '../availability/zoned-pair';
import { MEETUP_LIMITS, type MeetupFit, type MeetupQuery, type MeetupRecord } from '../contract/meetups';
import { ApiError } from '../core/errors';
import { coveringCells } from '../discover/cells';
import { encodeCursor, filtersFingerprint, readCursorOrThrow } from '../discover/cursor';
import { greatCircleKm } from '../discover/public-point';
import { myMeetups } from './meetups';
import { type MeetupQueryRow, meetupRows, seatsLeft, toMeetups, visibleTo } from './records';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The weights of the fit score; they add up to 1. */
export const FIT_WEIGHTS = { activity: 0.4, free: 0.3, distance: 0.2, seats: 0.1 } as const;

export interface Searcher {
  id: string;
  birthday: string | null;
  review_sandbox: boolean;
  timezone: string | null;
  public_latitude: number | null;
  public_longitude: number | null;
  activities: string[];
  schedule: string | null;
}

/**
 * The candidates' ids: per (activity, cell) pair the soonest open meetups in the window, each a
 * LIMIT-bounded scan of meetups_search_idx (exported so the tests can EXPLAIN it).
 */
export function candidatesQuery(search: {
  viewerId: string;
  activities: readonly string[];
  cells: readonly number[];
  from: Date;
  to: Date;
  perCell: number;
}) {
  return sql<{ id: string }>`
    select m.id from unnest(${[...search.activities]}::text[]) as a(activity)
    cross join unnest(${[...search.cells]}::int[]) as c(cell)
    cross join lateral (
      select m.id from meetups m
      where m.activity = a.activity and m.cell = c.cell and m.status = 'open'
        and m.starts_at > ${search.from} and m.starts_at <= ${search.to} and m.host_id <> ${search.viewerId}
      order by m.starts_at
      limit ${search.perCell}::int
    ) m`;
}

/** Whether the person's weekly free time covers every hour the meetup touches, on their own clock. */
export function freeThen(person: Pick<Searcher, 'schedule' | 'timezone'>, startsAt: Date, endsAt: Date): boolean {
  const from = new Date(Math.floor(startsAt.getTime() / HOUR_MS) * HOUR_MS);
  const to = new Date(Math.ceil(endsAt.getTime() / HOUR_MS) * HOUR_MS);
  const hours = (to.getTime() - from.getTime()) / HOUR_MS;
  const free = freeIntervals({ grid: gridOf(person.schedule), timezone: person.timezone ?? 'UTC' }, from, to);
  return free.reduce((sum, run) => sum + (run.end.getTime() - run.start.getTime()) / HOUR_MS, 0) === hours;
}

/** Whether a meetup starts in one of the hours a `when` grid marks, on the searcher's clock. */
function startsWithin(grid: boolean[][], startsAt: Date, zone: string | null): boolean {
  const local = new Date(startsAt.getTime() + (zone ? utcOffsetMinutes(zone, startsAt) : 0) * 60_000);
  const hour = local.getUTCHours();
  return hour >= FIRST_HOUR && gridCell(grid, (local.getUTCDay() + 6) % 7, hour - FIRST_HOUR);
}

export function fitOf(
  searcher: Searcher,
  row: Pick<MeetupQueryRow, 'activity' | 'starts_at' | 'ends_at' | 'public_latitude' | 'public_longitude'> & {
    capacity: number;
    confirmed_count: number;
    offered_count: number;
  },
): MeetupFit {
  const km = Math.max(
    1,
    Math.round(
      greatCircleKm(
        { latitude: searcher.public_latitude!, longitude: searcher.public_longitude! },
        { latitude: row.public_latitude, longitude: row.public_longitude },
      ),
    ),
  );
  const shared = searcher.activities.includes(row.activity);
  const free = freeThen(searcher, new Date(row.starts_at), new Date(row.ends_at));
  const seats = Math.max(0, seatsLeft(row));
  const score =
    FIT_WEIGHTS.activity * (shared ? 1 : 0) +
    FIT_WEIGHTS.free * (free ? 1 : 0) +
    FIT_WEIGHTS.distance / (1 + km / 5) +
    FIT_WEIGHTS.seats * (seats > 0 ? 1 : 0);
  const activity = row.activity.replace(/_/g, ' ');
  const why = [
    shared ? `You like ${activity}` : `${activity[0]?.toUpperCase()}${activity.slice(1)} (not on your profile)`,
    free ? 'You are usually free then' : 'Outside your usual free time',
    `${km} km away`,
    seats > 0 ? `${seats} seat${seats === 1 ? '' : 's'} left` : 'Full: join the waitlist',
  ];
  return { shared_activity: shared, free_then: free, distance_km: km, score: Number(score.toFixed(4)), why };
}

function searchUrl(baseUrl: string, query: MeetupQuery, cursor: string): string {
  const params = new URLSearchParams();
  if (query.radius_km !== undefined) params.set('radius_km', String(query.radius_km));
  if (query.activities) params.set('activities', query.activities.join(','));
  if (query.when) params.set('when', query.when.text);
  if (query.days !== undefined) params.set('days', String(query.days));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  params.set('cursor', cursor);
  return `${baseUrl}/api/v1/meetups.json?${params}`;
}

export async function loadSearcher(db: Database, viewerId: string): Promise<Searcher> {
  return db
    .selectFrom('users')
    .select([
      'id',
      'birthday',
      'review_sandbox',
      'timezone',
      'public_latitude',
      'public_longitude',
      'activities',
      'schedule',
    ])
    .where('id', '=', viewerId)
    .executeTakeFirstOrThrow();
}

export async function nearbyMeetups(
  db: Database,
  searcher: Searcher,
  query: MeetupQuery,
  { baseUrl, now = new Date() }: { baseUrl: string; now?: Date },
) {
  if (searcher.public_latitude === null || searcher.public_longitude === null) {
    throw new ApiError('onboarding_incomplete', 'Set where you are to find meetups near you', {
      hint: 'PATCH /api/v1/me.json with location (a city) or coords; view=mine lists yours without it.',
      fields: { location: 'required: a city or coords' },
    });
  }
  const radius = query.radius_km ?? MEETUP_LIMITS.radiusKmDefault;
  const days = query.days ?? MEETUP_LIMITS.daysDefault;
  const limit = query.limit ?? MEETUP_LIMITS.pageDefault;
  const activities = query.activities ?? searcher.activities;
  const fingerprint = filtersFingerprint({
    radius_km: radius,
    activities: [...activities].sort(),
    when: query.when?.text ?? null,
    days,
  });
  const cursor = query.cursor ? readCursorOrThrow(query.cursor, fingerprint) : null;
  const asOf = cursor ? new Date(cursor.asOf) : now;
  const empty = { view: 'nearby' as const, results: [], next_cursor: null, next_url: null };
  if (activities.length === 0) return empty;

  // Half a km more than the radius: results are filtered on the rounded km they show.
  const cells = coveringCells(searcher.public_latitude, searcher.public_longitude, radius + 0.5);
  const { rows: ids } = await candidatesQuery({
    viewerId: searcher.id,
    activities,
    cells,
    from: asOf,
    to: new Date(asOf.getTime() + days * DAY_MS),
    perCell: MEETUP_LIMITS.candidatesPerCell,
  }).execute(db);
  if (ids.length === 0) return empty;
  const rows = (await meetupRows(db, searcher.id)
    .where(
      'm.id',
      'in',
      ids.map((row) => row.id),
    )
    .where(visibleTo(searcher, now))
    .execute()) as MeetupQueryRow[];

  const ranked = rows
    .filter((row) => !query.when || startsWithin(query.when.grid, new Date(row.starts_at), searcher.timezone))
    .map((row) => ({ row, fit: fitOf(searcher, row) }))
    .filter(({ fit }) => fit.distance_km <= radius)
    .sort((a, b) => b.fit.score - a.fit.score || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0))
    .filter(
      ({ row, fit }) =>
        !cursor || fit.score < Number(cursor.score) || (fit.score === Number(cursor.score) && row.id > cursor.id),
    );
  const page = ranked.slice(0, limit);
  const records = await toMeetups(
    db,
    page.map((p) => p.row),
    searcher.id,
    baseUrl,
    now,
  );
  const last = page.at(-1);
  const next =
    ranked.length > limit && last
      ? encodeCursor({ score: last.fit.score.toFixed(4), id: last.row.id, asOf: asOf.getTime(), filters: fingerprint })
      : null;
  return {
    view: 'nearby' as const,
    results: records.map((meetup: MeetupRecord, i) => ({ meetup, fit: page[i]!.fit })),
    next_cursor: next,
    next_url: next ? searchUrl(baseUrl, query, next) : null,
  };
}

/** GET meetups.json: view=nearby (default) or view=mine. */
export async function findMeetups(
  db: Database,
  { viewerId, query, baseUrl, now = new Date() }: { viewerId: string; query: MeetupQuery; baseUrl: string; now?: Date },
) {
  const searcher = await loadSearcher(db, viewerId);
  if (query.view === 'mine')
    return myMeetups(
      db,
      searcher,
      { limit: query.limit ?? MEETUP_LIMITS.pageDefault, cursor: query.cursor },
      baseUrl,
      now,
    );
  return nearbyMeetups(db, searcher, query, { baseUrl, now });
}
