import { markChatRead } from '@/lib/chats/messages';
import * as social from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// POST /api/v1/chats/{chatId}/read.json – mark the whole chat read (idempotent)
export const POST = route(social.markChatRead, async ({ db, auth, params }) =>
  markChatRead(db, { viewerId: auth.userId, chatId: params.chatId }),
);
