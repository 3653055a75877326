// Chats: created with a buddy connection (two members) or a meetup (a group chat: the host and
// the confirmed, lib/meetups), listed per member, guarded so only members can see or touch one
// (anyone else gets a 404). Chat lists and the inbox's chats are buddy chats; a meetup's chat is
// reached from the meetup.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { ChatRecord } from '../contract/chats';
import { ApiError } from '../core/errors';
import { isUuid } from '../contract/validation';
import { blockStatus, chatNotHiddenFrom } from '../blocks/status';
import { JOINED_USER_CARD_COLUMNS } from '../profiles/records';
import { toChat } from './records';

export const chatNotFound = () =>
  new ApiError('not_found', 'Chat not found', {
    hint: 'List your chats with GET /api/v1/chats.json; only the two buddies can see a chat.',
  });

/** The member's view of their chats, hiding chats with people they blocked (a deleted member's stay). */
export function chatRows(db: Database, viewerId: string) {
  return db
    .selectFrom('chat_members as cm')
    .innerJoin('chats as c', 'c.id', 'cm.chat_id')
    .innerJoin('users as u', 'u.id', 'cm.other_user_id')
    .leftJoin('messages as lm', 'lm.id', 'c.last_message_id')
    .where('cm.user_id', '=', viewerId)
    .where(chatNotHiddenFrom(viewerId, 'cm.other_user_id'))
    .select([
      'cm.chat_id',
      'cm.unread_count',
      'cm.last_read_message_id',
      'c.created_at as chat_created_at',
      'c.last_message_at',
      ...JOINED_USER_CARD_COLUMNS,
      'lm.id as lm_id',
      'lm.sender_id as lm_sender_id',
      'lm.text as lm_text',
      'lm.created_at as lm_created_at',
      'lm.agent_name as lm_agent_name',
    ]);
}

export const byRecentActivity = sql`coalesce(c.last_message_at, c.created_at)`;

export async function getChatRecord(
  db: Database,
  { viewerId, chatId, baseUrl }: { viewerId: string; chatId: string; baseUrl: string },
): Promise<ChatRecord> {
  if (!isUuid(chatId)) throw chatNotFound();
  const row = await chatRows(db, viewerId).where('cm.chat_id', '=', chatId).executeTakeFirst();
  if (!row) throw chatNotFound();
  return toChat(row, viewerId, baseUrl);
}

export async function listChats(
  db: Database,
  viewerId: string,
  options: { unreadOnly?: boolean; limit?: number },
  baseUrl: string,
): Promise<{ chats: ChatRecord[]; total_unread: number }> {
  let query = chatRows(db, viewerId);
  if (options.unreadOnly) query = query.where('cm.unread_count', '>', 0);
  const [rows, unread] = await Promise.all([
    query
      .orderBy(byRecentActivity, 'desc')
      .orderBy('cm.chat_id')
      .limit(options.limit ?? 200)
      .execute(),
    unreadTotals(db, viewerId),
  ]);
  return { chats: rows.map((row) => toChat(row, viewerId, baseUrl)), total_unread: unread.messages };
}

/** Unread chats and messages across the member's visible chats (a partial-index scan). */
export async function unreadTotals(db: Database, viewerId: string): Promise<{ chats: number; messages: number }> {
  const row = await db
    .selectFrom('chat_members as cm')
    .select((eb) => [
      eb.fn.countAll<number>().as('chats'),
      eb.fn.coalesce(eb.fn.sum<number>('cm.unread_count'), sql<number>`0`).as('messages'),
    ])
    .where('cm.user_id', '=', viewerId)
    .where('cm.unread_count', '>', 0)
    .where(chatNotHiddenFrom(viewerId, 'cm.other_user_id'))
    .executeTakeFirstOrThrow();
  return { chats: Number(row.chats), messages: Number(row.messages) };
}

/**
 * Locks a chat the viewer belongs to (FOR NO KEY UPDATE on its row), so writes into one chat are serialised:
 * message limits, unread counters and the open-plan cap hold under concurrency. A buddy chat comes with its
 * other person; a meetup's group chat (other_user_id null) with its meetup.
 */
