import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/core/errors';
import { paths } from '@/lib/contract/paths';
import { type CalendarPlan, googleCalendarUrl, planEvent, planFileName } from '@/lib/plans/calendar';
import { getPlan } from '@/lib/plans/plans';
import { shareState } from '@/lib/plans/share';
import { myReview } from '@/lib/plans/reviews';
import { zonesOf } from '@/lib/web/plans';
import { PlanReview } from '@/app/_components/plan-review';
import { PlanDetail } from '@/app/_components/plan-views';
import { PlanSafety } from '@/app/_components/plan-safety';

type Params = { params: Promise<{ planId: string }> };

export const metadata: Metadata = { title: 'Plan' };

// One plan, map-free: what, when on each clock, where, who acted, and the answers open to
// the reader; its .ics for the person's calendar; after it, "Did you meet?" (the reader's
// private answer). Someone else's plan, a blocked pair's and a made-up id all look the same.
export default async function PlanPage({ params }: Params) {
  const { planId } = await params;
  const { user } = await requireSession(`/account/plans/${encodeURIComponent(planId)}`);
  let plan: Awaited<ReturnType<typeof getPlan>>['plan'];
  try {
    plan = (await getPlan(getDb(), { viewerId: user.id, planId, baseUrl: config().publicBaseUrl })).plan;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
  const cfg = config();
  const [zones, review, share] = await Promise.all([
    zonesOf(getDb(), [plan.buddy.id]),
    myReview(getDb(), user.id, plan.id),
    shareState(getDb(), { viewerId: user.id, planId: plan.id }, cfg.planCheckin.delaySeconds),
  ]);
  const ended = new Date(plan.ends_at).getTime() <= Date.now();
  // The calendar file and Google Calendar's link say the same (issue 46 §7).
  const calendarPlan: CalendarPlan = {
    id: plan.id,
    calendar_uid: plan.calendar_uid,
    sequence: plan.sequence,
    status: plan.status,
    activity: plan.activity,
    starts_at: plan.starts_at,
    ends_at: plan.ends_at,
    place_name: plan.place.name,
    place_address: plan.place.address,
    other_name: plan.buddy.displayName,
  };
  // Share, check-in and the calendar file are for a plan still ahead (or under way).
  const shareable = (plan.status === 'proposed' || plan.status === 'confirmed') && !ended;
  const askAfter = new Date(plan.ends_at).getTime() + cfg.planReviewDelayMinutes * 60_000;
  const askReview = plan.status === 'confirmed' && (review !== null || askAfter <= Date.now());
  return (
    <>
      <p>
        <a href={`/account/chats/${encodeURIComponent(plan.chatId)}`}>‹ Chat with {plan.buddy.displayName}</a>
      </p>
      <h1>Plan with {plan.buddy.displayName}</h1>
      <div className="card">
        <PlanDetail
          plan={plan}
          zones={{ reader: user.timezone, buddies: Object.fromEntries(zones) }}
          myName={user.display_name}
        />
        {shareable ? (
          <p className="actions">
            <a
              className="button button-secondary"
              href={paths.planCalendar({ planId: plan.id })}
              download={planFileName(calendarPlan)}
            >
              Add to calendar
            </a>
            <a
              className="button button-secondary"
              href={googleCalendarUrl(planEvent(calendarPlan, cfg.publicBaseUrl))}
              target="_blank"
              rel="noopener noreferrer"
            >
              Add to Google Calendar
            </a>
          </p>
        ) : null}
      </div>
      {shareable || share.shared ? (
        <PlanSafety
          planId={plan.id}
          buddyName={plan.buddy.displayName.split(/\s+/)[0] ?? plan.buddy.displayName}
          initial={share}
          zone={user.timezone}
          mailDelivered={Boolean(cfg.smtpUrl)}
          answerMinutes={Math.max(1, Math.round(cfg.planCheckin.answerSeconds / 60))}
          open={shareable}
        />
      ) : null}
      {askReview ? (
        <div className="card">
          <PlanReview plan={plan} initial={review} zone={user.timezone} />
        </div>
      ) : null}
    </>
  );
}
