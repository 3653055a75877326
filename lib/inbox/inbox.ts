// The inbox: everything an agent needs to act on, in one call cheap enough to
// poll every 30 s. Three queries, each bounded and driven by an index on the
// caller's id, so the cost follows what is pending or unread, never the history:
//   pending received requests   buddy_requests_pending_received_idx
//   recently accepted sent      buddy_requests_accepted_sent_idx
//   unread chats + new messages chat_members_unread_idx, then messages (chat_id, id)
//                               read backwards from the newest, at most N per chat
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Database } from '@/db';
import { SOCIAL_LIMITS } from '../contract/limits';
import { notBlockedBy } from '../blocks/status';
import { mayMeetUserByAgeSql } from '../ages/worlds';
import { requestRows } from '../buddies/requests';
import { inboxMeetups, type InboxMeetups } from '../meetups/inbox';
import { inboxPlans, planUpdates } from '../plans/plans';
import { toBuddyRequest } from '../buddies/records';
import { byRecentActivity, chatRows, unreadTotals } from '../chats/chats';
import { encodeCursor } from '../chats/cursor';
import {
  changedAfter,
  decodeInboxCursorOrThrow,
  encodeInboxCursor,
  invalidInboxCursor,
  type NewAfter,
  unseenIn,
} from '../chats/poll-cursor';
import { messagesUrl, toChat, toMessage } from '../chats/records';

export const POLL_INTERVAL_SECONDS = 30;
/**
 * The `since` beside the cursor in poll_next_url starts a little before now, so a caller that
 * keeps only `since` still misses nothing (at the price of repeats); the cursor repeats nothing.
 */
export const POLL_OVERLAP_MS = 5_000;
const DAY_MS = 86_400_000;

/** The inbox's three queries (exported so the benchmark can EXPLAIN exactly what the endpoint runs). */
export function inboxQueries(db: Database, viewerId: string, effectiveSince: Date, newAfter?: NewAfter) {
  const after: NewAfter = newAfter ?? { since: effectiveSince };
  const limit = SOCIAL_LIMITS.inboxItems;

  const pendingQuery = requestRows(db, 'r.sender_id')
    .select(sql<number>`count(*) over ()`.as('total'))
    .select(
      'snapshot' in after ? unseenIn('r.state_xid', after.snapshot).as('unseen') : sql<boolean>`false`.as('unseen'),
    )
    .where('r.recipient_id', '=', viewerId)
    .where('r.state', '=', 'pending')
    .where(notBlockedBy(viewerId, 'r.sender_id'))
    // A request from someone now of the other world by age (one of the two turned 18) is no one's.
    .where(mayMeetUserByAgeSql(viewerId, 'u.birthday'))
    .orderBy('r.created_at', 'desc')
    .limit(limit);

  const acceptedQuery = requestRows(db, 'r.recipient_id')
    .where('r.sender_id', '=', viewerId)
    .where('r.state', '=', 'accepted')
    .where(changedAfter('r.state_xid', 'r.responded_at', after))
    .where(notBlockedBy(viewerId, 'r.recipient_id'))
    .orderBy('r.responded_at', 'desc')
    .limit(limit);

  const chatsQuery = chatRows(db, viewerId)
    .where('cm.unread_count', '>', 0)
    .select((eb) => [
      sql<number>`count(*) over ()`.as('unread_chats'),
      sql<number>`sum(cm.unread_count) over ()`.as('unread_messages'),
      jsonArrayFrom(
        eb
          .selectFrom('messages as m')
          .select(['m.id', 'm.chat_id', 'm.sender_id', 'm.text', 'm.created_at', 'm.agent_name'])
          .whereRef('m.chat_id', '=', 'cm.chat_id')
          .whereRef('m.id', '>', 'cm.last_read_message_id')
          .where('m.sender_id', '<>', viewerId)
          .where(changedAfter('m.xid', 'm.created_at', after))
          .orderBy('m.id', 'desc')
          .limit(SOCIAL_LIMITS.inboxMessagesPerChat),
      ).as('new_messages'),
    ])
    .orderBy(byRecentActivity, 'desc')
    .orderBy('cm.chat_id')
    .limit(limit);

  return { pending: pendingQuery, accepted: acceptedQuery, chats: chatsQuery };
}

export function defaultSince(now: Date): Date {
  return new Date(now.getTime() - SOCIAL_LIMITS.inboxAcceptedDays * DAY_MS);
}

export interface InboxPosition {
  since?: Date;
  /** An inbox cursor from poll_next_url: preferred to `since` when both are given. */
  cursor?: string;
}

/**
 * The inbox, read in one snapshot that becomes the next poll's cursor, and whether it holds
 * anything new after `position` (what a long-poll waits for). State (pending requests and
 * unread counts) is in every answer; new messages and accepted requests only once.
 */
