import { markChatRead } from '@/lib/chats/messages';
import { markChatRead as readSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// POST /api/v1/chats/{chatId}/read.json – mark the whole chat read (idempotent)
export const POST = route(readSpec, async ({ db, auth, params }) => markChatRead(db, auth.userId, params.chatId));
