import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { listPlans } from '@/lib/plans/plans';
import { zonesOf } from '@/lib/web/plans';
import { PlanLine } from '@/app/_components/plan-views';

export const metadata: Metadata = { title: 'Plans' };

const SHOWN = 50;

// Every plan of the person: what is coming (including proposals), then what is over or closed.
export default async function PlansPage() {
  const { user } = await requireSession('/account/plans');
  const db = getDb();
  const baseUrl = config().publicBaseUrl;
  const [upcoming, past] = await Promise.all([
    listPlans(db, { viewerId: user.id, query: { view: 'upcoming', limit: SHOWN }, baseUrl }),
    listPlans(db, { viewerId: user.id, query: { view: 'past', limit: SHOWN }, baseUrl }),
  ]);
  const zones = await zonesOf(db, [...new Set([...upcoming.plans, ...past.plans].map((p) => p.buddy.id))]);
  const book = { reader: user.timezone, buddies: Object.fromEntries(zones) };
  return (
    <>
      <h1>Plans</h1>
      <section aria-labelledby="plans-upcoming">
        <h2 id="plans-upcoming">Upcoming</h2>
        {upcoming.plans.length === 0 ? (
          <p className="muted">Nothing planned. Propose a plan in a chat with a buddy.</p>
        ) : (
          <ul className="plain-list">
            {upcoming.plans.map((plan) => (
              <PlanLine key={plan.id} plan={plan} zones={book} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="plans-past">
        <h2 id="plans-past">Past and closed</h2>
        {past.plans.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <ul className="plain-list">
            {past.plans.map((plan) => (
              <PlanLine key={plan.id} plan={plan} zones={book} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
