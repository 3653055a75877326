'use client';
// "Did you meet?" (issue 29, section 7): asked of each person, privately, some time after
// a confirmed plan ended. The answer is the reader's alone (the other person never sees
// it); "We met" offers to plan again with the same buddy, from the same activity and place.
import { useState } from 'react';
import type { PlanRecord } from '@/lib/contract/plans';
import type { PLAN_REVIEW_OUTCOMES } from '@/lib/contract/limits';
import { paths } from '@/lib/contract/paths';
import { sendJson } from './api-client';
import { PlanForm, firstName } from './plan-card';

export type PlanReviewOutcome = (typeof PLAN_REVIEW_OUTCOMES)[number];

const CHOICES: readonly { outcome: PlanReviewOutcome; label: (buddy: string) => string; said: string }[] = [
  { outcome: 'met', label: () => 'Yes, we met', said: 'you met' },
  { outcome: 'no_show', label: (buddy) => `${buddy} didn’t come`, said: 'they didn’t come' },
  { outcome: 'cancelled', label: () => 'We cancelled', said: 'you cancelled' },
];

export function PlanReview({
  plan,
  initial,
  zone,
}: {
  plan: PlanRecord;
  initial: PlanReviewOutcome | null;
  zone: string | null;
}) {
  const [outcome, setOutcome] = useState(initial);
  const [changing, setChanging] = useState(initial === null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [planning, setPlanning] = useState(false);
  const [proposed, setProposed] = useState<PlanRecord | null>(null);
  const buddy = firstName(plan.buddy.displayName);
  const headingId = `review-${plan.id}`;

  async function answer(choice: PlanReviewOutcome) {
    setBusy(true);
    setProblem(null);
    const result = await sendJson<{ outcome: PlanReviewOutcome }>('POST', paths.reviewPlan({ planId: plan.id }), {
      outcome: choice,
    });
    setBusy(false);
    if (!result.ok) {
      setProblem(result.error.message);
      return;
    }
    setOutcome(result.data.outcome);
    setChanging(false);
  }

  return (
    <section className="plan-review stack" aria-labelledby={headingId}>
      <h3 id={headingId}>{`Did you meet ${buddy}?`}</h3>
      {changing ? (
        <>
          <p className="muted small">Only you see your answer.</p>
          <div className="actions">
            {CHOICES.map((choice) => (
              <button
                key={choice.outcome}
                type="button"
                className={choice.outcome === 'met' ? undefined : 'button-secondary'}
                disabled={busy}
                onClick={() => void answer(choice.outcome)}
              >
                {choice.label(buddy)}
              </button>
            ))}
          </div>
        </>
      ) : (
        <p role="status">
          {`You said ${CHOICES.find((c) => c.outcome === outcome)?.said}. Only you see this.`}{' '}
          <button type="button" className="button-secondary" onClick={() => setChanging(true)}>
            Change
          </button>
        </p>
      )}
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      {outcome === 'met' && !changing ? (
        proposed ? (
          <p role="status">
            Proposed to {buddy}. <a href={`/account/plans/${encodeURIComponent(proposed.id)}`}>See the new plan</a>
          </p>
        ) : (
          <>
            <button type="button" aria-expanded={planning} onClick={() => setPlanning((shown) => !shown)}>
              Plan again?
            </button>
            {planning ? (
              <PlanForm chatId={plan.chatId} zone={zone} like={plan} onDone={(next) => setProposed(next)} />
            ) : null}
          </>
        )
      ) : null}
    </section>
  );
}

/** The home screen's "Did you meet?" block: plans that ended a while ago and await the reader's answer. */
export function HomeReviews({ plans, zone }: { plans: PlanRecord[]; zone: string | null }) {
  if (plans.length === 0) return null;
  return (
    <section className="home-section" aria-labelledby="home-reviews-heading">
      <div className="home-section-head">
        <h2 id="home-reviews-heading">After your plans</h2>
      </div>
      <ul className="plain-list plan-list" aria-label="Plans to look back on">
        {plans.map((plan) => (
          <li key={plan.id} className="card">
            <p className="muted small">
              <a href={`/account/plans/${encodeURIComponent(plan.id)}`}>
                {plan.activity} with {plan.buddy.displayName}
              </a>
            </p>
            <PlanReview plan={plan} initial={null} zone={zone} />
          </li>
        ))}
      </ul>
    </section>
  );
}
