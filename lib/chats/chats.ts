// Chats: created with a buddy connection, listed per member, guarded so only the
// two participants can see or touch one (anyone else gets a 404).
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

/** The caller's membership of a chat they may see, or a 404 that does not reveal whether it exists. */
/**
 * Locks a chat the viewer belongs to (FOR NO KEY UPDATE on its row), so writes into one chat are serialised:
 * message limits and the open-plan cap hold under concurrency. Callers decide what each block direction means.
 */
export async function lockChatFor(trx: Database, { chatId, viewerId }: { chatId: string; viewerId: string }) {
  if (!isUuid(chatId)) throw chatNotFound();
  const chat = await trx
    .selectFrom('chats as c')
    .innerJoin('chat_members as cm', 'cm.chat_id', 'c.id')
    .select(['c.id', 'cm.other_user_id'])
    .where('c.id', '=', chatId)
    .where('cm.user_id', '=', viewerId)
    .forNoKeyUpdate('c')
    .executeTakeFirst();
  if (!chat) throw chatNotFound();
  const blocks = await blockStatus(trx, { viewerId, otherId: chat.other_user_id });
  return { ...chat, blocks };
}

export async function visibleMembership(db: Database, { viewerId, chatId }: { viewerId: string; chatId: string }) {
  if (!isUuid(chatId)) throw chatNotFound();
  const member = await db
    .selectFrom('chat_members as cm')
    .innerJoin('chats as c', 'c.id', 'cm.chat_id')
    .innerJoin('chat_members as om', (join) =>
      join.onRef('om.chat_id', '=', 'cm.chat_id').onRef('om.user_id', '=', 'cm.other_user_id'),
    )
    .select([
      'cm.chat_id',
      'cm.other_user_id',
      'cm.unread_count',
      'cm.last_read_message_id',
      'c.last_message_id',
      'om.last_read_message_id as buddy_last_read_message_id',
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
