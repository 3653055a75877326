// A member's per-chat mute: the chat's pushes stop (lib/notifications/push.ts reads it); unread counts still move.
import type { Database } from '@/db';
import { notFound } from '../core/errors';

export async function setChatMuted(
  db: Database,
  { userId, chatId, muted }: { userId: string; chatId: string; muted: boolean },
): Promise<void> {
  const result = await db
    .updateTable('chat_members')
    .set({ muted })
    .where('chat_id', '=', chatId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('Chat');
}
