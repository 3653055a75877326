// GET /api/v1/discover.json: complete profiles near the caller who share an activity
// and free time, ranked by the formula in ranking.ts, paged by an opaque keyset cursor.
//
// Two SQL statements find and rank a page. The first decides what to read: the whole
// circle where its coarse cells hold at most a budget of postings (the exact search), else
// the nearest ~1 km fine cells that fit the budget, and further out the postings of the
// searched pairs of activities (people who share two), so the work of a search is bounded
// whatever the density (issue 42; boundedRead). The second ranks what was read. The key
// of discover_postings ((activity, cell, fine_cell, person), 0007 and 0037) returns only
// people who have one of the searched activities where the search reads, and it carries
// what the filters and score need, so that work stays on a few index pages. The distance (haversine), schedule
// overlap (bit_count of an AND of two bit(126)), age, gender, blocks and buddies are
// checked on those rows.
//
// Every distance is between public points (public-point.ts): the caller's and each
// candidate's, so it is symmetric, and no exact coordinate takes part in anything a
// caller can observe: not the distance shown, the radius filter, the cells searched or
// the ranking.
import { sql, type RawBuilder } from 'kysely';
import { birthdayRangeSql, reachableBirthdays, type BirthdayRange } from '../ages/worlds';
import type { Database } from '@/db';
import { prepared } from '@/db/prepared';
import type { Gender, UserRow } from '@/db/types';
import { gridToBits } from '../availability';
import { pairZones, weeklyOverlap } from '../availability/zoned';
import { DISCOVER_LIMITS, type DiscoverQuery, type DiscoverResponse, type DiscoverResult } from '../contract/discover';
import { ApiError, notFound } from '../core/errors';
import { MISSING_FIELD_ADVICE, missingFields } from '../profiles/onboarding';
import { EARTH_RADIUS_KM, coveringCells, ringCells, type RingCell } from './cells';
import { encodeCursor, filtersFingerprint, readCursorOrThrow } from './cursor';
import { gridOf } from '../availability/zoned-pair';
import { describeSharedTime, readerGridByZone } from './overlap';
import {
  SCORE_ESTIMATE_MARGIN,
  WEIGHTS,
  dayNumber,
  daysInactiveBoundsSql,
  lastActiveLabel,
  scoreBreakdown,
  scoreEstimateSql,
  scoreSql,
} from './ranking';
import { reliabilityDemotedSql, reliabilityFactorSql } from '../plans/reliability';
import { toDiscoverCard, type DiscoverCardSource } from './records';

export const DISCOVER_PATH = '/api/v1/discover.json';

export const RANKING_IN_WORDS =
  `score = ${WEIGHTS.activities.toFixed(2)}·activities + ${WEIGHTS.availability.toFixed(2)}·availability + ` +
  `${WEIGHTS.distance.toFixed(2)}·distance + ${WEIGHTS.recent_activity.toFixed(2)}·recent activity; ` +
  'activities = shared/min(3, searched), availability = min(1, shared hours/10), distance = 1/(1 + km/5), ' +
  'recent activity = 1/(1 + days away/7); ties by nearness, then user id';

/** Everything the SQL needs for one page. */
export interface DiscoverSearch {
  viewerId: string;
  /** The caller's public point (never their exact one). */
  latitude: number;
  longitude: number;
  radiusKm: number;
  activities: readonly string[];
  /** The caller's grid as bit(126) text, on the caller's clock. */
  scheduleBits: string;
  /** The same grid on other zones' clocks (readerGridByZone), so each candidate is compared on their own. */
  shiftedBits: string[];
  shiftIndexByZone: Record<string, number>;
  minOverlapSlots: number;
  genders: readonly Gender[] | null;
  ageMin: number | null;
  ageMax: number | null;
  /** The birthdays the caller may meet (lib/ages: under 18 and adults never see each other). */
  ages: BirthdayRange;
  /** The caller, people either side has blocked, and buddies. */
  excludedIds: readonly string[];
  /** Start of the search: recency is measured from here on every page. */
  asOf: Date;
  /** Keyset: only rows after this (score desc, nearness asc, id asc); nearness in whole metres. */
  after: { score: string; nearness: number; id: string } | null;
  /** Rows to return (a page plus one, to know whether there is a next page). */
  limit: number;
  /**
   * Where candidates are read: every posting in the coarse cells of the circle (null: the
   * exact search), or, in a dense place (boundedRead), the fine cells within `radiusKm` + 0.5
   * (`radiusKm` is then the radius used) and those of the searched pairs further out.
   */
  fineCells: FineCellRead | null;
}

export interface CandidateRow extends DiscoverCardSource {
  schedule: string;
  timezone: string | null;
  /** A pending buddy request between the caller and this person, by direction. */
  pending_request: 'sent' | 'received' | null;
  shared_count: number;
  overlap_slots: number;
  distance_km: number;
  days_inactive: number;
  /** The reliability factor: 1 unless repeatedly reported absent. Never shown. */
  reliability: number;
  /** Exact decimal text from numeric, e.g. "0.7825". */
  score: string;
  /** Whole metres between the two public points: breaks ties of score, nearest first. Never shown. */
  nearness: number;
}

/**
 * Great-circle distance in km from the search origin to a point given by two SQL
 * expressions (haversine, the same sphere as lib/geo's distanceKm). Plain float
 * arithmetic: earthdistance's earth domain checks its constraints on every value and
 * costs about 20x as much per row.
 */
function haversineSql(
  latitude: number,
  longitude: number,
  pointLatitude: RawBuilder<number>,
  pointLongitude: RawBuilder<number>,
) {
  const cosLatitude = Math.cos((latitude * Math.PI) / 180);
  return sql<number>`2 * ${EARTH_RADIUS_KM}::float8 * asin(least(1, sqrt(
      power(sin(radians(${pointLatitude} - ${latitude}::float8) / 2), 2)
    + cos(radians(${pointLatitude})) * ${cosLatitude}::float8 * power(sin(radians(${pointLongitude} - ${longitude}::float8) / 2), 2))))`;
}

/** haversineSql to the public point of the row `alias` (users or discover_postings). */
export function distanceSql(latitude: number, longitude: number, alias = 'u') {
  return haversineSql(latitude, longitude, sql.ref(`${alias}.public_latitude`), sql.ref(`${alias}.public_longitude`));
}

