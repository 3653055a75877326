// Discover's penalty for repeated no-shows (issue 29, section 7), from the private
// "did you meet?" answers (plan_reviews, 0027) and meetup hosts' attendance marks
// (meetup_attendees.attended = false, 0036; the host is the one who reports). Kept apart
// from the plan code so the Discover query imports only this. Never shown: see
// docs/decisions/plans.md.
import { sql, type RawBuilder } from 'kysely';

const DAY_MS = 86_400_000;
/** No-show reports count for this long (by when they were last given). */
export const NO_SHOW_WINDOW_DAYS = 90;
/** Distinct people who must report a no-show before it counts: one grudge cannot demote anyone. */
export const NO_SHOW_REPORTERS = 2;
/** A demoted person's Discover score is multiplied by this. */
export const NO_SHOW_RANK_FACTOR = 0.8;

/**
 * Discover's multiplier for the candidate whose id is `id`: NO_SHOW_RANK_FACTOR when at
 * least NO_SHOW_REPORTERS different people (plan buddies or meetup hosts) reported them
 * absent within NO_SHOW_WINDOW_DAYS of `asOf`, else 1. `demoted` is the CTE reliabilityDemotedSql defines.
 */
export function reliabilityFactorSql(id: RawBuilder<string>, demoted: string): RawBuilder<number> {
  // float8: the score estimates multiply thousands of rows by it, and a numeric would be cast
  // (through its text) on each; the exact score casts it back, 0.8 and 1 exactly.
  return sql<number>`case when ${id} = any((select ids from ${sql.table(demoted)})::uuid[]) then ${sql.lit(NO_SHOW_RANK_FACTOR)}::float8 else 1::float8 end`;
}

/** One row, one column `ids`: everyone demoted as of `asOf`. Few people, one index range. */
export function reliabilityDemotedSql(asOf: Date): RawBuilder<unknown> {
  const since = new Date(asOf.getTime() - NO_SHOW_WINDOW_DAYS * DAY_MS);
  const after = sql`${since.toISOString()}::timestamptz`;
  return sql`select coalesce(array_agg(about_id), '{}') as ids from (
      select about_id from (
        select about_id, user_id from plan_reviews where outcome = 'no_show' and updated_at > ${after}
        union all
        select a.user_id, m.host_id from meetup_attendees a join meetups m on m.id = a.meetup_id
        where a.attended = false and a.marked_at > ${after}) reports
      group by about_id having count(distinct user_id) >= ${sql.lit(NO_SHOW_REPORTERS)}) d`;
}
