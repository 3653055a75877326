// Messages: sending (moderated, rate-limited, unread counter and push in the same
// transaction), paging with gap-free cursors, and read markers.
//
// Every insert into a chat first takes that chat's row lock, so within a chat
// message ids are committed in increasing order and created_at never goes
// backwards. That one lock makes three things exact: the rate limit count, the
// unread counters, and "everything after id N" paging.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { MessageRow } from '@/db/types';
import type { Attribution } from '../attribution/attribution';
import type { MessageRecord, SendMessageBody } from '../contract/chats';
import { SOCIAL_LIMITS } from '../contract/limits';
import { ApiError, ERROR_ADVICE } from '../core/errors';
import { isUuid } from '../contract/validation';
import { rateLimitHeaders, windowUnit } from '../limits/rate-limits';
import type { LimitRule } from '../limits/rules';
import { enqueue, QUEUES } from '../jobs/boss';
import { assertTextAllowed } from '../moderation/text';
import type { PushJob } from '../notifications/push-job';
import { blockStatus } from '../blocks/status';
import { chatNotFound, lockChatMembership, visibleMembership } from './chats';
import { cursorAhead, decodeCursorOrThrow, encodeCursor, encodeOlderCursor } from './cursor';
import { messagesUrl, toMessage } from './records';

export interface NewMessage {
  chatId: string;
  senderId: string;
  text: string;
  by: Attribution;
}

/**
 * Stores a message and bumps every other member's unread counter (the buddy, or everyone else in a
 * group chat). The caller must hold the chat row lock (or have created the chat in this transaction).
 */