/**
 * Keyset condition "(score, nearness, id) comes after the cursor" in (score desc, nearness
 * asc, id asc) order, for the row `alias` and its column `score`; `scoreType` float8 for the
 * score bounds, compared as real numbers.
 */
function afterCursor(
  alias: string,
  score: string,
  after: DiscoverSearch['after'],
  scoreType: 'numeric' | 'float8' = 'numeric',
) {
  if (!after) return sql`true`;
  const cursorScore = sql`${after.score}::${sql.raw(scoreType)}`;
  const own = sql.ref(`${alias}.${score}`);
  const tie = sql`(${sql.ref(`${alias}.nearness`)}, ${sql.ref(`${alias}.id`)})`;
  return sql`(${own} < ${cursorScore} or (${own} = ${cursorScore} and ${tie} > (${after.nearness}::int, ${after.id}::uuid)))`;
}

/**
 * The ranked page as one SQL statement (exported so the benchmark can EXPLAIN it).
 *
 * Candidates come from discover_postings (0007): one row per (activity, cell, person)
 * whose primary key carries every column the filters and the score need, so they are an
 * index-only scan over a few adjacent leaf pages, however scattered those people are in
 * users. The postings know only the day of someone's last API call, which pins "whole days
 * away" to one of two values (ranking.ts, daysInactiveBounds), so each candidate's score is
 * known to within a small interval. The exact moment is then read from users only for the
 * contenders: candidates not already outranked, for certain, by a full page of others.
 * The result is the same as scoring everyone exactly.
 */
export function discoverQuery(search: DiscoverSearch): RawBuilder<CandidateRow> {
  const activities = [...search.activities];
  const inputs = (daysInactive: RawBuilder<number>) => ({
    sharedActivities: sql<number>`c.shared_count`,
    overlapSlots: sql<number>`c.overlap_slots`,
    distanceKm: sql<number>`c.distance_km`,
    daysInactive,
  });
  const margin = sql.lit(SCORE_ESTIMATE_MARGIN);
  const me = sql`${search.viewerId}::uuid`;

  // Materialized steps (and one OFFSET 0 subquery), so each per-row expression is computed
  // once (PostgreSQL would otherwise repeat it wherever it is used), and no more copies of
  // the candidates are kept than needed. A page is `limit` rows; the threshold is
  // the limit-th by lowest possible score among
  // those surely after the cursor: whoever's highest possible score ranks below it cannot
  // make the page (the `limit` rows up to the threshold each rank, exactly, at or above
  // their lowest score, so above it), and the contenders are the rest of those possibly
  // after the cursor (survivors, materialized so that no plan fetches users rows before
  // pruning). The users rows are fetched one by one by primary key (LIMIT 1 keeps
  // the lateral subquery a parameterized index lookup), and the pending-request flag is
  // looked up for the page's rows only, through the one-pending-request-per-pair index.
  const reliability = sql`c.reliability`;
  return sql<CandidateRow>`
    with demoted as materialized (${reliabilityDemotedSql(search.asOf)}),
    bounded as materialized (
      select c.id, c.shared_count, c.overlap_slots, c.distance_km, c.nearness, c.reliability,
             ${scoreEstimateSql(inputs(sql<number>`c.days_most`), activities.length, reliability)} - ${margin} as score_low,
             ${scoreEstimateSql(inputs(sql<number>`c.days_least`), activities.length, reliability)} + ${margin} as score_high
      from (
        select c.*, ${reliabilityFactorSql(sql`c.id`, 'demoted')} as reliability from (${matchingPeople(search)}) c
        where c.distance_km <= ${search.radiusKm}::float8
          or (c.shared_count >= 2 and c.distance_km <= ${search.fineCells?.pairs?.radiusKm ?? search.radiusKm}::float8)
        offset 0) c
    ), threshold as materialized (
      select b.score_low, b.nearness, b.id from bounded b
      where ${afterCursor('b', 'score_high', search.after, 'float8')}
      order by b.score_low desc, b.nearness asc, b.id asc offset ${search.limit - 1}::int limit 1
    ), survivors as materialized (
      select c.* from bounded c
      where ${afterCursor('c', 'score_low', search.after, 'float8')}
        and not exists (select from threshold t
          where t.score_low > c.score_high or (t.score_low = c.score_high and (t.nearness, t.id) < (c.nearness, c.id)))
    ), contenders as materialized (
      select u.id, u.slug, u.display_name, u.about_me, u.public_location, u.gender, u.birthday,
             u.show_age_by_decade, u.activities, u.photo_url, u.schedule, u.timezone,
             c.shared_count, c.overlap_slots, c.distance_km, c.nearness, c.reliability,
             greatest(0, floor(extract(epoch from (${search.asOf.toISOString()}::timestamptz - u.last_active_at)) / 86400))::int
               as days_inactive
      from survivors c
      cross join lateral (select * from users u where u.id = c.id limit 1) u
    ), ranked as materialized (
      select c.*, ${scoreSql(inputs(sql<number>`c.days_inactive`), activities.length, reliability)} as score
      from contenders c
    ), page as (
      select r.* from ranked r where ${afterCursor('r', 'score', search.after)}
      order by r.score desc, r.nearness asc, r.id asc limit ${search.limit}::int
    )
    select p.*,
           (select case when b.sender_id = ${me} then 'sent' else 'received' end from buddy_requests b
             where b.state = 'pending' and least(b.sender_id, b.recipient_id) = least(p.id, ${me})
               and greatest(b.sender_id, b.recipient_id) = greatest(p.id, ${me})) as pending_request
    from page p
    order by p.score desc, p.nearness asc, p.id asc`;
}

/**
 * One row per person who passes every filter but the radius, within the cells around
 * it: id, shared_count, overlap_slots, distance_km (rounded, as shown) and the bounds on
 * whole days away. One posting per searched activity a person has (they are in one
 * cell), so counting a person's postings counts shared activities; their other columns
 * are the same on each (min() just picks it).
 */
