import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { discoverQuerySchema } from '@/lib/contract/discover';
import { discover } from '@/lib/discover';
import { ApiError } from '@/lib/http/errors';
import { consumeRateLimit } from '@/lib/limits/rate-limits';
import { missingFields } from '@/lib/profiles/onboarding';
import { activityNames } from '@/lib/web/activity-names';
import { CHECKLIST_LABELS } from '@/lib/web/labels';
import { DiscoverSearch, type DiscoverFilters } from '@/app/_components/discover-search';

export const metadata: Metadata = { title: 'Find buddies' };

// The first page of results for the person's own activities is rendered on the server
// (the same domain call as GET /api/v1/discover.json); the form searches again from the browser.
export default async function DiscoverPage() {
  const { user } = await requireSession('/account/discover');
  const missing = missingFields(user);
  if (missing.length > 0) {
    return (
      <>
        <h1>Find buddies</h1>
        <div className="notice notice-warn">
          <p>Finish your profile to see people near you (they see you then, too). Still missing:</p>
          <ul>
            {missing.map((field) => (
              <li key={field}>{CHECKLIST_LABELS[field].label}</li>
            ))}
          </ul>
        </div>
        <p>
          <a className="button" href="/account/profile">
            Complete your profile
          </a>
        </p>
      </>
    );
  }

  // The first page is a Discover search like any other: it counts against the person's
  // limit (the same counter as GET /api/v1/discover.json), so pages cannot bypass it.
  try {
    await consumeRateLimit(getDb(), 'discover', config().rateLimits.discover, user.id);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'rate_limited') throw error;
    return (
      <>
        <h1>Find buddies</h1>
        <div className="notice notice-warn" role="status">
          <p>{error.message}</p>
          <p>Searches are limited so that nobody can use them to work out where people live.</p>
        </div>
      </>
    );
  }

  // The same filters the form sends, so the first page's cursor is valid for its "Show more".
  const query = discoverQuerySchema.parse({ activities: user.activities.join(',') });
  const firstPage = await discover(getDb(), user.id, query, { baseUrl: config().publicBaseUrl });
  const defaults: DiscoverFilters = {
    activities: query.activities ?? [...user.activities],
    radius_km: query.radius_km,
    available: query.available,
    gender: [],
    age_min: '',
    age_max: '',
  };
  // On a phone what matters comes first: how many match, then the people. How the
  // search works is said once, under the results.
  return (
    <>
      <h1>Find buddies</h1>
      <DiscoverSearch
        defaults={defaults}
        ownActivities={[...user.activities]}
        firstPage={firstPage}
        activityNames={activityNames()}
      />
      <p className="muted small">
        People near {user.public_location ?? 'you'} who like what you like and are free when you are, best matches
        first. They see only your public profile. Distances are approximate (to a kilometre or two) so that nobody can
        work out where anyone lives.
      </p>
    </>
  );
}
