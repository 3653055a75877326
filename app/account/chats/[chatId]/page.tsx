import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { getChatRecord } from '@/lib/chats/chats';
import { listMessages } from '@/lib/chats/messages';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/http/errors';
import { ChatThread } from '../../../_components/chat-thread';

type Params = { params: Promise<{ chatId: string }> };

export const metadata: Metadata = { title: 'Chat' };

// The latest messages are rendered on the server and marked read (the person is looking
// at them); the client then polls for what comes next.
export default async function ChatPage({ params }: Params) {
  const { chatId } = await params;
  const { user } = await requireSession(`/account/chats/${encodeURIComponent(chatId)}`);
  const db = getDb();
  const baseUrl = config().publicBaseUrl;
  try {
    const page = await listMessages(db, user.id, chatId, { mark_read: true }, baseUrl);
    const chat = await getChatRecord(db, user.id, chatId, baseUrl);
    return <ChatThread chat={chat} initialMessages={page.messages} />;
  } catch (error) {
    // Someone else's chat, a hidden one and a made-up id all look the same: not found.
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
}
