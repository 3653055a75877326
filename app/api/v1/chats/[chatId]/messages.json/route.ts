import { visibleMembership } from '@/lib/chats/chats';
import { isOlderCursor } from '@/lib/chats/cursor';
import { listMessages, messageLimitHeaders, sendMessage } from '@/lib/chats/messages';
import { chatKey, lookUntilChanged, versionTag } from '@/lib/chats/poll';
import { config } from '@/lib/config';
import * as chats from '@/lib/contract/chats';
import { matchesIfNoneMatch } from '@/lib/core/etag';
import { notModified, taggedReply } from '@/lib/http/conditional';
import { Reply, route } from '@/lib/http/route';

// GET /api/v1/chats/{chatId}/messages.json – a page of messages and the poll_next_url after it.
// An unchanged page (If-None-Match) costs the membership lookup alone; wait= holds an empty page.
export const GET = route(chats.listMessages, async ({ db, auth, params, query, baseUrl, request, reauthenticate }) => {
  const { wait, ...pageQuery } = query;
  const holder = { account: auth.userId, stillAllowed: reauthenticate };
  const pageParts = [
    auth.userId,
    params.chatId,
    pageQuery.limit ?? null,
    pageQuery.since?.getTime() ?? null,
    pageQuery.cursor ?? null,
    pageQuery.mark_read ?? false,
  ];
  const tagOf = (member: Awaited<ReturnType<typeof visibleMembership>>) =>
    versionTag('messages', String(member.last_message_id ?? 0), [
      ...pageParts,
      member.unread_count,
      String(member.last_read_message_id),
      String(member.buddy_last_read_message_id),
    ]);

  const knownTag = request.headers.get('if-none-match');
  if (knownTag) {
    const { value: member, timedOut } = await lookUntilChanged(
      chatKey(params.chatId),
      wait,
      () => visibleMembership(db, { viewerId: auth.userId, chatId: params.chatId }),
      (m) => !matchesIfNoneMatch(knownTag, tagOf(m)),
      holder,
    );
    if (timedOut || matchesIfNoneMatch(knownTag, tagOf(member))) return notModified(tagOf(member));
  }

  // Only a page that continues from somewhere (cursor or since) can be "nothing new yet"; an older page never is.
  // It is held even when If-None-Match named another page's tag (the page before poll_next_url, which
  // never matches the empty one after it): an empty answer is never instant. A read marker moving
  // while it is held still answers at once.
  const continues =
    (pageQuery.cursor !== undefined || pageQuery.since !== undefined) && !isOlderCursor(pageQuery.cursor);
  let heldFrom: string | undefined;
  const { value } = await lookUntilChanged(
    chatKey(params.chatId),
    continues ? wait : undefined,
    async () => {
      const member = await visibleMembership(db, { viewerId: auth.userId, chatId: params.chatId });
      return {
        member,
        page: await listMessages(db, { viewerId: auth.userId, chatId: params.chatId, query: pageQuery, baseUrl }),
      };
    },
    ({ page, member }) => {
      // The page's tag is the membership's state (this request's page parts fixed): moved, it answers.
      heldFrom ??= tagOf(member);
      return page.messages.length > 0 || tagOf(member) !== heldFrom;
    },
    holder,
  );
  // Tagged with the state read before the page, never after it: a message that arrives while this
  // page is answered would otherwise be in the tag but not in the body, and every later poll would
  // get 304 without it. (A page that marked messages read costs one more 200 on the next poll.)
  return taggedReply(value.page, tagOf(value.member));
});

// POST /api/v1/chats/{chatId}/messages.json – send a message (moderated, rate-limited, pushed).
// A message sent with an assistant's token is that assistant's (a body may name no other,
// lib/attribution/attribution.ts): the chat labels it "sent by <agent> for <person>" for both people.
export const POST = route(
  chats.sendMessage,
  async ({ db, auth, params, body }) => {
    const rule = config().limits.messages;
    const by = auth.via === 'bearer' && auth.agentName ? { ...body, agentName: auth.agentName } : body;
    const { sent, limitHeaders } = await sendMessage(db, {
      viewerId: auth.userId,
      chatId: params.chatId,
      body: by,
      messageLimit: rule,
    });
    return new Reply(sent, { headers: limitHeaders });
  },
  {
    replayLimitHeaders: ({ db, userId, params }) =>
      messageLimitHeaders(db, {
        viewerId: userId,
        chatId: (params as { chatId: string }).chatId,
        rule: config().limits.messages,
      }),
  },
);
