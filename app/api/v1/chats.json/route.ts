import { listChats } from '@/lib/chats/chats';
import { inboxVersion, versionTag } from '@/lib/chats/poll';
import * as social from '@/lib/contract/social';
import { matchesIfNoneMatch, notModified, taggedReply } from '@/lib/http/conditional';
import { route } from '@/lib/http/route';

// GET /api/v1/chats.json – one entry per buddy with last_message and unread_count.
// The person's inbox version also moves with every chat change, so an unchanged list is one lookup (304).
export const GET = route(social.listChats, async ({ db, auth, query, baseUrl, request }) => {
  const version = await inboxVersion(db, auth.userId);
  const tag = versionTag('chats', version, [auth.userId, query.unread_only ?? false, query.limit ?? null]);
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), tag)) return notModified(tag);
  const chats = await listChats(db, auth.userId, { unreadOnly: query.unread_only, limit: query.limit }, baseUrl);
  return taggedReply(chats, tag);
});