function matchingPeople(search: DiscoverSearch, source = postingsSource(search)): RawBuilder<unknown> {
  const age = sql`extract(year from age(current_date, p.birthday))::int`;
  const ageMin = search.ageMin ?? 0;
  const ageMax = search.ageMax ?? 1000;
  const conditions = [
    sql`p.user_id <> all(${[...search.excludedIds]}::uuid[])`,
    birthdayRangeSql(search.ages, 'p.birthday'),
  ];
  if (search.minOverlapSlots > 0) conditions.push(sql`p.overlap >= ${search.minOverlapSlots}::int`);
  if (search.genders) conditions.push(sql`p.gender = any(${[...search.genders]}::text[])`);
  if (search.ageMin !== null || search.ageMax !== null) {
    // Someone who shows only a decade matches when any age of that decade is in range,
    // so repeated searches with moving bounds cannot pin down their exact age.
    conditions.push(sql`case when p.show_age_by_decade
        then (${age} / 10 * 10) between ${ageMin - 9}::int and ${ageMax}::int
        else ${age} between ${ageMin}::int and ${ageMax}::int end`);
  }
  const days = daysInactiveBoundsSql(sql<number>`min(p.active_day)`, dayNumber(search.asOf));
  // A person's postings are all in one fine cell, read whole or not at all: their activity
  // postings count the searched activities they share; where only their pair postings were
  // read (farther out), n shared activities make n(n-1)/2 pairs.
  const exactKm = haversineSql(
    search.latitude,
    search.longitude,
    sql`min(p.public_latitude)`,
    sql`min(p.public_longitude)`,
  );
  const sharedCount = sql`greatest(count(*) filter (where not p.is_pair),
    round((1 + sqrt(1 + 8 * count(*) filter (where p.is_pair))) / 2))`;
  // The distance once per person (an inner step), then shown in whole km and kept in whole metres for ties
  // (an int: a numeric would be made from the float's text on each of thousands of rows).
  return sql`
      select m.id, m.shared_count, m.overlap_slots, greatest(1, round(m.km))::int as distance_km,
             round(m.km * 1000)::int as nearness, m.days_least, m.days_most
      from (
        select p.user_id as id, ${sharedCount}::int as shared_count,
               min(p.overlap)::int as overlap_slots, ${exactKm} as km,
               ${days.least} as days_least, ${days.most} as days_most
        from ${source} p
        where ${sql.join(conditions, sql` and `)}
        group by p.user_id) m`;
}

/**
 * Hours a week free in both grids, for the posting `p`: the caller's grid on the candidate's
 * clock (shifted where their zones' offsets differ this week; where no zone's clock differs
 * from the caller's, the grid is the same for everyone).
 */
function overlapSql(search: Pick<DiscoverSearch, 'scheduleBits' | 'shiftedBits' | 'shiftIndexByZone'>) {
  const callerBits =
    Object.keys(search.shiftIndexByZone).length === 0
      ? sql`${search.scheduleBits}::bit(126)`
      : sql`coalesce((${search.shiftedBits}::bit(126)[])[(${JSON.stringify(search.shiftIndexByZone)}::jsonb
      ->> p.timezone)::int], ${search.scheduleBits}::bit(126))`;
  return sql<number>`bit_count(p.schedule & ${callerBits})::int`;
}

/** The coarse cells of a circle: every cell within `radiusKm` + 0.5 (results are filtered on the rounded km they show). */
function circleCells(search: Pick<DiscoverSearch, 'latitude' | 'longitude' | 'radiusKm'>): number[] {
  return coveringCells(search.latitude, search.longitude, search.radiusKm + 0.5);
}

/** The pair postings (0037) of the searched activities: "a+b", a < b, as discover_activity_pairs() names them. */
export function pairKeys(activities: readonly string[]): string[] {
  const keys: string[] = [];
  for (const a of activities) for (const b of activities) if (a < b) keys.push(`${a}+${b}`);
  return keys;
}

/**
 * The first `people` people of a fine cell (the lateral's t) in user id order from `from`
 * on, wrapping round: for each key, at most `people` from each side of `from`, in index
 * order, so it reads about a budget's worth however many the cell holds.
 */
function samplePeople(keys: readonly string[], sample: NonNullable<FineCells['sample']>): RawBuilder<unknown> {
  const from = sql`${sample.from}::uuid`;
  const limit = sql`${sample.people}::int`;
  const side = (key: string, after: boolean) =>
    sql`(select q.user_id from discover_postings q
      where q.activity = ${key} and q.cell = t.cell and q.fine_cell = t.fine and ${after ? sql`q.user_id >= ${from}` : sql`q.user_id < ${from}`}
      order by q.user_id limit ${limit})`;
  const sides = keys.flatMap((key) => [side(key, true), side(key, false)]);
  return sql`array(select s.user_id from (${sql.join(sides, sql` union all `)}) s
    group by s.user_id order by s.user_id < ${from}, s.user_id limit ${limit})`;
}

/** The fine cells listed, as the rows t(cell, fine, ord) of a FROM, in the order listed. */
function listedCells(cells: FineCells): RawBuilder<unknown> {
  return sql`unnest(${cells.cells}::int[], ${cells.fines}::int[]) with ordinality as t(cell, fine, ord)`;
}

/**
 * One index range per key and fine cell of `listed` (rows t(cell, fine, ord)), in their order
 * (a nested loop over them).
 */
function fineCellPostings(
  keys: readonly string[],
  listed: RawBuilder<unknown>,
  columns: RawBuilder<unknown>,
  options: { sample?: FineCells['sample']; overlap?: RawBuilder<number> } = {},
) {
  const key = sql`p.activity = any(${[...keys]}::text[]) and p.cell = t.cell and p.fine_cell = t.fine`;
  // One fine cell holding more than a budget: a budget's worth of its people, from the caller's
  // place in user id order onwards (each caller a different share, the same one on every page).
  const sampled = options.sample ? sql`and p.user_id = any(${samplePeople(keys, options.sample)})` : sql``;
  // Computed below the OFFSET 0 fence, so the filter and the count above it read one value per posting.
  const overlap = options.overlap ? sql`, ${options.overlap} as overlap` : sql``;
  return sql`select ${columns} from ${listed}
    cross join lateral (select p.* ${overlap} from discover_postings p where ${key} ${sampled} offset 0) p`;
}

/**
 * The postings a search reads, as a subquery with `is_pair` and `overlap` (hours free in both
 * grids, overlapSql): the searched activities in the
 * coarse cells of the circle (the exact search), or, in a dense place, those in the fine
 * cells within its radius and the searched pairs in the fine cells within the pairs' radius.
 */
