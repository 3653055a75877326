// GET /api/v1/discover.json: complete profiles near the caller who share an activity
// and free time, ranked by the formula in ranking.ts, paged by an opaque keyset cursor.
//
// One SQL statement finds and ranks a page. The radius is an index condition on the
// partial GiST index over ll_to_earth(latitude, longitude), the activities one on the
// partial GIN index over activities (PostgreSQL can AND the two bitmaps); schedule
// overlap (bit_count of an AND of two bit(126)), age, gender, blocks and buddies are
// checked on the rows those indexes return.
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '@/db';
import type { Gender, UserRow } from '@/db/types';
import { intersectGrids } from '../availability';
import type { DiscoverQuery, DiscoverResponse, DiscoverResult } from '../contract/discover';
import { ApiError } from '../http/errors';
import { MISSING_FIELD_ADVICE, missingFields } from '../profiles/onboarding';
import { getUserOrThrow } from '../profiles/profile';
import { encodeCursor, filtersFingerprint, readCursorOrThrow } from './cursor';
import { describeSharedTime, gridOf } from './overlap';
import { WEIGHTS, lastActiveLabel, scoreBreakdown, scoreSql } from './ranking';
import { toDiscoverCard, type DiscoverCardSource } from './records';

export const DISCOVER_PATH = '/api/v1/discover.json';

export const RANKING_IN_WORDS =
  `score = ${WEIGHTS.activities.toFixed(2)}·activities + ${WEIGHTS.availability.toFixed(2)}·availability + ` +
  `${WEIGHTS.distance.toFixed(2)}·distance + ${WEIGHTS.recent_activity.toFixed(2)}·recent activity; ` +
  'activities = shared/min(3, searched), availability = min(1, shared hours/10), distance = 1/(1 + km/5), ' +
  'recent activity = 1/(1 + days away/7); ties by user id';

/** Everything the SQL needs for one page. */
export interface DiscoverSearch {
  callerId: string;
  latitude: number;
  longitude: number;
  radiusKm: number;
  activities: readonly string[];
  /** The caller's grid as bit(126) text. */
  scheduleBits: string;
  minOverlapSlots: number;
  genders: readonly Gender[] | null;
  ageMin: number | null;
  ageMax: number | null;
  /** Start of the search: recency is measured from here on every page. */
  asOf: Date;
  /** Keyset: only rows after this (score desc, id asc). */
  after: { score: string; id: string } | null;
  /** Rows to return (a page plus one, to know whether there is a next page). */
  limit: number;
}

export interface CandidateRow extends DiscoverCardSource {
  schedule: string;
  shared_activities: string[];
  overlap_slots: number;
  distance_km: number;
  days_inactive: number;
  /** Exact decimal text from numeric, e.g. "0.7825". */
  score: string;
}

