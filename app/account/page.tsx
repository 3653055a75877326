import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { getDb } from '@/db';
import { listTokensToConfirm } from '@/lib/accounts/tokens';
import { requireSession } from '@/lib/auth/session';
import { listBuddyRequests } from '@/lib/buddies/requests';
import { listChats } from '@/lib/chats/chats';
import { config } from '@/lib/config';
import { discoverQuerySchema } from '@/lib/contract/discover';
import { discover } from '@/lib/discover';
import { ApiError } from '@/lib/core/errors';
import { consumeRateLimit } from '@/lib/limits/rate-limits';
import { inboxPlans } from '@/lib/plans/plans';
import { waitingCheckins } from '@/lib/plans/share';
import { waitingMeetupCheckins } from '@/lib/meetups/share';
import { plansToReview } from '@/lib/plans/reviews';
import { zonesOf } from '@/lib/web/plans';
import { DISCOVER_FIELDS, missingFields, type DiscoverField } from '@/lib/profiles/onboarding';
import { activityNames } from '@/lib/web/activity-names';
import { CHECKLIST_LABELS } from '@/lib/web/labels';
import { Avatar } from '../_components/avatar';
import { HomeChats, HomeRequests } from '../_components/home-screen';
import { HomeReviews } from '../_components/plan-review';
import { HomeUpcoming } from '../_components/plan-views';
import { ShowMe } from '../_components/show-me';
import { AGENTS_NOTICE_COOKIE } from '@/lib/web/agents-notice';
import { dismissAgentsNoticeAction } from './agents/actions';

export const metadata: Metadata = { title: 'Home' };

/** Where each checklist item is filled in: the profile editor's field ids. */
const FIELD_ANCHORS: Record<DiscoverField, string> = {
  displayName: 'profile-displayName',
  aboutMe: 'profile-aboutMe',
  gender: 'profile-gender',
  birthday: 'profile-birthday',
  location: 'profile-location',
  coords: 'profile-location',
  activities: 'profile-activities',
  schedule: 'profile-availability_text',
  photo: 'photo-file',
};

/** The photo has its own one-step page (issue 31 §2), which comes back here. */
const ADD_PHOTO = '/account/photo?return=%2Faccount';

const MATCHES_SHOWN = 10;

type UserRow = Awaited<ReturnType<typeof requireSession>>['user'];

/**
 * The best matches of the first Discover page for the person's own activities, as the Discover tab shows it;
 * like that page it counts against the person's Discover limit. Past the limit the strip
 * is simply left out.
 */
async function newMatches(user: UserRow) {
  try {
    await consumeRateLimit(getDb(), 'discover', config().rateLimits.discover, user.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'rate_limited') return null;
    throw error;
  }
  const query = discoverQuerySchema.parse({ activities: user.activities.join(',') });
  const page = await discover(getDb(), user.id, query, { baseUrl: config().publicBaseUrl });
  // People with a request either way are in Requests already.
  return page.results.filter((r) => r.pending_request === null).slice(0, MATCHES_SHOWN);
}