export function postingsSource(search: DiscoverSearch, limit?: number): RawBuilder<unknown> {
  const capped = limit === undefined ? sql`` : sql`limit ${limit}::int`;
  const read = search.fineCells;
  const overlap = overlapSql(search);
  if (!read) {
    return sql`(select p.*, false as is_pair, ${overlap} as overlap from discover_postings p
      where p.activity = any(${[...search.activities]}::text[]) and p.cell = any(${circleCells(search)}::int[]) ${capped})`;
  }
  const pairs = read.pairs
    ? sql`union all ${fineCellPostings(pairKeys(search.activities), listedCells(read.pairs), sql`p.*, true as is_pair`, { sample: read.pairs.sample, overlap })}`
    : sql``;
  return sql`(${fineCellPostings(search.activities, listedCells(read), sql`p.*, false as is_pair`, { sample: read.sample, overlap })} ${pairs} ${capped})`;
}

export interface FineCells {
  cells: number[];
  fines: number[];
  /** Only so many people of the one fine cell listed, from this user id on (a cell denser than a budget). */
  sample?: { people: number; from: string };
}

/**
 * What a dense search reads: every searched activity's postings in fine cells covering its
 * radius, and the searched pairs' postings (people who share two or more) in fine cells
 * covering a wider one.
 */
export interface FineCellRead extends FineCells {
  /** The radius read in full, whole km: 0 when not even the nearest km fits the budget (search.radiusKm then bounds only the distance shown). */
  radiusKm: number;
  pairs: (FineCells & { radiusKm: number }) | null;
}

/**
 * The reading budgets of a dense search, in postings of the searched activities: a circle
 * holding at most the first budget of them is read whole (the exact search); otherwise the
 * search reads the fine cells nearest first and keeps the largest whole-km radius whose
 * postings fit the budget, and likewise for the searched pairs with PAIRS_BUDGET_SHARE of it.
 * When that holds less than a page of matches (a filter few people pass), it tries once
 * more with the next budget.
 */
export const DISCOVER_BUDGETS = [2000, 16_000] as const;

/**
 * The pairs' budget as a share of the activities': people who share two searched activities
 * are a few percent of those who share one, so half as many of their postings reach several
 * times as far, and a wider pairs' read mostly costs index descents into near-empty fine
 * cells (measured at 2M in one metro: a third of the CPU saved, recall unchanged; docs/discover.md).
 */
export const PAIRS_BUDGET_SHARE = 0.5;

/**
 * Postings of each kind a round reads with `budget`. A search of one activity has no pairs
 * to widen it, so it reads twice the budget of its activity instead (its page then ties
 * with the exact one however many equal scores a dense cell holds).
 */
export function kindBudgets(budget: number, activities: number): { everyone: number; pairs: number } {
  return activities >= 2
    ? { everyone: budget, pairs: Math.round(budget * PAIRS_BUDGET_SHARE) }
    : { everyone: 2 * budget, pairs: 0 };
}

/**
 * The nearest fine cells read first (about 5 km around): where they alone hold more than the
 * budget (a dense place), the search is placed without counting the whole circle.
 */
const NEAR_FINE_CELLS = 96;

/** Postings in a whole circle so few that it is read whole without looking at its fine cells (any count up to the budget would do). */
const FEW_POSTINGS = 200;

/**
 * The most postings one search reads: the two counts of the circle (FEW_POSTINGS + 1, and
 * the first budget + 1), and per budget, of the activities, the nearest cells' read and the
 * whole circle's (each its budget + 1, the second re-reading the first) and the page's (its
 * budget), of the pairs their read and the page's; of a search of one activity or of
 * several, whichever is more.
 */
export const DISCOVER_POSTINGS_CEILING =
  FEW_POSTINGS +
  1 +
  DISCOVER_BUDGETS[0] +
  1 +
  DISCOVER_BUDGETS.reduce((sum, budget) => {
    const read = ({ everyone, pairs }: { everyone: number; pairs: number }) =>
      3 * everyone + 2 + (pairs > 0 ? 2 * pairs + 1 : 0);
    return sum + Math.max(read(kindBudgets(budget, 1)), read(kindBudgets(budget, 2)));
  }, 0);

/** Fine cells listed for one nearest-first read at most (a 25 km circle has about 2,100). */
const MAX_FINE_CELLS = 12_000;

/** A fine cell is at most this far across (km): a person in a fine cell d km away is less than d + this away. */
const FINE_CELL_DIAGONAL_KM = 2;

/** The fine cells of `rings`, as the SQL takes them (two parallel arrays). */
function fineCellsOf(rings: readonly RingCell[]): FineCells {
  return { cells: rings.map((r) => r.cell), fines: rings.map((r) => r.fine) };
}

/**
 * What to read of `keys` (activities or pairs) with `budget`, nearest first through `rings`,
 * given `n` and `last` from cutSql: the largest whole km r (at most `radiusKm`) such that
 * every posting within r + 0.5 km (shown as r km or less) is among the first `budget`, with
 * the fine cells that cover it. Where not even the nearest km fits (r would be 0), the fine
 * cells read whole before the budget ran out, or a budget's worth of the people of the
 * nearest one.
 */
function nearestRead(
  rings: readonly RingCell[],
  counted: { n: number; last: number | null },
  budget: number,
  options: { radiusKm: number; caller: string; keys: number },
): FineCells & { radiusKm: number } {
  const { n, last } = counted;
  const cut = n <= budget || last === null ? rings.length : last - 1;
  const reachKm = n <= budget && rings.length < MAX_FINE_CELLS ? Number.POSITIVE_INFINITY : (rings[cut]?.km ?? 0);
  const radiusKm = Math.max(0, Math.min(options.radiusKm, Math.floor(reachKm - 0.5)));
  if (radiusKm >= 1) return { radiusKm, ...fineCellsOf(rings.filter((r) => r.km < radiusKm + 0.5)) };
  if (cut > 0) return { radiusKm: 0, ...fineCellsOf(rings.slice(0, cut)) };
  return {
    radiusKm: 0,
    ...fineCellsOf(rings.slice(0, 1)),
    sample: { people: Math.max(1, Math.floor(budget / options.keys)), from: options.caller },
  };
}

/**
 * How many of the first `budget` + 1 postings of `keys` read nearest first through the first
 * `upTo` fine cells of the CTE `rings` there are, and the position of the last one's fine
 * cell: the first not read whole (the fine cells are read in their order, a nested loop).
 * Runs only when `when`.
 */
