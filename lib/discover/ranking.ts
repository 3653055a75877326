/**
 * The Discover ranking formula, in one place: the TypeScript function documents and
 * tests it, and the SQL expression that orders results is generated from the same
 * constants, so the two cannot drift.
 *
 *   score = 0.40 · activities + 0.30 · availability + 0.20 · distance + 0.10 · recent_activity
 *
 *   activities      = min(1, shared / min(3, searched))   shared of the searched activity ids
 *   availability    = min(1, overlap_hours / 10)           hours a week both are free
 *   distance        = 1 / (1 + km / 5)                     km rounded to whole km, at least 1
 *   recent_activity = 1 / (1 + days / 7)                   whole days since last seen, at the search's start
 *
 * Each term is in [0, 1], so the score is in [0, 1], rounded to 4 decimals. It is then
 * multiplied by a reliability factor, 1 for nearly everyone and lower for people several
 * others reported absent from plans (lib/plans/reviews.ts); the factor is never shown,
 * though the score and its breakdown are scaled by it. Ties (equal
 * rounded scores) are broken by user id, so the order is total and paging is stable.
 * The distance term uses the same rounded kilometres the result shows: a score never
 * reveals a distance finer than the 1 km the API promises.
 */
import { sql, type RawBuilder } from 'kysely';

export const WEIGHTS = { activities: 0.4, availability: 0.3, distance: 0.2, recent_activity: 0.1 } as const;
/** Sharing this many of the searched activities (or all of them, if fewer) earns full marks. */
export const ACTIVITIES_FOR_FULL_MARKS = 3;
/** Hours of shared free time a week that earn full marks. */
export const OVERLAP_HOURS_FOR_FULL_MARKS = 10;
/** The distance term halves at this many km. */
export const DISTANCE_HALF_KM = 5;
/** The recent-activity term halves after this many days away. */
export const RECENCY_HALF_DAYS = 7;
export const SCORE_DECIMALS = 4;

export type ScoreTerm = keyof typeof WEIGHTS;

export interface RankingInputs {
  /** How many of the searched activities the candidate has. */
  sharedActivities: number;
  /** How many activities were searched for (≥ 1). */
  searchedActivities: number;
  /** One-hour slots a week free in both grids. */
  overlapSlots: number;
  /** Whole km, at least 1 (see roundDistanceKm). */
  distanceKm: number;
  /** Whole days since the candidate was last active. */
  daysInactive: number;
  /** The candidate's reliability factor (1 unless repeatedly reported absent; lib/plans/reliability.ts). */
  reliability?: number;
}

/** Distance as shown and as ranked: whole km, never finer than 1 km. */
export function roundDistanceKm(km: number): number {
  return Math.max(1, Math.round(km));
}

const round = (value: number) => Math.round(value * 10 ** SCORE_DECIMALS) / 10 ** SCORE_DECIMALS;

/** Each term's value in [0, 1] before weighting. */
export function scoreTerms(input: RankingInputs): Record<ScoreTerm, number> {
  const target = Math.max(1, Math.min(ACTIVITIES_FOR_FULL_MARKS, input.searchedActivities));
  return {
    activities: Math.min(1, input.sharedActivities / target),
    availability: Math.min(1, input.overlapSlots / OVERLAP_HOURS_FOR_FULL_MARKS),
    distance: 1 / (1 + input.distanceKm / DISTANCE_HALF_KM),
    recent_activity: 1 / (1 + Math.max(0, input.daysInactive) / RECENCY_HALF_DAYS),
  };
}

/** Each term's weighted contribution to the score (what a result's score_breakdown shows). */
export function scoreBreakdown(input: RankingInputs): Record<ScoreTerm, number> {
  const terms = scoreTerms(input);
  const reliability = input.reliability ?? 1;
  return {
    activities: round(WEIGHTS.activities * terms.activities * reliability),
    availability: round(WEIGHTS.availability * terms.availability * reliability),
    distance: round(WEIGHTS.distance * terms.distance * reliability),
    recent_activity: round(WEIGHTS.recent_activity * terms.recent_activity * reliability),
  };
}

export function score(input: RankingInputs): number {
  const terms = scoreTerms(input);
  const reliability = input.reliability ?? 1;
  const total = (Object.keys(WEIGHTS) as ScoreTerm[]).reduce((sum, term) => sum + WEIGHTS[term] * terms[term], 0);
  return round(total * reliability);
}