export async function readInbox(
  db: Database,
  viewerId: string,
  position: InboxPosition,
  baseUrl: string,
  { now = new Date(), plans: showPlans = true }: { now?: Date; plans?: boolean } = {},
) {
  const seen = position.cursor !== undefined ? decodeInboxCursorOrThrow(position.cursor) : undefined;
  const effectiveSince = position.since ?? defaultSince(now);
  const newAfter: NewAfter = seen !== undefined ? { snapshot: seen } : { since: effectiveSince };
  // Repeatable read: every query sees exactly the snapshot the next cursor names.
  const { snapshot, pending, accepted, chats, plans, planChanges, meetups } = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const current = await sql<{ snapshot: string; issued: boolean }>`
        select pg_current_snapshot()::text as snapshot,
          ${seen ?? null}::pg_snapshot is null
          or pg_snapshot_xmax(${seen ?? null}::pg_snapshot) <= pg_snapshot_xmax(pg_current_snapshot()) as issued`
        .execute(trx)
        .then((result) => result.rows[0]!);
      // A snapshot from the future would hide what has not happened yet: never issued here.
      if (!current.issued) throw invalidInboxCursor();
      const queries = inboxQueries(trx, viewerId, effectiveSince, newAfter);
      const noMeetups: InboxMeetups = { meetups_to_answer: [], meetup_updates: [], meetup_chats: [], changed: false };
      const [pendingRows, acceptedRows, chatRows, planRows, planChanges, meetupState] = await Promise.all([
        queries.pending.execute(),
        queries.accepted.execute(),
        queries.chats.execute(),
        // Plans are buddy:read's: a token without it gets none here either.
        showPlans ? inboxPlans(trx, viewerId, baseUrl, now) : { plans_to_answer: [], next_plan: null },
        // Every plan of theirs written since the cursor (plans.xid, migration 0022), once: what wakes the long-poll.
        showPlans ? planUpdates(trx, viewerId, newAfter, { baseUrl, now, limit: SOCIAL_LIMITS.inboxItems }) : [],
        // Meetups are buddy:read's too (lib/meetups/inbox.ts).
        showPlans ? inboxMeetups(trx, viewerId, newAfter, { baseUrl, now }) : noMeetups,
      ]);
      return {
        snapshot: current.snapshot,
        pending: pendingRows,
        accepted: acceptedRows,
        chats: chatRows,
        plans: planRows,
        planChanges,
        meetups: meetupState,
      };
    });

  const serverTime = now.toISOString();
  const nextSince = new Date(now.getTime() - POLL_OVERLAP_MS).toISOString();
  const cursor = encodeInboxCursor(snapshot);
  const pollNextUrl = `${baseUrl}/api/v1/inbox.json?cursor=${cursor}&since=${encodeURIComponent(nextSince)}`;
  const inbox = {
    pending_requests: pending.map((row) => toBuddyRequest(row, viewerId, baseUrl)),
    pending_requests_count: Number(pending[0]?.total ?? 0),
    accepted_requests: accepted.map((row) => toBuddyRequest(row, viewerId, baseUrl)),
    chats: chats.map((row) => ({
      ...toChat(row, viewerId, baseUrl),
      new_messages: [...row.new_messages].reverse().map((m) => toMessage(m, viewerId)),
      unread_url: messagesUrl(baseUrl, row.chat_id, { cursor: encodeCursor(Number(row.last_read_message_id)) }),
    })),
    unread_chats_count: Number(chats[0]?.unread_chats ?? 0),
    unread_messages_count: Number(chats[0]?.unread_messages ?? 0),
    plans_to_answer: plans.plans_to_answer,
    next_plan: plans.next_plan,
    plan_updates: planChanges,
    meetups_to_answer: meetups.meetups_to_answer,
    meetup_updates: meetups.meetup_updates,
    meetup_chats: meetups.meetup_chats,
    since: effectiveSince.toISOString(),
    server_time: serverTime,
    cursor,
    poll_next_url: pollNextUrl,
    next_poll_url: pollNextUrl,
    poll_interval_seconds: POLL_INTERVAL_SECONDS,
  };
  const after = seen !== undefined || position.since !== undefined;
  const sinceMs = effectiveSince.getTime();
  const hasNew =
    !after ||
    inbox.accepted_requests.length > 0 ||
    planChanges.length > 0 ||
    meetups.changed ||
    inbox.chats.some((chat) => chat.new_messages.length > 0) ||
    (seen !== undefined
      ? pending.some((row) => row.unseen)
      : inbox.pending_requests.some((request) => Date.parse(request.created_at) > sinceMs));
  return { inbox, hasNew };
}

/**
 * Just the inbox's two counts (pending requests to answer, chats with unread messages),
 * for the web menu on every account page: the same conditions as readInbox, without
 * loading the requests and messages themselves.
 */
export async function inboxCounts(
  db: Database,
  viewerId: string,
): Promise<{ pending_requests_count: number; unread_chats_count: number }> {
  const pending = inboxQueries(db, viewerId, new Date(0))
    .pending.clearSelect()
    .clearOrderBy()
    .clearLimit()
    .select((eb) => eb.fn.countAll<string>().as('n'));
  const [requests, unread] = await Promise.all([pending.executeTakeFirstOrThrow(), unreadTotals(db, viewerId)]);
  return { pending_requests_count: Number(requests.n), unread_chats_count: unread.chats };
}