function cutSql(keys: readonly string[], upTo: number, budget: number, when: RawBuilder<boolean>) {
  return sql`(select count(*)::int as n, max(r.ord)::int as last
    from (${fineCellPostings(keys, sql`rings t`, sql`t.ord`)} where t.ord <= ${upTo}::int and ${when} limit ${budget + 1}::int) r)`;
}

/**
 * What a dense search reads with `budget`: null when the coarse cells of the circle hold no
 * more activity postings than it (the exact search reads them all), else the radius within
 * which it reads everyone and the wider one within which it reads people who share two or
 * more searched activities (nearestRead), and `radiusKm`, what bounds the distance shown.
 * One statement, each step only where the one before leaves the answer open: a count of the
 * circle's postings up to FEW_POSTINGS + 1 (so few: exact); the nearest-first read of the
 * nearest NEAR_FINE_CELLS fine cells (more than the budget there: dense); the probe of the
 * coarse cells up to the budget + 1; the nearest-first read of the whole circle; then the
 * pairs'. One copy of the fine cells (the CTE `rings`) serves every nearest-first read.
 * `caps` (a later page's cursor) can only narrow them.
 */
export async function boundedRead(
  db: Database,
  search: DiscoverSearch,
  budget: number,
  options: { probe: boolean; caps?: { radiusKm?: number; pairsRadiusKm?: number } },
): Promise<Pick<DiscoverSearch, 'radiusKm' | 'fineCells'> | null> {
  const rings = ringCells(search.latitude, search.longitude, search.radiusKm + 0.5, MAX_FINE_CELLS);
  const listed = fineCellsOf(rings);
  const keys = pairKeys(search.activities);
  const { everyone: everyoneBudget, pairs: pairsBudget } = kindBudgets(budget, search.activities.length);
  const nearOnly = rings.length <= NEAR_FINE_CELLS;
  const coarse = (limit: number) => postingsSource({ ...search, fineCells: null }, limit);
  // A few postings in the whole circle (a town, a sparse region): exact, without reading the
  // nearest fine cells, most of them empty there. More than the budget in the nearest cells: dense,
  // without counting the circle (an InitPlan runs only when its CASE branch is taken).
  const few = options.probe
    ? sql`(select count(*)::int as n from ${coarse(FEW_POSTINGS + 1)} p)`
    : sql`(select ${budget + 1}::int as n)`;
  const probeCount = options.probe ? sql`(select count(*)::int from ${coarse(budget + 1)} p)` : sql`${budget + 1}::int`;
  const nearIsEnough = sql<boolean>`near.n > ${everyoneBudget}::int`;
  const dense = sql<boolean>`probe.n > ${budget}::int`;
  const wide = nearOnly
    ? sql`(select null::int as n, null::int as last)`
    : cutSql(search.activities, rings.length, everyoneBudget, sql`not (${nearIsEnough}) and ${dense}`);
  const { rows } = await prepared(sql<{
    probe: number;
    near_n: number;
    near_last: number | null;
    n: number | null;
    last: number | null;
    pn: number | null;
    plast: number | null;
  }>`
    with rings as materialized (select * from ${listedCells(listed)})
    select probe.n as probe, near.n as near_n, near.last as near_last, wide.n, wide.last, pairs.n as pn, pairs.last as plast
    from ${few} few
    cross join lateral ${cutSql(search.activities, NEAR_FINE_CELLS, everyoneBudget, sql`few.n > ${FEW_POSTINGS}::int`)} near
    cross join lateral (select case when ${nearIsEnough} then ${budget + 1}::int
      when few.n <= ${FEW_POSTINGS}::int then few.n else ${probeCount} end as n) probe
    cross join lateral ${wide} wide
    cross join lateral ${keys.length > 0 ? cutSql(keys, rings.length, pairsBudget, dense) : sql`(select null::int as n, null::int as last)`} pairs`).execute(
    db,
  );
  const row = rows[0];
  if (!row || row.probe <= budget) return null;
  const cut =
    nearOnly || row.near_n > everyoneBudget
      ? { n: row.near_n, last: row.near_last }
      : { n: row.n ?? 0, last: row.last };
  const caller = search.viewerId;
  const everyone = nearestRead(rings, cut, everyoneBudget, {
    radiusKm: options.caps?.radiusKm ?? search.radiusKm,
    caller,
    keys: search.activities.length,
  });
  const pairs =
    keys.length === 0 || everyone.radiusKm === search.radiusKm
      ? null
      : nearestRead(rings, { n: row.pn ?? 0, last: row.plast }, pairsBudget, {
          radiusKm: options.caps?.pairsRadiusKm ?? search.radiusKm,
          caller,
          keys: keys.length,
        });
  // The pairs' read is kept where it reaches further than everyone's (a wider radius, or more fine cells below 1 km).
  const further = pairs && (pairs.radiusKm > everyone.radiusKm || pairs.cells.length > everyone.cells.length);
  // Below 1 km, what was read bounds the distance: the nearest fine cells, each within about 2 km.
  const shownKm = everyone.radiusKm >= 1 ? everyone.radiusKm : Math.ceil(0.5 + FINE_CELL_DIAGONAL_KM);
  return {
    radiusKm: Math.min(search.radiusKm, shownKm),
    fineCells: { ...everyone, pairs: further ? pairs : null },
  };
}

/**
 * The page statement is planned generically from its first run (db/prepared.ts). PostgreSQL kept
 * re-planning two of its shapes, the exact search of a sparse place and the sampled fine cell,
 * judging the generic plan dearer on estimates; it runs no slower. Measured on the 2M metro, 300
 * searches each way: a sparse search's ranked page 1.53 → 0.60 ms of database CPU, a dense one
 * 8.5-9.0 → 8.3-8.4 ms.
 */
const PAGE_PLAN = 'generic';

/**
 * The ranked rows of one page (a page plus one): the exact search where the circle is
 * sparse enough, else the bounded one (boundedRead), widened once when a filter leaves less
 * than a page. `used` is what the rows were searched within. A later page passes the first
 * page's radii as `caps`: it reads the same people, and a cursor made up to ask for more
 * still reads no more than the ceiling.
 */
