// "Did you meet?" (issue 29, section 7). Some time after a confirmed plan ends
// (PLAN_REVIEW_DELAY_MIN, two hours by default) each person is asked privately: we met,
// they didn't come, or we cancelled. The question is derived, not scheduled: a plan is
// to review while it is confirmed, ended long enough ago, and the reader has not answered.
// Answers are the reader's alone: nothing another person reads (plans, inbox, profile,
// Discover results) carries them. Repeated no-show reports lower a person in Discover
// (reliability.ts), unseen: see docs/decisions/plans.md.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { PlanReviewOutcome } from '@/db/types';
import type { PlanRecord } from '../contract/plans';
import { ApiError } from '../core/errors';
import { getPlan } from './plans';
import { planRows, toPlan, type PlanQueryRow } from './records';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** The question goes away this long after it was first asked. */
export const REVIEW_ASKED_FOR_DAYS = 14;

/** The reader's confirmed plans that ended at least `delayMinutes` ago and that they have not answered, newest first. */
export async function plansToReview(
  db: Database,
  {
    viewerId,
    baseUrl,
    delayMinutes,
    now = new Date(),
  }: { viewerId: string; baseUrl: string; delayMinutes: number; now?: Date },
): Promise<PlanRecord[]> {
  const askedSince = new Date(now.getTime() - delayMinutes * MINUTE_MS);
  const rows = await planRows(db, viewerId)
    .where('p.status', '=', 'confirmed')
    .where('p.ends_at', '<=', askedSince)
    .where('p.ends_at', '>', new Date(askedSince.getTime() - REVIEW_ASKED_FOR_DAYS * DAY_MS))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('plan_reviews as r')
            .select(sql`1`.as('one'))
            .whereRef('r.plan_id', '=', 'p.id')
            .where('r.user_id', '=', viewerId),
        ),
      ),
    )
    .orderBy('p.ends_at', 'desc')
    .limit(5)
    .execute();
  return rows.map((row) => toPlan(row as PlanQueryRow, viewerId, baseUrl, now));
}

/** The reader's own answer about a plan, or null. */
export async function myReview(db: Database, viewerId: string, planId: string): Promise<PlanReviewOutcome | null> {
  const row = await db
    .selectFrom('plan_reviews')
    .select('outcome')
    .where('plan_id', '=', planId)
    .where('user_id', '=', viewerId)
    .executeTakeFirst();
  return row?.outcome ?? null;
}

/** Records (or changes) the reader's answer about a confirmed plan that has ended. */
export async function reviewPlan(
  db: Database,
  {
    viewerId,
    planId,
    outcome,
    baseUrl,
    now = new Date(),
  }: { viewerId: string; planId: string; outcome: PlanReviewOutcome; baseUrl: string; now?: Date },
): Promise<{ success: true; planId: string; outcome: PlanReviewOutcome }> {
  const { plan } = await getPlan(db, { viewerId, planId, baseUrl });
  if (plan.status !== 'confirmed' || new Date(plan.ends_at).getTime() > now.getTime()) {
    throw new ApiError('plan_not_open', 'Only a confirmed plan that has ended can be answered', {
      hint: 'Ask again after the plan ends.',
      plan,
    });
  }
  await db
    .insertInto('plan_reviews')
    .values({ plan_id: plan.id, user_id: viewerId, about_id: plan.buddy.id, outcome })
    .onConflict((oc) => oc.columns(['plan_id', 'user_id']).doUpdateSet({ outcome, updated_at: sql`now()` }))
    .execute();
  return { success: true, planId: plan.id, outcome };
}