export async function lockChatMembership(trx: Database, { chatId, viewerId }: { chatId: string; viewerId: string }) {
  if (!isUuid(chatId)) throw chatNotFound();
  const chat = await trx
    .selectFrom('chats as c')
    .innerJoin('chat_members as cm', 'cm.chat_id', 'c.id')
    .select(['c.id', 'c.meetup_id', 'cm.other_user_id'])
    .where('c.id', '=', chatId)
    .where('cm.user_id', '=', viewerId)
    .forNoKeyUpdate('c')
    .executeTakeFirst();
  if (!chat) throw chatNotFound();
  return chat;
}

/**
 * lockChatMembership for a buddy chat (a group chat answers 404: plans are between two buddies), with
 * both block directions read. Callers decide what each block direction means.
 */
export async function lockChatFor(trx: Database, { chatId, viewerId }: { chatId: string; viewerId: string }) {
  const chat = await lockChatMembership(trx, { chatId, viewerId });
  const otherUserId = chat.other_user_id;
  if (otherUserId === null) throw chatNotFound();
  const blocks = await blockStatus(trx, { viewerId, otherId: otherUserId });
  return { id: chat.id, other_user_id: otherUserId, blocks };
}

/**
 * The caller's membership of a chat they may see, or a 404 that does not reveal whether it exists.
 * In a group chat there is no one buddy: buddy_last_read_message_id is 0 and no block hides it.
 */
export async function visibleMembership(db: Database, { viewerId, chatId }: { viewerId: string; chatId: string }) {
  if (!isUuid(chatId)) throw chatNotFound();
  const member = await db
    .selectFrom('chat_members as cm')
    .innerJoin('chats as c', 'c.id', 'cm.chat_id')
    .leftJoin('chat_members as om', (join) =>
      join.onRef('om.chat_id', '=', 'cm.chat_id').onRef('om.user_id', '=', 'cm.other_user_id'),
    )
    .select((eb) => [
      'cm.chat_id',
      'cm.other_user_id',
      'cm.unread_count',
      'cm.last_read_message_id',
      'c.last_message_id',
      eb.fn.coalesce('om.last_read_message_id', sql<number>`0`).as('buddy_last_read_message_id'),
    ])
    .where('cm.chat_id', '=', chatId)
    .where('cm.user_id', '=', viewerId)
    .where(chatNotHiddenFrom(viewerId, 'cm.other_user_id'))
    .executeTakeFirst();
  if (!member) throw chatNotFound();
  return member;
}

/**
 * Creates the chat of a new connection with both members' read markers. Called
 * inside the accept transaction, so nobody else can see the chat before it has
 * its first message.
 */
/** A meetup's group chat, its host the first member (lib/meetups adds and removes the confirmed). */
export async function createGroupChat(trx: Database, meetupId: string, hostId: string) {
  const chat = await trx.insertInto('chats').values({ meetup_id: meetupId }).returning('id').executeTakeFirstOrThrow();
  await addGroupMember(trx, chat.id, hostId);
  return chat;
}

/** Joins a group chat (its read marker starts at the latest message: the history before is not unread). */
export async function addGroupMember(trx: Database, chatId: string, userId: string) {
  await trx
    .insertInto('chat_members')
    .values({
      chat_id: chatId,
      user_id: userId,
      other_user_id: null,
      last_read_message_id: sql<number>`coalesce((select last_message_id from chats where id = ${chatId}), 0)`,
    })
    .onConflict((oc) => oc.columns(['chat_id', 'user_id']).doNothing())
    .execute();
}

/** Leaves a group chat: it disappears for them (only a buddy chat's membership is forever). */
export async function removeGroupMember(trx: Database, chatId: string, userId: string) {
  await trx
    .deleteFrom('chat_members')
    .where('chat_id', '=', chatId)
    .where('user_id', '=', userId)
    .where('other_user_id', 'is', null)
    .execute();
}

export async function createChat(trx: Database, connectionId: string, userIds: readonly [string, string]) {
  const chat = await trx
    .insertInto('chats')
    .values({ connection_id: connectionId })
    .returningAll()
    .executeTakeFirstOrThrow();
  const [first, second] = userIds;
  await trx
    .insertInto('chat_members')
    .values([
      { chat_id: chat.id, user_id: first, other_user_id: second },
      { chat_id: chat.id, user_id: second, other_user_id: first },
    ])
    .execute();
  return chat;
}