/** The ranked page as one SQL statement (exported so the benchmark can EXPLAIN it). */
export function discoverQuery(search: DiscoverSearch): RawBuilder<CandidateRow> {
  const activities = [...search.activities];
  const origin = sql`ll_to_earth(${search.latitude}::float8, ${search.longitude}::float8)`;
  // Half a km more than the radius: results are filtered on the rounded km they show.
  const boxMeters = (search.radiusKm + 0.5) * 1000;
  const score = scoreSql(
    {
      sharedActivities: sql<number>`cardinality(m.shared_activities)`,
      overlapSlots: sql<number>`m.overlap_slots`,
      distanceKm: sql<number>`m.distance_km`,
      daysInactive: sql<number>`m.days_inactive`,
    },
    activities.length,
  );
  const age = sql`extract(year from age(current_date, u.birthday))::int`;
  const ageMin = search.ageMin ?? 0;
  const ageMax = search.ageMax ?? 1000;
  const conditions = [
    sql`u.onboarding_complete`,
    sql`earth_box(${origin}, ${boxMeters}::float8) @> ll_to_earth(u.latitude, u.longitude)`,
    sql`u.activities && ${activities}::text[]`,
    sql`u.id <> ${search.callerId}::uuid`,
    sql`not exists (select 1 from blocks b where b.blocker_id = ${search.callerId}::uuid and b.blocked_id = u.id)`,
    sql`not exists (select 1 from blocks b where b.blocker_id = u.id and b.blocked_id = ${search.callerId}::uuid)`,
    sql`not exists (select 1 from connections k
          where k.user_a = least(u.id, ${search.callerId}::uuid) and k.user_b = greatest(u.id, ${search.callerId}::uuid))`,
  ];
  if (search.minOverlapSlots > 0) {
    conditions.push(sql`bit_count(u.schedule & ${search.scheduleBits}::bit(126)) >= ${search.minOverlapSlots}::int`);
  }
  if (search.genders) conditions.push(sql`u.gender = any(${[...search.genders]}::text[])`);
  if (search.ageMin !== null || search.ageMax !== null) {
    // Someone who shows only a decade matches when any age of that decade is in range,
    // so repeated searches with moving bounds cannot pin down their exact age.
    conditions.push(sql`case when u.show_age_by_decade
        then (${age} / 10 * 10) between ${ageMin - 9}::int and ${ageMax}::int
        else ${age} between ${ageMin}::int and ${ageMax}::int end`);
  }
  const keyset = search.after
    ? sql`and (c.score < ${search.after.score}::numeric or (c.score = ${search.after.score}::numeric and c.id > ${search.after.id}::uuid))`
    : sql``;

  return sql<CandidateRow>`
    select c.* from (
      select u.id, u.slug, u.display_name, u.about_me, u.public_location, u.gender, u.birthday,
             u.show_age_by_decade, u.activities, u.photo_url, u.schedule,
             m.shared_activities, m.overlap_slots, m.distance_km, m.days_inactive,
             ${score} as score
      from users u
      cross join lateral (
        select
          array(select a from unnest(${activities}::text[]) with ordinality as s(a, n)
                where a = any(u.activities) order by n) as shared_activities,
          bit_count(u.schedule & ${search.scheduleBits}::bit(126))::int as overlap_slots,
          greatest(1, round(earth_distance(ll_to_earth(u.latitude, u.longitude), ${origin}) / 1000))::int as distance_km,
          greatest(0, floor(extract(epoch from (${search.asOf.toISOString()}::timestamptz - u.last_active_at)) / 86400))::int
            as days_inactive
      ) m
      where ${sql.join(conditions, sql` and `)}
    ) c
    where c.distance_km <= ${search.radiusKm}::float8 ${keyset}
    order by c.score desc, c.id asc
    limit ${search.limit}::int`;
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

/** pending_request per candidate id: sent by the caller, or received from them. */
async function pendingRequests(db: Database, callerId: string, ids: readonly string[]): Promise<Map<string, 'sent' | 'received'>> {
  const flags = new Map<string, 'sent' | 'received'>();
  if (ids.length === 0) return flags;
  const rows = await db
    .selectFrom('buddy_requests')
    .select(['sender_id', 'recipient_id'])
    .where('state', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb.and([eb('sender_id', '=', callerId), eb('recipient_id', 'in', ids)]),
        eb.and([eb('recipient_id', '=', callerId), eb('sender_id', 'in', ids)]),
      ]),
    )
    .execute();
  for (const row of rows) {
    if (row.sender_id === callerId) flags.set(row.recipient_id, 'sent');
    else flags.set(row.sender_id, 'received');
  }
  return flags;
}

function nextUrl(baseUrl: string, query: DiscoverQuery, cursor: string): string {
  const params = new URLSearchParams();
  params.set('radius_km', String(query.radius_km));
  if (query.activities) params.set('activities', query.activities.join(','));
  params.set('available', String(query.available));
  if (query.gender) params.set('gender', query.gender.join(','));
  if (query.age_min !== undefined) params.set('age_min', String(query.age_min));
  if (query.age_max !== undefined) params.set('age_max', String(query.age_max));
  params.set('limit', String(query.limit));
  params.set('cursor', cursor);
  return `${baseUrl}${DISCOVER_PATH}?${params.toString()}`;
}