/** SQL expressions (integer-valued) for the inputs of one candidate row. */
export interface RankingSqlInputs {
  sharedActivities: RawBuilder<number>;
  overlapSlots: RawBuilder<number>;
  distanceKm: RawBuilder<number>;
  daysInactive: RawBuilder<number>;
}

/** The formula as an SQL expression in `type` arithmetic, unrounded. */
function formulaSql(
  columns: RankingSqlInputs,
  searchedActivities: number,
  type: 'numeric' | 'float8',
): RawBuilder<number> {
  const target = Math.max(1, Math.min(ACTIVITIES_FOR_FULL_MARKS, searchedActivities));
  const n = (value: number) => sql`${sql.lit(value)}::${sql.raw(type)}`;
  const as = (column: RawBuilder<number>) => sql`${column}::${sql.raw(type)}`;
  return sql<number>`(
      ${n(WEIGHTS.activities)} * least(1, ${as(columns.sharedActivities)} / ${n(target)})
    + ${n(WEIGHTS.availability)} * least(1, ${as(columns.overlapSlots)} / ${n(OVERLAP_HOURS_FOR_FULL_MARKS)})
    + ${n(WEIGHTS.distance)} / (1 + ${as(columns.distanceKm)} / ${n(DISTANCE_HALF_KM)})
    + ${n(WEIGHTS.recent_activity)} / (1 + greatest(0, ${columns.daysInactive})::${sql.raw(type)} / ${n(RECENCY_HALF_DAYS)})
  )`;
}

/**
 * The same formula as `score`, as a numeric SQL expression. It is exact decimal
 * arithmetic (numeric), so equal inputs always give equal scores and the
 * (score, id) keyset of the cursor compares exactly.
 */
export function scoreSql(
  columns: RankingSqlInputs,
  searchedActivities: number,
  reliability: RawBuilder<unknown> = sql`1`,
): RawBuilder<string> {
  const formula = formulaSql(columns, searchedActivities, 'numeric');
  return sql<string>`round(${formula} * ${reliability}::numeric, ${sql.lit(SCORE_DECIMALS)})`;
}

/**
 * How far scoreEstimateSql may be from scoreSql: rounding to 4 decimals moves a score by
 * at most 0.00005, float8 arithmetic by about 1e-15; this covers both with room to spare.
 */
export const SCORE_ESTIMATE_MARGIN = 0.0001;

/**
 * The formula in float8, unrounded: several times cheaper per row than numeric, for
 * bounding scores (± SCORE_ESTIMATE_MARGIN) before the exact ones are computed.
 */
export function scoreEstimateSql(
  columns: RankingSqlInputs,
  searchedActivities: number,
  reliability: RawBuilder<unknown> = sql`1`,
): RawBuilder<number> {
  return sql<number>`(${formulaSql(columns, searchedActivities, 'float8')} * ${reliability}::float8)`;
}

const DAY_MS = 86_400_000;

/** Whole days since 1970-01-01 UTC, as discover_active_day() stores it in discover_postings. */
export function dayNumber(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS);
}

/**
 * What "whole days away" can be when only the day of the last call is known: with the
 * call at some moment of day D and the search at day A, the elapsed time is in
 * (A − D − 1, A − D] days, so the whole days are A − D − 1 or A − D (never below 0).
 * The search ranks on these bounds first and reads the exact moment only for the people
 * the bounds cannot settle.
 */
export function daysInactiveBounds(activeDay: number, asOfDay: number): { least: number; most: number } {
  return { least: Math.max(0, asOfDay - activeDay - 1), most: Math.max(0, asOfDay - activeDay) };
}

/** daysInactiveBounds in SQL, for a row's stored day (discover_postings.active_day). */
export function daysInactiveBoundsSql(
  activeDay: RawBuilder<number>,
  asOfDay: number,
): { least: RawBuilder<number>; most: RawBuilder<number> } {
  return {
    least: sql<number>`greatest(0, ${sql.lit(asOfDay)} - ${activeDay} - 1)`,
    most: sql<number>`greatest(0, ${sql.lit(asOfDay)} - ${activeDay})`,
  };
}

export const LAST_ACTIVE_LABELS = ['within_a_day', 'within_a_week', 'within_a_month', 'over_a_month'] as const;
export type LastActiveLabel = (typeof LAST_ACTIVE_LABELS)[number];

/** A coarse label for when someone was last active (never an exact time). */
export function lastActiveLabel(daysInactive: number): LastActiveLabel {
  if (daysInactive < 1) return 'within_a_day';
  if (daysInactive < 7) return 'within_a_week';
  if (daysInactive < 30) return 'within_a_month';
  return 'over_a_month';
}
