import type { Metadata } from 'next';
import { requireSession } from '@/lib/auth/session';
import { MeetupForm } from '@/app/_components/meetup-form';

export const metadata: Metadata = { title: 'Host a meetup' };

/** A date a few days ahead on the person's clock, for the form's first value. */
function soon(zone: string | null): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone ?? 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + 3 * 86_400_000));
}

// The form posts to POST /api/v1/meetups.json from the browser, with times on the person's clock.
export default async function HostMeetupPage() {
  const { user } = await requireSession('/account/meetups/new');
  return (
    <>
      <p>
        <a href="/account/meetups">‹ Meetups</a>
      </p>
      <h1>Host a meetup</h1>
      <p className="muted">
        People near {user.public_location ?? 'you'} who like the activity can join. Times are on your clock
        {user.timezone ? ` (${user.timezone.replace(/_/g, ' ')})` : ''}.
      </p>
      <MeetupForm defaultDate={soon(user.timezone)} />
    </>
  );
}
