import { INBOX_VOLATILE_KEYS, readInbox } from '@/lib/chats/inbox';
import { getInbox } from '@/lib/contract/social';
import { conditionalReply } from '@/lib/http/conditional';
import { route } from '@/lib/http/route';

// GET /api/v1/inbox.json – pending and accepted requests, unread chats and new messages (ETag/304)
export const GET = route(getInbox, async ({ db, auth, query, baseUrl, request }) =>
  conditionalReply(request, await readInbox(db, auth.userId, query.since, baseUrl), { volatileKeys: INBOX_VOLATILE_KEYS }),
);
