import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db';
import { ageWorld } from '@/lib/ages/worlds';
import { emptyGrid } from '@/lib/availability';
import { currentSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { sharedFreeTime } from '@/lib/discover';
import { findUserBySlugOrId } from '@/lib/profiles/profile';
import { firstName, toPublicProfile } from '@/lib/profiles/records';
import { profileViewFor, standingWith } from '@/lib/profiles/viewer';
import { availabilityTable, PERIOD_HEADINGS } from '@/lib/web/availability-table';
import { AccountChrome } from '@/app/_components/account-chrome';
import { Avatar } from '@/app/_components/avatar';
import { ProfileActions, ProfileSafetyMenu } from '@/app/_components/profile-actions';
import { ScrollTable } from '@/app/_components/scroll-table';
import { activityName, ageText, formatMonth, GENDER_LABELS } from '@/lib/web/labels';

type Params = { params: Promise<{ slug: string }> };
type PageProps = Params & { searchParams: Promise<Record<string, string | string[] | undefined>> };

// One lookup per request, shared by the metadata and the page. Only the profile record
// (the same one GET /api/v1/users/{slug}/profile.json returns) reaches the page: the
// public view for a visitor who is not signed in (no age, no weekly schedule), the
// member view for a signed-in person. proxy.ts lets shared caches keep only the former.
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

// As the signed-in person sees it, or the public (null): a person under 18 is found only by people of their
// own world (lib/ages), so a visitor, a search engine or a link preview gets the page of no one.
const loadRow = cache(async (slug: string) => {
  const viewer = (await currentSession())?.user ?? null;
  return findUserBySlugOrId(getDb(), safeDecode(slug).slice(0, 80), viewer?.id ?? null);
});

/** What link previews (and so anyone) may read: the public view. */
const loadProfile = cache(async (slug: string) => {
  const row = await loadRow(slug);
  return row
    ? { ...toPublicProfile(row, config().publicBaseUrl, 'public'), minor: ageWorld(row.birthday) === 'teen' }
    : null;
});

function absolute(url: string): string {
  return new URL(url, config().publicBaseUrl).toString();
}

function summaryLine(profile: NonNullable<Awaited<ReturnType<typeof loadProfile>>>): string {
  const activities = profile.activities.slice(0, 3).map(activityName);
  const what =
    activities.length > 0 ? `looking for company for ${activities.join(', ').toLowerCase()}` : 'looking for buddies';
  return `${profile.displayName} is ${what}${profile.location ? ` in ${profile.location}` : ''} on Buddy Match.`;
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const profile = await loadProfile((await params).slug);
  if (!profile) return { title: 'Profile not found', robots: { index: false } };
  const description = profile.aboutMe ? profile.aboutMe.slice(0, 200) : summaryLine(profile);
  const title = `${profile.displayName} on Buddy Match`;
  // Shown to a signed-in teenager of the same world only: never indexed, never previewed.
  if (profile.minor) return { title: { absolute: title }, robots: { index: false, follow: false } };
  const images = profile.photoURL
    ? [{ url: absolute(profile.photoURL), alt: `Photo of ${profile.displayName}` }]
    : undefined;
  return {
    title: { absolute: title },
    description,
    alternates: { canonical: profile.profile_url },
    openGraph: { type: 'profile', title, description, url: profile.profile_url, siteName: 'Buddy Match', images },
    twitter: {
      card: images ? 'summary_large_image' : 'summary',
      title,
      description,
      images: images?.map((i) => i.url),
    },
  };
}

export default async function PublicProfilePage({ params, searchParams }: PageProps) {
  const { slug } = await params;
  // From "Join to connect" (through signup or sign-in): offer the request at once.
  const offerRequest = (await searchParams).connect === '1';
  const row = await loadRow(slug);
  if (!row) notFound();
  // Profile links may use the user id; the slug is the canonical address.
  if (safeDecode(slug) !== row.slug)
    permanentRedirect(`/u/${encodeURIComponent(row.slug)}${offerRequest ? '?connect=1' : ''}`);

  const db = getDb();
  const session = await currentSession();
  const viewer = session?.user ?? null;
  const profile = toPublicProfile(row, config().publicBaseUrl, await profileViewFor(db, viewer?.id ?? null, row));
  const standing = viewer ? await standingWith(db, { viewerId: viewer.id, targetId: row.id }) : null;
  const other = standing !== null && standing.kind !== 'self' && standing.kind !== 'blocked';
  const shared = other && viewer ? profile.activities.filter((id) => viewer.activities.includes(id)) : [];
  const together =
    other && viewer
      ? (await sharedFreeTime(db, { viewerId: viewer.id, slugOrId: row.id, baseUrl: config().publicBaseUrl })).overlap
      : null;
  const short = firstName(row.display_name);

  const age = ageText(profile);
  const gender = profile.gender && profile.gender !== 'prefer_not_to_say' ? GENDER_LABELS[profile.gender] : null;
  const facts = [age, gender, profile.location].filter((f): f is string => !!f);
  const schedule = profile.schedule;
  const hasSchedule = schedule?.some((day) => day.some(Boolean));
  const table = availabilityTable(hasSchedule && schedule ? schedule : emptyGrid());

  const page = (
    <article>
      <header className="profile-head">
        <Avatar name={profile.displayName} photoURL={profile.photoURL} alt={`Photo of ${profile.displayName}`} />
        <div className="profile-who">
          <h1>{profile.displayName}</h1>
          {facts.length > 0 ? (
            <ul className="facts" aria-label="About">
              {facts.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          ) : null}
        </div>
        {other ? <ProfileSafetyMenu name={profile.displayName} slug={profile.slug} /> : null}
      </header>

      {standing ? (
        <ProfileActions initial={standing} name={short} slug={profile.slug} offer={offerRequest} />
      ) : (
        <div className="profile-action stack">
          {/* Both ways in remember who: signup by slug, sign-in by a return path it checks. */}
          <a className="button button-big" href={`/signup?${new URLSearchParams({ connect: profile.slug })}`}>
            Join to connect
          </a>
          <p className="muted small">
            Already a member?{' '}
            <a href={`/signin?${new URLSearchParams({ callbackUrl: `/u/${profile.slug}?connect=1` })}`}>Sign in</a> to
            see more and ask {short} to be buddies.
          </p>
        </div>
      )}

      {shared.length > 0 ? (
        <section aria-labelledby="shared-heading">
          <h2 id="shared-heading">You both like</h2>
          <ul className="chips">
            {shared.map((id) => (
              <li key={id}>{activityName(id)}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {together ? (
        <section aria-labelledby="together-heading">
          <h2 id="together-heading">Free together</h2>
          <p className="free-together">
            {together.hours_per_week > 0
              ? `${together.summary} · ${together.hours_per_week} h a week`
              : together.summary}
          </p>
        </section>
      ) : null}

      {profile.aboutMe ? (
        <section aria-labelledby="about-heading">
          <h2 id="about-heading">About</h2>
          <p className="about">{profile.aboutMe}</p>
        </section>
      ) : null}

      {profile.activities.length > 0 ? (
        <section aria-labelledby="activities-heading">
          <h2 id="activities-heading">Likes doing</h2>
          <ul className="chips">
            {profile.activities.map((id) => (
              <li key={id}>{activityName(id)}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {hasSchedule ? (
        <section aria-labelledby="availability-heading">
          <h2 id="availability-heading">Usually free</h2>
          <p>{profile.schedule_summary}.</p>
          <ScrollTable label={`${profile.displayName}’s week`}>
            <table className="availability">
              <caption className="visually-hidden">
                When {profile.displayName} is usually free, by day and time of day
              </caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  {table[0]!.cells.map((c) => (
                    <th scope="col" key={c.period}>
                      {PERIOD_HEADINGS[c.period].name}
                      <span className="hours">{PERIOD_HEADINGS[c.period].hours}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.map((row) => (
                  <tr key={row.day}>
                    <th scope="row">{row.day}</th>
                    {row.cells.map((c) => (
                      <td key={c.period} className={c.state}>
                        {c.state === 'none' ? (
                          <>
                            <span aria-hidden="true">–</span>
                            <span className="visually-hidden">{c.text}</span>
                          </>
                        ) : (
                          c.text
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </section>
      ) : null}

      <p className="muted">Member since {formatMonth(profile.member_since)}.</p>
    </article>
  );
  // A member reading a profile stays in the app: its bar and tabs, as on their own pages.
  return session ? <AccountChrome session={session}>{page}</AccountChrome> : page;
}
