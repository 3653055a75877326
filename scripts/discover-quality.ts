// How close the bounded Discover search (lib/discover/search.ts, rankedPage) comes to the exact
// one (discoverQuery over the whole circle, kept as the reference for tests and the benchmark
// only) for many callers: recall of the exact first page and the ratio of the pages' mean
// scores (issue 42). Used by e2e/api/discover-bounded.test.ts and scripts/bench-discover.ts.
import { sql } from 'kysely';
import type { Database } from '../db';
import { discoverQuerySchema, type DiscoverQuery } from '../lib/contract/discover';
import {
  DISCOVER_BUDGETS,
  discoverQuery,
  postingsSource,
  rankedPage,
  searchForCaller,
  type DiscoverSearch,
} from '../lib/discover/search';

/** The first page the bounds are judged on. */
export const PAGE = 20;
/** Issue 42: mean recall of the exact first page, and the least for any caller. */
export const RECALL_MEAN_BOUND = 0.8;
export const RECALL_MIN_BOUND = 0.6;
/** Issue 42: the bounded page's mean score against the exact page's. */
export const SCORE_RATIO_BOUND = 0.95;

export interface QualityCaller {
  id: string;
  query: DiscoverQuery;
}

/**
 * `count` of the population's own people as callers (the same ones for the same data), each
 * searching two of their activities (one if they have one) in their own free time, 25 km,
 * at least 2 hours together: many activity pairs, schedules and places. `place` keeps to the
 * people of one city (its public label).
 */
export async function qualityCallers(db: Database, count: number, place?: string): Promise<QualityCaller[]> {
  const { rows } = await sql<{ id: string; activities: string[] }>`
    select id, activities from users
    where agent_name = 'seed-demo' and onboarding_complete ${place ? sql`and public_location = ${place}` : sql``}
    order by md5(id::text) limit ${count}::int`.execute(db);
  return rows.map((row) => {
    const pick = Number.parseInt(row.id.slice(0, 8), 16);
    const n = row.activities.length;
    const activities = n >= 2 ? [row.activities[pick % n]!, row.activities[(pick + 1) % n]!] : row.activities;
    return {
      id: row.id,
      query: discoverQuerySchema.parse({
        radius_km: '25',
        available: '2',
        activities: activities.join(','),
        limit: String(PAGE),
      }),
    };
  });
}

/** Postings a search's page read: its own source of postings (the fine cells and their sample, or the whole circle), counted. */
async function postingsIn(db: Database, search: DiscoverSearch): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${postingsSource(search)} p`.execute(db);
  return rows[0]!.n;
}

export interface CallerQuality {
  caller: string;
  recall: number;
  scoreRatio: number;
  identical: boolean;
  /** The radius the bounded search used (25 unless the place is dense), and for people sharing two or more. */
  radiusKmUsed: number;
  pairsRadiusKm: number;
  postingsRead: number;
  exactPostings: number;
}

export interface QualityReport {
  callers: CallerQuality[];
  /** Callers whose exact first page is not empty (the others say nothing about recall). */
  judged: number;
  recallMean: number;
  recallMin: number;
  scoreRatioMean: number;
  /** Callers whose search read the whole circle, and of those, how many got exactly the exact page. */
  whole: number;
  wholeIdentical: number;
  postingsReadMax: number;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const page = (rows: readonly { id: string; score: string }[]) => rows.map((row) => `${row.id} ${row.score}`).join();

/** Each caller's exact and bounded first page, compared. */
export async function compareWithExact(
  db: Database,
  callers: readonly QualityCaller[],
  budgets: readonly number[] = DISCOVER_BUDGETS,
  asOf: Date = new Date(),
): Promise<QualityReport> {
  const results: CallerQuality[] = [];
  for (const caller of callers) {
    const search = await searchForCaller(db, caller.id, caller.query, { asOf, after: null });
    const exact = (await discoverQuery(search).execute(db)).rows.slice(0, PAGE);
    const { rows, used } = await rankedPage(db, search, { budgets });
    const bounded = rows.slice(0, PAGE);
    const got = new Set(bounded.map((row) => row.id));
    const exactMean = mean(exact.map((row) => Number(row.score)));
    results.push({
      caller: caller.id,
      recall: exact.length === 0 ? Number.NaN : exact.filter((row) => got.has(row.id)).length / exact.length,
      scoreRatio: exact.length === 0 ? Number.NaN : mean(bounded.map((row) => Number(row.score))) / exactMean,
      identical: page(bounded) === page(exact),
      radiusKmUsed: used.radiusKm,
      pairsRadiusKm: used.fineCells?.pairs?.radiusKm ?? used.radiusKm,
      postingsRead: await postingsIn(db, { ...search, ...used }),
      exactPostings: await postingsIn(db, search),
    });
  }
  const judged = results.filter((r) => !Number.isNaN(r.recall));
  const whole = results.filter((r) => r.radiusKmUsed === 25);
  return {
    callers: results,
    judged: judged.length,
    recallMean: mean(judged.map((r) => r.recall)),
    recallMin: Math.min(...judged.map((r) => r.recall)),
    scoreRatioMean: mean(judged.map((r) => r.scoreRatio)),
    whole: whole.length,
    wholeIdentical: whole.filter((r) => r.identical).length,
    postingsReadMax: Math.max(...results.map((r) => r.postingsRead)),
  };
}