export async function rankedPage(
  db: Database,
  search: DiscoverSearch,
  options: { budgets?: readonly number[]; caps?: { radiusKm?: number; pairsRadiusKm?: number } } = {},
): Promise<{ rows: CandidateRow[]; used: Pick<DiscoverSearch, 'radiusKm' | 'fineCells'> }> {
  const budgets = options.budgets ?? DISCOVER_BUDGETS;
  const whole = { radiusKm: search.radiusKm, fineCells: null };
  let rows: CandidateRow[] = [];
  let used: Pick<DiscoverSearch, 'radiusKm' | 'fineCells'> = whole;
  for (const [round, budget] of budgets.entries()) {
    used = (await boundedRead(db, search, budget, { probe: round === 0, caps: options.caps })) ?? whole;
    rows = (await prepared(discoverQuery({ ...search, ...used }), PAGE_PLAN).execute(db)).rows;
    if (!used.fineCells || rows.length >= search.limit || used.fineCells.radiusKm === search.radiusKm) break;
  }
  return { rows, used };
}

/** The radius a search read everyone within, as radius_km_used says it. */
export function radiusRead(search: DiscoverSearch, used: Pick<DiscoverSearch, 'radiusKm' | 'fineCells'>): number {
  return used.fineCells ? used.fineCells.radiusKm : search.radiusKm;
}

/**
 * How many people a search would find within each of `radii` km (the same filters,
 * blocks and buddies left out), in one statement over the widest circle: what an empty
 * answer says to try. Counts only: never more than Discover itself would show.
 */
export async function matchCounts(
  db: Database,
  search: DiscoverSearch,
  radii: readonly number[],
): Promise<{ counts: number[]; atLeast: boolean }> {
  const widest = { ...search, radiusKm: Math.max(...radii) };
  const columns = radii.map(
    (radius, i) => sql`count(*) filter (where c.distance_km <= ${radius}::float8)::int as ${sql.ref(`within_${i}`)}`,
  );
  // At most COUNT_POSTINGS postings: past that, each count is a floor ("at least").
  const { rows } = await sql<Record<string, number>>`
    with read as materialized (select * from ${postingsSource(widest, COUNT_POSTINGS + 1)} p),
    people as materialized (${matchingPeople(widest, sql`read`)})
    select ${sql.join(columns)}, (select count(*) from read)::int as postings_read from people c`.execute(db);
  return {
    counts: radii.map((_, i) => rows[0]?.[`within_${i}`] ?? 0),
    atLeast: (rows[0]?.postings_read ?? 0) > COUNT_POSTINGS,
  };
}

/** The most postings the counts of an empty answer (and the teaser) read. */
export const COUNT_POSTINGS = 20_000;

/**
 * The caller's row, with everyone they must not see (themselves, people blocked either
 * way, buddies), in one round trip.
 */
export async function loadCaller(db: Database, viewerId: string): Promise<{ caller: UserRow; excludedIds: string[] }> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .select(
      sql<string[]>`array(
        select blocked_id from blocks where blocker_id = users.id
        union select blocker_id from blocks where blocked_id = users.id
        union select user_b from connections where user_a = users.id
        union select user_a from connections where user_b = users.id)`.as('excluded_ids'),
    )
    .where('id', '=', viewerId)
    .executeTakeFirst();
  if (!row) throw notFound('User');
  const { excluded_ids, ...caller } = row;
  return { caller, excludedIds: [viewerId, ...excluded_ids] };
}

/** Discover needs the caller's own place, activities and grid: a complete profile. */
function assertCallerComplete(caller: UserRow): void {
  const missing = missingFields(caller);
  if (missing.length === 0) return;
  throw new ApiError('onboarding_incomplete', `Complete your profile to use Discover: ${missing.join(', ')} missing`, {
    hint: 'Discover shows complete profiles to complete profiles. Supply the missing fields with PATCH /api/v1/me.json (the photo with POST /api/v1/me/photo.json), then search again.',
    fields: Object.fromEntries(missing.map((field) => [field, `required: ${MISSING_FIELD_ADVICE[field]}`])),
  });
}

function searchUrl(baseUrl: string, query: DiscoverQuery, cursor?: string): string {
  const params = new URLSearchParams();
  params.set('radius_km', String(query.radius_km));
  if (query.activities) params.set('activities', query.activities.join(','));
  params.set('available', String(query.available));
  if (query.when) params.set('when', query.when.text);
  if (query.gender) params.set('gender', query.gender.join(','));
  if (query.age_min !== undefined) params.set('age_min', String(query.age_min));
  if (query.age_max !== undefined) params.set('age_max', String(query.age_max));
  params.set('limit', String(query.limit));
  if (cursor) params.set('cursor', cursor);
  return `${baseUrl}${DISCOVER_PATH}?${params.toString()}`;
}

/** The instant whose UTC offsets a search uses for everyone's weekly grid: the start of its hour. */
function zonesAt(asOf: Date): Date {
  return new Date(Math.floor(asOf.getTime() / 3_600_000) * 3_600_000);
}

/** The SQL inputs for one page of a complete caller's search (also used by the benchmark). */
export function searchFor(
  caller: UserRow,
  excludedIds: readonly string[],
  query: DiscoverQuery,
  page: { asOf: Date; after: DiscoverSearch['after'] },
): DiscoverSearch {
  assertCallerComplete(caller);
  const grid = query.when ? query.when.grid : gridOf(caller.schedule);
  const shifted = readerGridByZone(grid, caller.timezone, zonesAt(page.asOf));
  return {
    excludedIds,
    viewerId: caller.id,
    // From the caller's public point too: a distance is the same both ways (A sees B as
    // far away as B sees A), and the exact point takes part in nothing.
    latitude: caller.public_latitude!,
    longitude: caller.public_longitude!,
    radiusKm: query.radius_km,
    activities: query.activities ?? caller.activities,
    // when= stands in for the caller's own free time, and asks for at least an hour of it.
    scheduleBits: gridToBits(grid),
    shiftedBits: shifted.grids,
    shiftIndexByZone: shifted.indexByZone,
    minOverlapSlots: query.when ? Math.max(1, query.available) : query.available,
    genders: query.gender ?? null,
    ageMin: query.age_min ?? null,
    ageMax: query.age_max ?? null,
    ages: reachableBirthdays(caller.birthday, page.asOf),
    asOf: page.asOf,
    after: page.after,
    // A page plus one, to know whether there is a next page.
    limit: query.limit + 1,
    fineCells: null,
  };
}

/** searchFor for a caller by id (loads the caller and whom they must not see). */
export async function searchForCaller(
  db: Database,
  viewerId: string,
  query: DiscoverQuery,
  page: { asOf: Date; after: DiscoverSearch['after'] },
): Promise<DiscoverSearch> {
  const { caller, excludedIds } = await loadCaller(db, viewerId);
  return searchFor(caller, excludedIds, query, page);
}

