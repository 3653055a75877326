import type { Metadata } from 'next';
import { getDb } from '@/db';
import { requireSession } from '@/lib/auth/session';
import { listChats } from '@/lib/chats/chats';
import { config } from '@/lib/config';
import { ChatList } from '@/app/_components/chat-list';

export const metadata: Metadata = { title: 'Chats' };

export default async function ChatsPage() {
  const { user } = await requireSession('/account/chats');
  const initial = await listChats(getDb(), user.id, {}, config().publicBaseUrl);
  return (
    <>
      <h1>Chats</h1>
      <ChatList initial={initial} person={user.id} />
    </>
  );
}
