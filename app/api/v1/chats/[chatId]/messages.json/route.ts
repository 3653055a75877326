import { listMessages, messageLimitHeaders, sendMessage } from '@/lib/chats/messages';
import { config } from '@/lib/config';
import { listMessages as listSpec, sendMessage as sendSpec } from '@/lib/contract/social';
import { conditionalReply } from '@/lib/http/conditional';
import { Reply, route } from '@/lib/http/route';

// GET /api/v1/chats/{chatId}/messages.json – a page of messages and the poll_next_url after it (ETag/304)
export const GET = route(listSpec, async ({ db, auth, params, query, baseUrl, request }) =>
  conditionalReply(request, await listMessages(db, auth.userId, params.chatId, query, baseUrl)),
);

// POST /api/v1/chats/{chatId}/messages.json – send a message (moderated, rate-limited, pushed)
export const POST = route(sendSpec, async ({ db, auth, params, body }) => {
  const limit = config().messageLimitPer10Min;
  const sent = await sendMessage(db, auth.userId, params.chatId, body, { limitPer10Min: limit });
  return new Reply(sent, { headers: await messageLimitHeaders(db, params.chatId, auth.userId, limit) });
});