export default async function AccountPage() {
  const { user } = await requireSession('/account');
  const db = getDb();
  const base = config().publicBaseUrl;
  const missing = new Set(missingFields(user));
  const done = DISCOVER_FIELDS.length - missing.size;
  const [toConfirm, requests, chats, matches, plans, checkins, meetupCheckins, toReview] = await Promise.all([
    listTokensToConfirm(db, user.id),
    listBuddyRequests(db, user.id, {}, base),
    listChats(db, user.id, {}, base),
    missing.size === 0 ? newMatches(user) : Promise.resolve(null),
    inboxPlans(db, user.id, base),
    waitingCheckins(db, user.id),
    waitingMeetupCheckins(db, user.id),
    plansToReview(db, { viewerId: user.id, baseUrl: base, delayMinutes: config().planReviewDelayMinutes }),
  ]);
  const upcoming = [...plans.plans_to_answer, ...(plans.next_plan ? [plans.next_plan] : [])];
  const buddyZones = await zonesOf(db, [...new Set(upcoming.map((p) => p.buddy.id))]);
  const names = activityNames();
  // Issue 46 §2: below what the person came for, and once: "Not now" keeps it away until a newer
  // assistant holds access.
  const newestToConfirm = Math.max(0, ...toConfirm.map((token) => Date.parse(token.created_at)));
  const toldOf = Number((await cookies()).get(AGENTS_NOTICE_COOKIE)?.value ?? 0);
  const agentsNotice = toConfirm.length > 0 && newestToConfirm > toldOf;

  return (
    <>
      <h1>Hi, {user.display_name}</h1>
      {[
        ...checkins.map((planId) => `/account/plans/${encodeURIComponent(planId)}`),
        ...meetupCheckins.map((meetupId) => `/account/meetups/${encodeURIComponent(meetupId)}`),
      ].map((href) => (
        <p key={href} className="notice notice-warn" role="alert">
          <strong>All good?</strong> Your check-in is waiting. <a href={href}>Answer “I’m fine”</a>
        </p>
      ))}

      {user.awaiting_person_consent ? <ShowMe complete={missing.size === 0} /> : null}

      {missing.size === 0 ? (
        <p className="profile-complete">
          <span>
            Profile complete <span aria-hidden="true">✓</span>
          </span>
          <a href="/account/profile" aria-label="Edit your profile">
            Edit
          </a>
        </p>
      ) : (
        <section className="card" aria-labelledby="onboarding-heading">
          <h2 id="onboarding-heading">Finish your profile</h2>
          <p>
            {done} of {DISCOVER_FIELDS.length} done. To appear in Discover, add what’s still missing:
          </p>
          <ul className="checklist" aria-label="Onboarding checklist">
            {DISCOVER_FIELDS.map((field) => {
              const isDone = !missing.has(field);
              const label = CHECKLIST_LABELS[field].label;
              return (
                <li key={field} className={isDone ? 'done' : 'todo'}>
                  <span className="mark" aria-hidden="true">
                    {isDone ? '✓' : '!'}
                  </span>
                  <span>
                    {isDone ? (
                      <strong>{label}</strong>
                    ) : (
                      <a href={field === 'photo' ? ADD_PHOTO : `/account/profile#${FIELD_ANCHORS[field]}`}>{label}</a>
                    )}{' '}
                    <span className="visually-hidden">{isDone ? '(done)' : '(missing)'}</span>
                    {isDone ? null : <span className="muted"> — {CHECKLIST_LABELS[field].help}</span>}
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <HomeUpcoming
        next={plans.next_plan}
        toAnswer={plans.plans_to_answer.slice(0, 3)}
        zones={{ reader: user.timezone, buddies: Object.fromEntries(buddyZones) }}
        myName={user.display_name}
      />
      <HomeReviews plans={toReview} zone={user.timezone} />
      <HomeRequests initial={requests} activityNames={names} />
      <HomeChats initial={chats} />
      {agentsNotice ? <AgentsNotice count={toConfirm.length} newest={newestToConfirm} /> : null}

      {matches ? (
        <section className="home-section" aria-labelledby="home-matches-heading">
          <div className="home-section-head">
            <h2 id="home-matches-heading">New matches</h2>
            <a href="/account/discover">Discover</a>
          </div>
          {matches.length === 0 ? (
            <p className="muted">Nobody new nearby yet. Try more activities, or a wider search in Discover.</p>
          ) : (
            <ul className="match-strip" aria-label="New matches">
              {matches.map((m) => (
                <li key={m.user.id}>
                  <a href={`/u/${encodeURIComponent(m.user.slug)}`}>
                    <Avatar name={m.user.displayName} photoURL={m.user.photoURL} />
                    <span className="match-strip-name">{m.user.displayName}</span>
                    <span className="match-strip-why muted">
                      {m.shared_activities.map((id) => names[id] ?? id).join(', ') || m.overlap_summary}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </>
  );
}

/** Who else holds access to the account, with the way to settle it, or to hear of it later. */
function AgentsNotice({ count, newest }: { count: number; newest: number }) {
  return (
    <section className="notice notice-warn" aria-labelledby="confirm-agents-heading">
      <h2 id="confirm-agents-heading">Check who can act for you</h2>
      <p>
        {count === 1 ? 'An assistant holds' : `${count} assistants hold`} access to your account. Confirm you know{' '}
        {count === 1 ? 'it' : 'each of them'}, or revoke access you didn’t give.
      </p>
      <div className="actions">
        <a className="button" href="/account/agents">
          Review your assistants
        </a>
        <form action={dismissAgentsNoticeAction}>
          <input type="hidden" name="newest" value={newest} />
          <button className="button-secondary" type="submit">
            Not now
          </button>
        </form>
      </div>
    </section>
  );
}