export interface DiscoverOptions {
  baseUrl: string;
  /** The clock (tests and the benchmark may pin it). */
  now?: Date;
  /**
   * Where the ranked search and the empty-answer counts run: a replica (db/replicas.ts) or
   * `db`. The caller, blocks and buddies are always read from `db`, the primary.
   */
  reads?: Database;
}

export async function discover(
  db: Database,
  viewerId: string,
  query: DiscoverQuery,
  options: DiscoverOptions,
): Promise<DiscoverResponse> {
  const { caller, excludedIds } = await loadCaller(db, viewerId);
  assertCallerComplete(caller);
  if (caller.review_sandbox) return reviewAccountPage(query, caller.activities);
  const activities = query.activities ?? caller.activities;
  // The filters as the caller gave them: the cursor is bound to these.
  const fingerprint = filtersFingerprint({
    radius_km: query.radius_km,
    activities: query.activities ? [...query.activities].sort() : null,
    available: query.available,
    when: query.when ? gridToBits(query.when.grid) : null,
    gender: query.gender ?? null,
    age_min: query.age_min ?? null,
    age_max: query.age_max ?? null,
  });
  const cursor = query.cursor ? readCursorOrThrow(query.cursor, fingerprint) : null;
  const asOf = cursor ? new Date(cursor.asOf) : (options.now ?? new Date());

  const search = searchFor(caller, excludedIds, query, {
    asOf,
    after: cursor
      ? { score: cursor.score, nearness: Math.round(Number(cursor.nearness ?? '0') * 1000), id: cursor.id }
      : null,
  });
  const reads = options.reads ?? db;
  const { rows, used } = await rankedPage(reads, search, {
    caps: cursor ? { radiusKm: cursor.radiusKm, pairsRadiusKm: cursor.pairsRadiusKm } : undefined,
  });
  const radiusKm = radiusRead(search, used);
  const pairsRadiusKm = used.fineCells?.pairs?.radiusKm;

  const page = await stillActive(db, reads, rows.slice(0, query.limit));
  const last = page[page.length - 1];
  const next =
    rows.length > query.limit && last
      ? encodeCursor({
          score: last.score,
          nearness: (last.nearness / 1000).toFixed(3),
          id: last.id,
          asOf: asOf.getTime(),
          filters: fingerprint,
          radiusKm,
          pairsRadiusKm,
        })
      : null;
  const reader = {
    grid: query.when ? query.when.grid : gridOf(caller.schedule),
    timezone: caller.timezone,
    activities: caller.activities,
  };
  // An empty first page says why and what would find someone (issue 30 §3); a first and
  // last page of a few says what would find more (issue 43 §4).
  const explained =
    !cursor && next === null && page.length < FEW_RESULTS
      ? await explainFew(reads, {
          caller,
          excludedIds,
          query,
          asOf,
          baseUrl: options.baseUrl,
          used,
          shown: page.length,
        })
      : {};

  return {
    ...explained,
    results: page.map((row) => toResult(row, activities, reader, zonesAt(asOf), options.baseUrl)),
    next_cursor: next,
    next_url: next ? searchUrl(options.baseUrl, query, next) : null,
    search: searchAsRead(query, activities, radiusKm),
  };
}

/** The answer's `search`: the filters as they were read, and the radius the search used. */
function searchAsRead(query: DiscoverQuery, activities: readonly string[], radiusKmUsed: number) {
  return {
    radius_km: query.radius_km,
    activities: [...activities],
    available: query.available,
    when: query.when?.summary ?? null,
    gender: query.gender ?? null,
    age_min: query.age_min ?? null,
    age_max: query.age_max ?? null,
    radius_km_used: radiusKmUsed,
    ranking: RANKING_IN_WORDS,
  };
}

/** Why the review account's Discover is empty, in the words its answer gives. */
export const REVIEW_ACCOUNT_EMPTY_REASON =
  'This is the review account: it never meets real members, so Discover shows nobody here. ' +
  'Its sample buddies are in its chats (chats.json); its pending buddy request, plans and meetup are in inbox.json.';

/**
 * The review account's Discover (REVIEW_ACCOUNT, lib/review): an empty first page that says why.
 * Its sample people have no postings, and real members are on the other side of its sandbox, so
 * the search itself is never run for it (and needs no filter of its own for anyone else).
 */
function reviewAccountPage(query: DiscoverQuery, callerActivities: readonly string[]): DiscoverResponse {
  return {
    results: [],
    empty_reason: REVIEW_ACCOUNT_EMPTY_REASON,
    suggestions: [],
    next_cursor: null,
    next_url: null,
    search: searchAsRead(query, query.activities ?? callerActivities, query.radius_km),
  };
}

/**
 * A page read from a replica, less anyone disabled or deleted since the replica's snapshot:
 * they vanish at once, as blocks do (those are left out by the primary's exclusion list).
 */
async function stillActive(db: Database, reads: Database, page: CandidateRow[]): Promise<CandidateRow[]> {
  if (reads === db || page.length === 0) return page;
  const active = await db
    .selectFrom('users')
    .select('id')
    .where(
      'id',
      'in',
      page.map((row) => row.id),
    )
    .where('disabled_at', 'is', null)
    .execute();
  const ids = new Set(active.map((row) => row.id));
  return page.filter((row) => ids.has(row.id));
}

/** A first page with fewer results than this (and no next page) carries suggestions. */
export const FEW_RESULTS = 5;

/** The wider circles an empty answer counts in, up to the largest radius a search takes. */
const WIDER_RADII_KM = [50, 100, DISCOVER_LIMITS.radiusKmMax];
const MAX_ACTIVITIES_NAMED = 3;

const peopleCount = (n: number, atLeast = false) =>
  `${atLeast ? 'at least ' : ''}${n === 1 ? '1 person' : `${n} people`}`;

/**
 * Why a first page is empty, and the searches that would find someone, with counts: is
 * it the free time, the gender or age asked for, or the radius? At most three count
 * statements, each with the same blocks and buddies left out, over complete profiles
 * only: every count is a number of people the suggested search itself would show. For a
 * page of a few (`shown`), only the suggestions, each finding more than it shows.
 */