/** The SQL inputs for one page of a complete caller's search (also used by the benchmark). */
export function searchFor(
  caller: UserRow,
  query: DiscoverQuery,
  page: { asOf: Date; after: DiscoverSearch['after'] },
): DiscoverSearch {
  assertCallerComplete(caller);
  return {
    callerId: caller.id,
    latitude: caller.latitude!,
    longitude: caller.longitude!,
    radiusKm: query.radius_km,
    activities: query.activities ?? caller.activities,
    scheduleBits: caller.schedule!,
    minOverlapSlots: query.available,
    genders: query.gender ?? null,
    ageMin: query.age_min ?? null,
    ageMax: query.age_max ?? null,
    asOf: page.asOf,
    after: page.after,
    // A page plus one, to know whether there is a next page.
    limit: query.limit + 1,
  };
}

export interface DiscoverOptions {
  baseUrl: string;
  /** The clock (tests and the benchmark may pin it). */
  now?: Date;
}

export async function discover(db: Database, callerId: string, query: DiscoverQuery, options: DiscoverOptions): Promise<DiscoverResponse> {
  const caller = await getUserOrThrow(db, callerId);
  assertCallerComplete(caller);
  const activities = query.activities ?? caller.activities;
  // The filters as the caller gave them: the cursor is bound to these.
  const fingerprint = filtersFingerprint({
    radius_km: query.radius_km,
    activities: query.activities ? [...query.activities].sort() : null,
    available: query.available,
    gender: query.gender ?? null,
    age_min: query.age_min ?? null,
    age_max: query.age_max ?? null,
  });
  const cursor = query.cursor ? readCursorOrThrow(query.cursor, fingerprint) : null;
  const asOf = cursor ? new Date(cursor.asOf) : (options.now ?? new Date());

  const search = searchFor(caller, query, { asOf, after: cursor ? { score: cursor.score, id: cursor.id } : null });
  const rows = await discoverQuery(search).execute(db);

  const page = rows.rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const next = rows.rows.length > query.limit && last ? encodeCursor({ score: last.score, id: last.id, asOf: asOf.getTime(), filters: fingerprint }) : null;
  const pending = await pendingRequests(db, callerId, page.map((row) => row.id));
  const callerGrid = gridOf(caller.schedule);

  return {
    results: page.map((row) => toResult(row, activities.length, callerGrid, pending.get(row.id) ?? null, options.baseUrl)),
    next_cursor: next,
    next_url: next ? nextUrl(options.baseUrl, query, next) : null,
    search: {
      radius_km: query.radius_km,
      activities: [...activities],
      available: query.available,
      gender: query.gender ?? null,
      age_min: query.age_min ?? null,
      age_max: query.age_max ?? null,
      ranking: RANKING_IN_WORDS,
    },
  };
}

function toResult(
  row: CandidateRow,
  searchedActivities: number,
  callerGrid: ReturnType<typeof gridOf>,
  pending: 'sent' | 'received' | null,
  baseUrl: string,
): DiscoverResult {
  const shared = intersectGrids(callerGrid, gridOf(row.schedule));
  return {
    user: toDiscoverCard(row, baseUrl),
    shared_activities: row.shared_activities,
    overlap_hours: row.overlap_slots,
    overlap_summary: describeSharedTime(shared),
    distance_km: row.distance_km,
    last_active: lastActiveLabel(row.days_inactive),
    pending_request: pending,
    score: Number(row.score),
    score_breakdown: scoreBreakdown({
      sharedActivities: row.shared_activities.length,
      searchedActivities,
      overlapSlots: row.overlap_slots,
      distanceKm: row.distance_km,
      daysInactive: row.days_inactive,
    }),
  };
}
