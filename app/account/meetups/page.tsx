import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { meetupQuerySchema } from '@/lib/contract/meetups';
import { ApiError } from '@/lib/core/errors';
import { findMeetups } from '@/lib/meetups/search';
import { activityNames } from '@/lib/web/activity-names';
import { MeetupCard } from '@/app/_components/meetup-views';

export const metadata: Metadata = { title: 'Meetups near you' };

// Meetups near the person, for their own activities, ranked as GET /api/v1/meetups.json ranks them
// (the same domain call), and their own (hosting and joined). Rendered on the server.
export default async function MeetupsPage() {
  const { user } = await requireSession('/account/meetups');
  const baseUrl = config().publicBaseUrl;
  const names = activityNames();
  const mine = await findMeetups(getDb(), {
    viewerId: user.id,
    query: meetupQuerySchema.parse({ view: 'mine', limit: 20 }),
    baseUrl,
  });
  let nearby: Awaited<ReturnType<typeof findMeetups>> | null = null;
  try {
    nearby = await findMeetups(getDb(), { viewerId: user.id, query: meetupQuerySchema.parse({}), baseUrl });
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'onboarding_incomplete') throw error;
  }
  const upcoming = mine.results.filter((r) => r.meetup.status === 'upcoming' || r.meetup.status === 'under_way');
  return (
    <>
      <h1>Meetups near you</h1>
      <p className="actions">
        <a className="button" href="/account/meetups/new">
          Host a meetup
        </a>
        <a href="/account/discover">Find buddies instead</a>
      </p>
      {upcoming.length > 0 ? (
        <section className="stack" aria-labelledby="yours">
          <h2 id="yours">Yours</h2>
          {upcoming.map(({ meetup }) => (
            <MeetupCard key={meetup.id} meetup={meetup} fit={null} zone={user.timezone} names={names} />
          ))}
        </section>
      ) : null}
      <section className="stack" aria-labelledby="nearby">
        <h2 id="nearby">Near you</h2>
        {nearby === null ? (
          <div className="notice notice-warn" role="status">
            <p>
              Add where you are to your <a href="/account/profile">profile</a> to see meetups near you.
            </p>
          </div>
        ) : nearby.results.length === 0 ? (
          <p className="muted">
            No meetups for your activities within 25 km in the next 30 days yet. Host one, and people near you who like
            it can join.
          </p>
        ) : (
          nearby.results.map(({ meetup, fit }) => (
            <MeetupCard key={meetup.id} meetup={meetup} fit={fit} zone={user.timezone} names={names} />
          ))
        )}
      </section>
      <p className="muted small">
        Meetups for your activities within 25 km of {user.public_location ?? 'you'}, best fit first. Hosts and guests
        see each other’s first name and photo; the address only once you’re in.
      </p>
    </>
  );
}