async function explainFew(
  db: Database,
  context: {
    caller: UserRow;
    excludedIds: readonly string[];
    query: DiscoverQuery;
    asOf: Date;
    baseUrl: string;
    /** The radius and fine cells the search read (fineCells null: the whole circle). */
    used: Pick<DiscoverSearch, 'radiusKm' | 'fineCells'>;
    /** How many the page holds (fewer than FEW_RESULTS). */
    shown: number;
  },
): Promise<Pick<DiscoverResponse, 'empty_reason' | 'suggestions'>> {
  const { caller, excludedIds, query, asOf, baseUrl, used, shown } = context;
  const dense = used.fineCells !== null && used.fineCells.radiusKm < query.radius_km;
  // In a dense place the counts are of the people the search read (a wider radius would read
  // the same nearest ones): only the other filters are suggested.
  // Counts stop at COUNT_POSTINGS postings: past that, "at least".
  let atLeast = false;
  const counts = async (q: DiscoverQuery, radii: readonly number[]) => {
    const counted = await matchCounts(
      db,
      { ...searchFor(caller, excludedIds, q, { asOf, after: null }), ...used },
      radii,
    );
    atLeast ||= counted.atLeast;
    return counted.counts;
  };
  const radius = used.radiusKm;
  const radii = [radius, ...(dense ? [] : WIDER_RADII_KM.filter((r) => r > radius))];
  const timeFiltered = query.available > 0 || query.when !== undefined;
  const whoFiltered = query.gender !== undefined || query.age_min !== undefined || query.age_max !== undefined;
  const anyTime: DiscoverQuery = { ...query, available: 0, when: undefined };
  const anyone: DiscoverQuery = { ...query, gender: undefined, age_min: undefined, age_max: undefined };

  const asked = await counts(query, radii);
  const [atAnyTime = 0] = timeFiltered ? await counts(anyTime, [radius]) : [];
  const [anyoneNear = 0] = whoFiltered ? await counts(anyone, [radius]) : [];
  const widerAt = radii.findIndex((_radius, i) => i > 0 && (asked[i] ?? 0) > shown);

  const suggestions: NonNullable<DiscoverResponse['suggestions']> = [];
  const suggest = (change: string, matches: number, q: DiscoverQuery) =>
    suggestions.push({ change, matches, matches_at_least: atLeast, url: searchUrl(baseUrl, q) });
  if (atAnyTime > shown) suggest(query.when ? 'leave out when, available=0' : 'available=0', atAnyTime, anyTime);
  if (anyoneNear > shown) suggest('leave out gender, age_min and age_max', anyoneNear, anyone);
  if (widerAt > 0) suggest(`radius_km=${radii[widerAt]}`, asked[widerAt]!, { ...query, radius_km: radii[widerAt]! });
  if (shown > 0) return { suggestions };

  const activities = (query.activities ?? caller.activities).map((id) => id.replace(/_/g, ' '));
  const named = activities.slice(0, MAX_ACTIVITIES_NAMED).join(' or ');
  const liked = `${named}${activities.length > MAX_ACTIVITIES_NAMED ? ' (or another searched activity)' : ''}`;
  const within = `within ${radius} km${dense ? ' (in a place this dense, the search reads the nearest people)' : ''}`;
  const freeTime = query.when
    ? `free ${query.when.summary}`
    : query.available <= 1
      ? 'free when you are'
      : `free at least ${query.available} hours a week when you are`;
  let reason: string;
  const like = (n: number) => (n === 1 ? 'likes' : 'like');
  if (atAnyTime > 0)
    reason = `${peopleCount(atAnyTime, atLeast)} ${within} ${like(atAnyTime)} ${liked}, but none is ${freeTime}`;
  else if (anyoneNear > 0)
    reason = `${peopleCount(anyoneNear, atLeast)} ${within} ${like(anyoneNear)} ${liked}, but none of the gender or age asked for`;
  else reason = `Nobody ${within} likes ${liked}${timeFiltered ? ` and is ${freeTime}` : ''}`;
  if (widerAt > 0) reason += `; ${peopleCount(asked[widerAt]!, atLeast)} within ${radii[widerAt]} km`;
  reason +=
    suggestions.length > 0
      ? `: try ${suggestions.map((s) => s.change).join(', or ')}.`
      : `${radius < DISCOVER_LIMITS.radiusKmMax && !dense ? `; nobody within ${DISCOVER_LIMITS.radiusKmMax} km either` : ''}: ` +
        'try other activities (list_activities), or search again in a few days as people join.';
  return { empty_reason: reason, suggestions };
}

/**
 * A card's activities in the order that matters to the searcher: the searched ones (the
 * only ones the score counts), then the others the caller has too, then the rest.
 */
export function activitiesForSearcher(
  theirs: readonly string[],
  searched: readonly string[],
  callers: readonly string[],
): string[] {
  const rank = (id: string) => (searched.includes(id) ? 0 : callers.includes(id) ? 1 : 2);
  return theirs
    .map((id, index) => ({ id, index }))
    .sort((a, b) => rank(a.id) - rank(b.id) || a.index - b.index)
    .map((a) => a.id);
}

function toResult(
  row: CandidateRow,
  searchedActivities: readonly string[],
  caller: { grid: ReturnType<typeof gridOf>; timezone: string | null; activities: readonly string[] },
  at: Date,
  baseUrl: string,
): DiscoverResult {
  // As the SQL counted them, shown on the caller's clock.
  const [readerZone, otherZone] = pairZones(caller.timezone, row.timezone);
  const shared = weeklyOverlap(
    { grid: caller.grid, timezone: readerZone },
    { grid: gridOf(row.schedule), timezone: otherZone },
    at,
  );
  const card = toDiscoverCard(row, baseUrl);
  return {
    user: { ...card, activities: activitiesForSearcher(card.activities, searchedActivities, caller.activities) },
    shared_activities: searchedActivities.filter((activity) => row.activities.includes(activity)),
    overlap_hours: row.overlap_slots,
    overlap_summary: describeSharedTime(shared),
    distance_km: row.distance_km,
    last_active: lastActiveLabel(row.days_inactive),
    pending_request: row.pending_request,
    score: Number(row.score),
    score_breakdown: scoreBreakdown({
      sharedActivities: row.shared_count,
      searchedActivities: searchedActivities.length,
      overlapSlots: row.overlap_slots,
      distanceKm: row.distance_km,
      daysInactive: row.days_inactive,
      reliability: Number(row.reliability),
    }),
  };
}
