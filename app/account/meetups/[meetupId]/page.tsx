import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/core/errors';
import { getMeetup } from '@/lib/meetups/meetups';
import { meetupShareState } from '@/lib/meetups/share';
import { activityNames } from '@/lib/web/activity-names';
import { MeetupPage } from '@/app/_components/meetup-page';

type Params = { params: Promise<{ meetupId: string }> };

export const metadata: Metadata = { title: 'Meetup' };

// One meetup, as GET /api/v1/meetups/{id}.json shows it to this person; the page then keeps it
// live. A meetup they may not see and a made-up id look the same: not found. Whoever holds a
// seat also gets their share of it (Share with a friend, check-in).
export default async function MeetupRoute({ params }: Params) {
  const { meetupId } = await params;
  const { user } = await requireSession(`/account/meetups/${encodeURIComponent(meetupId)}`);
  let meetup: Awaited<ReturnType<typeof getMeetup>>['meetup'];
  try {
    meetup = (await getMeetup(getDb(), { viewerId: user.id, meetupId, baseUrl: config().publicBaseUrl })).meetup;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
  const cfg = config();
  const inside = meetup.me.role === 'host' || meetup.me.role === 'confirmed';
  const share = inside
    ? await meetupShareState(getDb(), { viewerId: user.id, meetupId: meetup.id }, cfg.planCheckin.delaySeconds)
    : null;
  return (
    <MeetupPage
      initial={meetup}
      zone={user.timezone}
      names={activityNames()}
      safety={{
        share,
        mailDelivered: Boolean(cfg.smtpUrl),
        answerMinutes: Math.max(1, Math.round(cfg.planCheckin.answerSeconds / 60)),
      }}
    />
  );
}
