import { listChats } from '@/lib/chats/chats';
import { inboxVersion, lookUntilChanged, userKey, versionTag } from '@/lib/chats/poll';
import { decodeVersionCursor, encodeVersionCursor } from '@/lib/chats/poll-cursor';
import * as chats from '@/lib/contract/chats';
import { matchesIfNoneMatch } from '@/lib/core/etag';
import { notModified, taggedReply } from '@/lib/http/conditional';
import { route } from '@/lib/http/route';

// GET /api/v1/chats.json – one entry per buddy with last_message and unread_count.
// The person's inbox version also moves with every chat change, so an unchanged list is one lookup (304),
// and a cursor (that version) with wait= holds until it moves.
export const GET = route(chats.listChats, async ({ db, auth, query, baseUrl, request, reauthenticate }) => {
  const userId = auth.userId;
  const seen = query.cursor !== undefined ? decodeVersionCursor(query.cursor) : undefined;
  const { value: version } = await lookUntilChanged(
    userKey(userId),
    seen !== undefined ? query.wait : undefined,
    () => inboxVersion(db, userId),
    (v) => v !== seen,
    { account: userId, stillAllowed: reauthenticate },
  );
  const tag = versionTag('chats', version, [userId, query.unread_only ?? false, query.limit ?? null]);
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), tag)) return notModified(tag);
  const chats = await listChats(db, userId, { unreadOnly: query.unread_only, limit: query.limit }, baseUrl);
  // The version was read before the list: a change racing it leaves the cursor behind (one extra answer, never a miss).
  const cursor = encodeVersionCursor(version);
  const next = new URLSearchParams({ cursor });
  if (query.unread_only) next.set('unread_only', '1');
  if (query.limit) next.set('limit', String(query.limit));
  return taggedReply({ ...chats, cursor, poll_next_url: `${baseUrl}/api/v1/chats.json?${next}` }, tag);
});
