import { markChatRead } from '@/lib/chats/messages';
import * as chats from '@/lib/contract/chats';
import { route } from '@/lib/http/route';

// POST /api/v1/chats/{chatId}/read.json – mark the whole chat read (idempotent)
export const POST = route(chats.markChatRead, async ({ db, auth, params }) =>
  markChatRead(db, { viewerId: auth.userId, chatId: params.chatId }),
);
