import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db';
import { currentSession, requireSession } from '@/lib/auth/session';
import { getChatRecord } from '@/lib/chats/chats';
import { listMessages } from '@/lib/chats/messages';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/core/errors';
import { chatPlans, zonesOf } from '@/lib/web/plans';
import { ChatThread } from '@/app/_components/chat-thread';
import { MuteChat } from '@/app/_components/mute-chat';

type Params = { params: Promise<{ chatId: string }> };

/** The chat as the viewer sees it, or null where it is not theirs to see (one lookup per request). */
const chatFor = cache(async (viewerId: string, chatId: string) => {
  try {
    return await getChatRecord(getDb(), { viewerId, chatId, baseUrl: config().publicBaseUrl });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
});

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const session = await currentSession();
  const chat = session ? await chatFor(session.user.id, (await params).chatId) : null;
  return { title: chat ? `Chat with ${chat.buddy.displayName}` : 'Chat' };
}

// The latest messages are rendered on the server and marked read (the person is looking
// at them); the client then polls for what comes next. Someone else's chat, a hidden one
// and a made-up id all look the same: not found.
export default async function ChatPage({ params }: Params) {
  const { chatId } = await params;
  const { user } = await requireSession(`/account/chats/${encodeURIComponent(chatId)}`);
  const chat = await chatFor(user.id, chatId);
  if (!chat) notFound();
  const page = await listMessages(getDb(), {
    viewerId: user.id,
    chatId,
    query: { mark_read: true },
    baseUrl: config().publicBaseUrl,
  });
  const [plans, zones] = await Promise.all([
    chatPlans(getDb(), user.id, chatId, config().publicBaseUrl),
    zonesOf(getDb(), [chat.buddy.id]),
  ]);
  const member = await getDb()
    .selectFrom('chat_members')
    .select('muted')
    .where('chat_id', '=', chatId)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return (
    <ChatThread
      chat={chat}
      initialMessages={page.messages}
      initialBuddyRead={page.buddy_last_read_message_id}
      initialOlder={page.older_cursor}
      menuExtra={<MuteChat chatId={chatId} initiallyMuted={member?.muted === true} />}
      initialPlans={plans}
      zones={{ reader: user.timezone, buddy: zones.get(chat.buddy.id) ?? null }}
      myName={user.display_name}
      person={user.id}
    />
  );
}
