import { readInbox } from '@/lib/inbox/inbox';
import { inboxShowsPlans, inboxTag, inboxVersion, lookUntilChanged, userKey } from '@/lib/chats/poll';
import * as inbox from '@/lib/contract/inbox';
import { matchesIfNoneMatch } from '@/lib/core/etag';
import { notModified, taggedReply } from '@/lib/http/conditional';
import { route } from '@/lib/http/route';

// GET /api/v1/inbox.json – pending and accepted requests, unread chats and new messages.
// An unchanged poll (If-None-Match) costs one version lookup; wait= holds it until something changes.
export const GET = route(inbox.getInbox, async ({ db, auth, query, baseUrl, request, reauthenticate }) => {
  const userId = auth.userId;
  const holder = { account: userId, stillAllowed: reauthenticate };
  const knownTag = request.headers.get('if-none-match');
  const plans = inboxShowsPlans(auth.scopes);

  if (knownTag) {
    const { value: version, timedOut } = await lookUntilChanged(
      userKey(userId),
      query.wait,
      () => inboxVersion(db, userId),
      (v) => !matchesIfNoneMatch(knownTag, inboxTag(v, userId, auth.scopes)),
      holder,
    );
    const tag = inboxTag(version, userId, auth.scopes);
    if (timedOut || matchesIfNoneMatch(knownTag, tag)) return notModified(tag);
  }

  // Without a tag, the cursor (or `since`) says what is new. The version is read before the inbox,
  // so a change racing this read gives a tag that is already stale (a harmless extra 200 later).
  const position = { since: query.since, cursor: query.cursor };
  const continues = query.cursor !== undefined || query.since !== undefined;
  const { value } = await lookUntilChanged(
    userKey(userId),
    // A stale tag is answered at once: the caller is behind.
    continues && !knownTag ? query.wait : undefined,
    async () => {
      const version = await inboxVersion(db, userId);
      return { version, ...(await readInbox(db, userId, position, baseUrl, { plans })) };
    },
    ({ hasNew }) => hasNew,
    holder,
  );
  return taggedReply(value.inbox, inboxTag(value.version, userId, auth.scopes));
});
