'use client';
// Plans outside the chat: the home screen's "Upcoming" block (the next confirmed plan and
// proposals waiting for an answer) and the plan page's card. Answering updates the card
// in place; the server rendered the first state, in each person's own zone.
import { useState } from 'react';
import type { PlanRecord } from '@/lib/contract/plans';
import { PlanCard, PlanWhenText, statusText } from './plan-card';

/** Buddy zones by user id, and the reader's. */
export interface ZoneBook {
  reader: string | null;
  buddies: Record<string, string | null>;
}

const zonesFor = (book: ZoneBook, plan: PlanRecord) => ({
  reader: book.reader,
  buddy: book.buddies[plan.buddy.id] ?? null,
});

function useReplacing(initial: PlanRecord[]) {
  const [plans, setPlans] = useState(initial);
  const replace = (next: PlanRecord) =>
    setPlans((known) => {
      const listed = known.some((p) => p.id === next.id);
      return listed ? known.map((p) => (p.id === next.id ? next : p)) : [...known, next];
    });
  return [plans, replace] as const;
}

export function HomeUpcoming({
  next,
  toAnswer,
  zones,
  myName,
}: {
  next: PlanRecord | null;
  toAnswer: PlanRecord[];
  zones: ZoneBook;
  myName: string;
}) {
  const [plans, replace] = useReplacing([...toAnswer, ...(next ? [next] : [])]);
  return (
    <section className="home-section" aria-labelledby="home-upcoming-heading">
      <div className="home-section-head">
        <h2 id="home-upcoming-heading">Upcoming</h2>
        <a href="/account/plans">All plans</a>
      </div>
      {plans.length === 0 ? (
        <p className="muted">No plans yet. Propose one in a chat with a buddy.</p>
      ) : (
        <ul className="plain-list plan-list" aria-label="Upcoming plans">
          {plans.map((plan) => (
            <li key={plan.id}>
              <PlanCard plan={plan} zones={zonesFor(zones, plan)} myName={myName} onChange={replace} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function PlanDetail({ plan: initial, zones, myName }: { plan: PlanRecord; zones: ZoneBook; myName: string }) {
  const [plans, replace] = useReplacing([initial]);
  // A counter-proposal made here is a new plan: it shows below the one it replaces.
  return (
    <>
      {plans.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          zones={zonesFor(zones, plan)}
          myName={myName}
          onChange={replace}
          detailsLink={plan.id !== initial.id}
          headingLevel={2}
          collapseClosed={plan.id !== initial.id}
        />
      ))}
    </>
  );
}

/** One line per plan on the plans page. */
export function PlanLine({ plan, zones }: { plan: PlanRecord; zones: ZoneBook }) {
  return (
    <li className="plan-line">
      <a href={`/account/plans/${encodeURIComponent(plan.id)}`}>
        {plan.activity} with {plan.buddy.displayName}
      </a>
      <span className="muted small">
        {' · '}
        <PlanWhenText plan={plan} zones={zonesFor(zones, plan)} /> · {statusText(plan)}
      </span>
    </li>
  );
}