export async function insertMessage(trx: Database, input: NewMessage): Promise<MessageRow> {
  const message = await trx
    .insertInto('messages')
    .values({
      chat_id: input.chatId,
      sender_id: input.senderId,
      text: input.text,
      agent_name: input.by.agentName ?? null,
      agent_session_id: input.by.agentSessionId ?? null,
      // Millisecond precision (what `since` speaks), never before the previous message.
      created_at: sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), (select last_message_at from chats where id = ${input.chatId}))`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('chats')
    .set({ last_message_id: message.id, last_message_at: message.created_at })
    .where('id', '=', input.chatId)
    .execute();
  await trx
    .updateTable('chat_members')
    .set((eb) => ({ unread_count: eb('unread_count', '+', 1) }))
    .where('chat_id', '=', input.chatId)
    .where('user_id', '<>', input.senderId)
    .execute();
  return message;
}

/** This sender's messages in this chat within the rolling window, and seconds until the oldest leaves it. */
async function messageWindow(
  executor: Database,
  { chatId, senderId, windowSeconds }: { chatId: string; senderId: string; windowSeconds: number },
) {
  const recent = await executor
    .selectFrom('messages')
    .select((eb) => [
      eb.fn.countAll<number>().as('count'),
      sql<number>`ceil(extract(epoch from min(created_at) + make_interval(secs => ${windowSeconds}) - clock_timestamp()))`.as(
        'retry_after',
      ),
    ])
    .where('chat_id', '=', chatId)
    .where('sender_id', '=', senderId)
    .where('created_at', '>', sql<Date>`clock_timestamp() - make_interval(secs => ${windowSeconds})`)
    .executeTakeFirstOrThrow();
  const resetSeconds = Math.max(1, Number(recent.retry_after) || windowSeconds);
  return { count: Number(recent.count), resetSeconds };
}

const messageRateLimit = (rule: LimitRule, remaining: number, resetSeconds: number) =>
  rateLimitHeaders('messages', rule, remaining, resetSeconds);

/** The RateLimit fields after a send: what this sender has left in this chat. */
export async function messageLimitHeaders(
  db: Database,
  { viewerId, chatId, rule }: { viewerId: string; chatId: string; rule: LimitRule },
) {
  const { count, resetSeconds } = await messageWindow(db, {
    chatId,
    senderId: viewerId,
    windowSeconds: rule.windowSeconds,
  });
  return messageRateLimit(rule, rule.points - count, resetSeconds);
}

/**
 * At most `rule.points` messages from one sender in one chat in any rolling window.
 * Runs under the chat row lock, so parallel sends are counted one after another.
 * Returns the window as it stands before this send.
 */
async function enforceMessageLimit(
  trx: Database,
  { chatId, senderId, rule }: { chatId: string; senderId: string; rule: LimitRule },
): Promise<{ count: number; resetSeconds: number }> {
  const { count, resetSeconds } = await messageWindow(trx, { chatId, senderId, windowSeconds: rule.windowSeconds });
  if (count >= rule.points) {
    throw new ApiError(
      'rate_limited',
      `At most ${rule.points} messages per ${windowUnit(rule.windowSeconds)} in one chat`,
      {
        hint: `${ERROR_ADVICE.rate_limited} Your buddy has not answered much yet; give them time.`,
        retryAfterSeconds: resetSeconds,
        rateLimit: { policy: 'messages', points: rule.points, windowSeconds: rule.windowSeconds },
      },
    );
  }
  return { count, resetSeconds };
}

export async function sendMessage(
  db: Database,
  {
    viewerId,
    chatId,
    body,
    messageLimit,
  }: { viewerId: string; chatId: string; body: SendMessageBody; messageLimit: LimitRule },
): Promise<{ sent: { success: true; message: MessageRecord }; limitHeaders: Record<string, string> }> {
  if (!isUuid(chatId)) throw chatNotFound();
  assertTextAllowed(body.text, 'text');
  const { row: message, window } = await db.transaction().execute(async (trx) => {
    const chat = await lockChatMembership(trx, { chatId, viewerId });
    let recipients: string[];
    if (chat.other_user_id === null) {
      // A meetup's group chat: its members are the host and the confirmed, kept so by lib/meetups
      // under the meetup's lock; a block between two of them hides nothing here (docs/decisions/meetups.md).
      const others = await trx
        .selectFrom('chat_members')
        .select('user_id')
        .where('chat_id', '=', chatId)
        .where('user_id', '<>', viewerId)
        .execute();
      recipients = others.map((row) => row.user_id);
    } else {
      const blocks = await blockStatus(trx, { viewerId, otherId: chat.other_user_id });
      if (blocks.byMe) throw chatNotFound();
      if (blocks.byThem) {
        throw new ApiError('chat_unavailable', 'This chat is not accepting messages');
      }
      recipients = [chat.other_user_id];
    }
    const window = await enforceMessageLimit(trx, { chatId, senderId: viewerId, rule: messageLimit });
    const row = await insertMessage(trx, { chatId, senderId: viewerId, text: body.text, by: body });
    for (const recipientId of recipients) {
      const job: PushJob = { kind: 'message', recipientId, chatId, messageId: row.id };
      await enqueue(trx, QUEUES.push, job);
    }
    return { row, window };
  });
  // What is left after this send, from the count taken under the lock: no second count (issue 48).
  const left = messageLimit.points - (window.count + 1);
  return {
    sent: { success: true, message: toMessage(message, viewerId) },
    limitHeaders: messageRateLimit(messageLimit, left, window.resetSeconds),
  };
}

export interface ListMessagesQuery {
  limit?: number;
  since?: Date;
  cursor?: string;
  mark_read?: boolean;
}

const messageColumns = ['id', 'chat_id', 'sender_id', 'text', 'created_at', 'agent_name'] as const;

export async function listMessages(
  db: Database,
  { viewerId, chatId, query, baseUrl }: { viewerId: string; chatId: string; query: ListMessagesQuery; baseUrl: string },
) {
  const member = await visibleMembership(db, { viewerId, chatId });
  const limit = query.limit ?? SOCIAL_LIMITS.messagesPageDefault;
  const cursor = query.cursor !== undefined ? decodeCursorOrThrow(query.cursor) : undefined;
  const after = cursor && 'after' in cursor ? cursor.after : undefined;
  const before = cursor && 'before' in cursor ? cursor.before : undefined;
  // A cursor past the chat's last message was never issued: followed, it would skip every
  // message below it forever.
  if ((after ?? before ?? 0) > Number(member.last_message_id ?? 0)) throw cursorAhead();

  let rows: Pick<MessageRow, (typeof messageColumns)[number]>[];
  let hasMore = false;
  let olderExists = false;
  if (before === undefined && (after !== undefined || query.since !== undefined)) {
    // Forward paging: the oldest messages after the cursor / since, one extra to know if more follow.
    let forward = db.selectFrom('messages').select(messageColumns).where('chat_id', '=', chatId);
    if (after !== undefined) forward = forward.where('id', '>', after);
    if (query.since !== undefined) forward = forward.where('created_at', '>', query.since);
    rows = await forward
      .orderBy('id', 'asc')
      .limit(limit + 1)
      .execute();
    hasMore = rows.length > limit;
    rows = rows.slice(0, limit);
    // Polls mostly come back empty: only a page with messages asks whether older ones exist.
    const first = rows[0];
    olderExists =
      first !== undefined &&
      (await db
        .selectFrom('messages')
        .select('id')
        .where('chat_id', '=', chatId)
        .where('id', '<', first.id)
        .limit(1)
        .executeTakeFirst()) !== undefined;
  } else {
    // First look at a chat (the latest page), or older_cursor (the page before a message):
    // newest first with one extra to know if older ones exist, shown oldest first.
    let backward = db.selectFrom('messages').select(messageColumns).where('chat_id', '=', chatId);
    if (before !== undefined) backward = backward.where('id', '<', before);
    rows = await backward
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    olderExists = rows.length > limit;
    rows = rows.slice(0, limit).reverse();
    // Newer messages follow a page before a message (that message, at least).
    hasMore = before !== undefined && rows.length > 0;
  }

  const last = rows.at(-1);
  let unreadCount = member.unread_count;
  if (query.mark_read && last)
    unreadCount = (await markReadUpTo(db, { viewerId, chatId, uptoId: last.id })).unread_count;

  // The next page starts after the last message returned. With nothing returned,
  // the same query is still correct (created_at only grows within a chat).
  const carry = { limit: query.limit, mark_read: query.mark_read ? 1 : undefined };
  const nextQuery = last
    ? { cursor: encodeCursor(last.id), ...carry }
    : after !== undefined || before !== undefined
      ? { cursor: encodeCursor(after ?? (before ?? 1) - 1), ...carry }
      : query.since !== undefined
        ? { since: query.since.getTime(), ...carry }
        : { cursor: encodeCursor(0), ...carry };

  return {
    chatId,
    messages: rows.map((row) => toMessage(row, viewerId)),
    unread_count: unreadCount,
    buddy_last_read_message_id:
      member.buddy_last_read_message_id > 0 ? String(member.buddy_last_read_message_id) : null,
    has_more: hasMore,
    older_cursor: olderExists && rows[0] ? encodeOlderCursor(rows[0].id) : null,
    poll_next_url: messagesUrl(baseUrl, chatId, nextQuery),
  };
}

/**
 * Moves the read marker forward to `uptoId` (never back) and recounts what is
 * still unread. FOR SHARE on the chat waits out in-flight sends, whose unread
 * increments would otherwise race the recount.
 */
async function markReadUpTo(
  db: Database,
  { viewerId, chatId, uptoId }: { viewerId: string; chatId: string; uptoId: number | 'latest' },
) {
  return db.transaction().execute(async (trx) => {
    const chat = await trx
      .selectFrom('chats')
      .select('last_message_id')
      .where('id', '=', chatId)
      .forShare()
      .executeTakeFirstOrThrow();
    const latest = chat.last_message_id ?? 0;
    const upto = uptoId === 'latest' ? latest : uptoId;
    const updated = await trx
      .updateTable('chat_members')
      .set({
        last_read_message_id: upto,
        last_read_at: sql<Date>`now()`,
        unread_count:
          upto >= latest
            ? 0
            : sql<number>`(select count(*) from messages m where m.chat_id = ${chatId} and m.sender_id <> ${viewerId} and m.id > ${upto})`,
      })
      .where('chat_id', '=', chatId)
      .where('user_id', '=', viewerId)
      .where('last_read_message_id', '<', upto)
      .returning(['last_read_message_id', 'unread_count'])
      .executeTakeFirst();
    if (updated) return updated;
    return trx
      .selectFrom('chat_members')
      .select(['last_read_message_id', 'unread_count'])
      .where('chat_id', '=', chatId)
      .where('user_id', '=', viewerId)
      .executeTakeFirstOrThrow();
  });
}

/** POST read.json: everything up to the latest message is read. Idempotent. */
export async function markChatRead(db: Database, { viewerId, chatId }: { viewerId: string; chatId: string }) {
  await visibleMembership(db, { viewerId, chatId });
  const marker = await markReadUpTo(db, { viewerId, chatId, uptoId: 'latest' });
  return {
    success: true as const,
    chatId,
    last_read_message_id: marker.last_read_message_id > 0 ? String(marker.last_read_message_id) : null,
    unread_count: marker.unread_count,
  };
}
