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
import { SOCIAL_LIMITS } from '../contract/social';
import { notBlockedBy } from '../buddies/blocks';
import { requestRows } from '../buddies/requests';
import { inboxPlans } from '../plans/plans';
import { toBuddyRequest } from '../buddies/records';
import { byRecentActivity, chatRows, unreadTotals } from './chats';
import { encodeCursor } from './cursor';
import { messagesUrl, toChat, toMessage } from './records';

export const POLL_INTERVAL_SECONDS = 30;
/** poll_next_url starts a little before now, so a write committing during this call is not skipped. */
export const POLL_OVERLAP_MS = 5_000;
const DAY_MS = 86_400_000;

/** The inbox's three queries (exported so the benchmark can EXPLAIN exactly what the endpoint runs). */
export function inboxQueries(db: Database, viewerId: string, effectiveSince: Date) {
  const limit = SOCIAL_LIMITS.inboxItems;

  const pendingQuery = requestRows(db, 'r.sender_id')
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('r.recipient_id', '=', viewerId)
    .where('r.state', '=', 'pending')
    .where(notBlockedBy(viewerId, 'r.sender_id'))
    .orderBy('r.created_at', 'desc')
    .limit(limit);

  const acceptedQuery = requestRows(db, 'r.recipient_id')
    .where('r.sender_id', '=', viewerId)
    .where('r.state', '=', 'accepted')
    .where('r.responded_at', '>', effectiveSince)
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
          .where('m.created_at', '>', effectiveSince)
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

export async function readInbox(
  db: Database,
  viewerId: string,
  since: Date | undefined,
  baseUrl: string,
  { now = new Date(), plans: showPlans = true }: { now?: Date; plans?: boolean } = {},
) {
  const effectiveSince = since ?? defaultSince(now);
  const queries = inboxQueries(db, viewerId, effectiveSince);
  const [pending, accepted, chats, plans] = await Promise.all([
    queries.pending.execute(),
    queries.accepted.execute(),
    queries.chats.execute(),
    // Plans are buddy:read's: a token without it gets none here either.
    showPlans ? inboxPlans(db, viewerId, baseUrl, now) : { plans_to_answer: [], next_plan: null },
  ]);

  const serverTime = now.toISOString();
  const nextSince = new Date(now.getTime() - POLL_OVERLAP_MS).toISOString();
  const pollNextUrl = `${baseUrl}/api/v1/inbox.json?since=${encodeURIComponent(nextSince)}`;
  return {
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
    since: effectiveSince.toISOString(),
    server_time: serverTime,
    poll_next_url: pollNextUrl,
    next_poll_url: pollNextUrl,
    poll_interval_seconds: POLL_INTERVAL_SECONDS,
  };
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

type Inbox = Awaited<ReturnType<typeof readInbox>>;

/** Whether an inbox read with `since` holds anything that happened after it (what a long-poll waits for). */
export function hasNewSince(inbox: Inbox, since: Date): boolean {
  const after = since.getTime();
  return (
    inbox.accepted_requests.length > 0 ||
    inbox.plans_to_answer.some((plan) => Date.parse(plan.updated_at) > after) ||
    (inbox.next_plan !== null && Date.parse(inbox.next_plan.updated_at) > after) ||
    inbox.chats.some((chat) => chat.new_messages.length > 0) ||
    inbox.pending_requests.some((request) => Date.parse(request.created_at) > after)
  );
}
