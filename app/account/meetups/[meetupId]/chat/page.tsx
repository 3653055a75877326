import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { listMessages } from '@/lib/chats/messages';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/core/errors';
import { getMeetup } from '@/lib/meetups/meetups';
import { activityNames } from '@/lib/web/activity-names';
import { ChatThread } from '@/app/_components/chat-thread';
import { activityTitle, groupChatRecord, meetupWhen } from '@/app/_components/meetup-views';

type Params = { params: Promise<{ meetupId: string }> };

export const metadata: Metadata = { title: 'Meetup chat' };

// A meetup's group chat: the buddy chat's thread (the same messages endpoints, limits and polling),
// for the host and the confirmed. Anyone else, and a made-up id, get not found.
export default async function MeetupChatPage({ params }: Params) {
  const { meetupId } = await params;
  const { user } = await requireSession(`/account/meetups/${encodeURIComponent(meetupId)}/chat`);
  const baseUrl = config().publicBaseUrl;
  let meetup: Awaited<ReturnType<typeof getMeetup>>['meetup'];
  try {
    meetup = (await getMeetup(getDb(), { viewerId: user.id, meetupId, baseUrl })).meetup;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
  if (!meetup.chatId) notFound();
  let page: Awaited<ReturnType<typeof listMessages>>;
  try {
    page = await listMessages(getDb(), {
      viewerId: user.id,
      chatId: meetup.chatId,
      query: { mark_read: true },
      baseUrl,
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
  const names: Record<string, string> = { [meetup.host.id]: meetup.host.first_name };
  for (const person of meetup.people) names[person.id] = person.first_name;
  const group = {
    title: `${activityTitle(meetup.activity, activityNames())} · ${meetupWhen(meetup, user.timezone)}`,
    place: meetup.place.name,
    backHref: `/account/meetups/${encodeURIComponent(meetup.id)}`,
    names,
  };
  return (
    <ChatThread
      chat={groupChatRecord(meetup.chatId, group)}
      group={group}
      initialMessages={page.messages}
      initialBuddyRead={null}
      initialOlder={page.older_cursor}
      person={user.id}
    />
  );
}
