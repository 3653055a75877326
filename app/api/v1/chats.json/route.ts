import { listChats } from '@/lib/chats/chats';
import { listChats as listSpec } from '@/lib/contract/social';
import { route } from '@/lib/http/route';

// GET /api/v1/chats.json – one entry per buddy with last_message and unread_count
export const GET = route(listSpec, async ({ db, auth, query, baseUrl }) =>
  listChats(db, auth.userId, { unreadOnly: query.unread_only, limit: query.limit }, baseUrl),
);
