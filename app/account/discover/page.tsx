import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { discoverQuerySchema } from '@/lib/contract/discover';
import { discover } from '@/lib/discover';
import { ApiError } from '@/lib/core/errors';
import { consumeRateLimit } from '@/lib/limits/rate-limits';
import { discoverTeaser, type DiscoverTeaser } from '@/lib/discover/teaser';
import { missingFields } from '@/lib/profiles/onboarding';
import { activityNames } from '@/lib/web/activity-names';
import { activityName, CHECKLIST_LABELS } from '@/lib/web/labels';
import { DiscoverSearch, type DiscoverFilters } from '@/app/_components/discover-search';

export const metadata: Metadata = { title: 'Find buddies' };

// The first page of results for the person's own activities is rendered on the server
// (the same domain call as GET /api/v1/discover.json); the form searches again from the browser.
export default async function DiscoverPage() {
  const { user } = await requireSession('/account/discover');
  // Every visit is a Discover search like any other, the teaser's count too: it counts
  // against the person's limit (the same counter as GET /api/v1/discover.json), so pages cannot bypass it.
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

  if (missingFields(user).length > 0) {
    return (
      <>
        <h1>Find buddies</h1>
        <Teaser teaser={await discoverTeaser(getDb(), user.id)} />
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
      <p>
        <a href="/account/meetups">Meetups near you</a>: join a group going for an activity you like, or host one.
      </p>
      <p className="muted small">
        People near {user.public_location ?? 'you'} who like what you like and are free when you are, best matches
        first. They see only your public profile. Distances are approximate (to a kilometre or two) so that nobody can
        work out where anyone lives.
      </p>
    </>
  );
}

const ADD_PHOTO = `/account/photo?${new URLSearchParams({ return: '/account/discover' })}`;
const TEASER_ACTIVITIES_NAMED = 3;
const orList = new Intl.ListFormat('en', { type: 'disjunction' });

/** "Hiking" → "hiking" mid-sentence; "TV series" stays as it is. */
function inSentence(id: string): string {
  const name = activityName(id);
  return /^[A-Z][a-z]/.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}

/**
 * What an incomplete profile sees instead of people: how many are near (a rounded count,
 * no one named), and the one step that lets them say hi. Rendered on the server: no JavaScript.
 */
function Teaser({ teaser }: { teaser: DiscoverTeaser }) {
  const needsPhoto = teaser.missing.includes('photo');
  const others = teaser.missing.filter((field) => field !== 'photo');
  const count = teaser.nearby?.at_least ?? 0;
  const named = (teaser.nearby?.activities ?? []).slice(0, TEASER_ACTIVITIES_NAMED).map(inSentence);
  const what = named.length > 0 ? `like ${orList.format(named)}` : 'are looking for buddies';
  const photoOnly = needsPhoto && others.length === 0;
  const heading =
    count > 0
      ? `At least ${count} people near you ${what}. ${photoOnly ? 'Add a photo to say hi.' : 'Finish your profile to say hi.'}`
      : photoOnly
        ? 'Add a photo so people near you can find you and say hi.'
        : 'Finish your profile to see people near you.';
  return (
    <section className="card stack discover-teaser" aria-labelledby="teaser-heading">
      <h2 id="teaser-heading" data-testid="discover-teaser">
        {heading}
      </h2>
      <p className="muted">
        You see them, and they see you, once your profile is complete. Counts are rounded, and nobody is named until
        then.
      </p>
      {needsPhoto ? (
        <p>
          <a className="button button-big" href={ADD_PHOTO}>
            Add a photo
          </a>
        </p>
      ) : null}
      {others.length > 0 ? (
        <div>
          <p>{needsPhoto ? 'Also still missing:' : 'Still missing:'}</p>
          <ul>
            {others.map((field) => (
              <li key={field}>{CHECKLIST_LABELS[field].label}</li>
            ))}
          </ul>
          <p>
            <a className={needsPhoto ? 'button button-secondary' : 'button'} href="/account/profile">
              Complete your profile
            </a>
          </p>
        </div>
      ) : null}
    </section>
  );
}
