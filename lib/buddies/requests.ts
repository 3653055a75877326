// Buddy requests (SPEC 3.2): pending → accepted (connection + chat + first
// message, one transaction) | declined | cancelled.
//
// Concurrency: everything that creates a request or a connection for a pair
// first takes a transaction-scoped advisory lock on the unordered pair, and
// accept/decline/cancel lock the request row, so parallel calls queue up and the
// loser sees the winner's result. The partial unique index (one pending request
// per pair) and the unique pair on connections are the backstops.
import { sql, type ExpressionBuilder } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Database } from '@/db';
import type { BuddyRequestRow, BuddyRequestState, DB, MessageRow } from '@/db/types';
import { recordAgentAction, type Attribution } from '../attribution/attribution';
import type { AcceptBody, BuddyRequestBody, BuddyRequestRecord } from '../contract/buddies';
import type { ChatRecord } from '../contract/chats';
import { SOCIAL_LIMITS } from '../contract/limits';
import { ApiError, ERROR_ADVICE } from '../core/errors';
import { isUuid } from '../contract/validation';
import { enqueue, QUEUES } from '../jobs/boss';
import { assertTextAllowed } from '../moderation/text';
import type { PushJob } from '../notifications/push-job';
import { createChat, getChatRecord } from '../chats/chats';
import { insertMessage } from '../chats/messages';
import { toMessage, messagesUrl } from '../chats/records';
import { blockStatus, notBlockedBy } from '../blocks/status';
import { mayMeetByAgeSql, mayMeetUserByAgeSql } from '../ages/worlds';
import { resolveOtherUser } from './blocks';
import { refuseWhileAwaitingConsent } from '../profiles/consent';
import { toBuddyRequest } from './records';

const LIST_LIMIT = 100;

const requestNotFound = () =>
  new ApiError('not_found', 'Buddy request not found', {
    hint: 'List your requests with GET /api/v1/buddy_requests.json.',
  });

const recipientUnavailable = () =>
  new ApiError('recipient_unavailable', 'This person is not available for a buddy request from you', {
    hint: `${ERROR_ADVICE.recipient_unavailable} If you blocked them, unblock them first (DELETE /api/v1/users/{slug}/block.json).`,
  });

type RequestRowsDb = DB & { r: DB['buddy_requests']; u: DB['users'] };

/** Requests joined with the other person's card; `otherColumn` names which side that is. */
export function requestRows(db: Database, otherColumn: 'r.sender_id' | 'r.recipient_id') {
  return db
    .selectFrom('buddy_requests as r')
    .innerJoin('users as u', 'u.id', otherColumn)
    .select([
      'r.id',
      'r.sender_id',
      'r.recipient_id',
      'r.message',
      'r.activity_ids',
      'r.state',
      'r.chat_id',
      'r.created_at',
      'r.responded_at',
    ])
    .select((eb) =>
      jsonBuildObject({
        id: eb.ref('u.id'),
        slug: eb.ref('u.slug'),
        display_name: eb.ref('u.display_name'),
        photo_url: eb.ref('u.photo_url'),
        public_location: eb.ref('u.public_location'),
      }).as('other'),
    );
}

async function loadRequest(
  db: Database,
  { viewerId, requestId, baseUrl }: { viewerId: string; requestId: string; baseUrl: string },
): Promise<BuddyRequestRecord> {
  const side = await db
    .selectFrom('buddy_requests')
    .select('sender_id')
    .where('id', '=', requestId)
    .executeTakeFirstOrThrow();
  const row = await requestRows(db, side.sender_id === viewerId ? 'r.recipient_id' : 'r.sender_id')
    .where('r.id', '=', requestId)
    .executeTakeFirstOrThrow();
  return toBuddyRequest(row, viewerId, baseUrl);
}

/** Serialises request/connection writes for one unordered pair across all app instances. */
async function lockPair(trx: Database, a: string, b: string): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  await sql`select pg_advisory_xact_lock(hashtextextended(${`buddy-pair:${low}:${high}`}, 0))`.execute(trx);
}

async function findChatOfPair(db: Database, a: string, b: string): Promise<string | undefined> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const row = await db
    .selectFrom('connections as k')
    .innerJoin('chats as c', 'c.connection_id', 'k.id')
    .select('c.id')
    .where('k.user_a', '=', low)
    .where('k.user_b', '=', high)
    .executeTakeFirst();
  return row?.id;
}

interface Accepted {
  chatId: string;
  firstMessage: MessageRow | null;
}

/** Accepts a pending request whose row the caller has locked: connection, chat, first message, push. */
async function acceptLocked(
  trx: Database,
  request: BuddyRequestRow,
  firstMessage: string | null,
  by: Attribution,
): Promise<Accepted> {
  const { sender_id: sender, recipient_id: recipient } = request;
  const [low, high] = sender < recipient ? [sender, recipient] : [recipient, sender];
  const connection = await trx
    .insertInto('connections')
    .values({ user_a: low, user_b: high })
    .returning('id')
    .executeTakeFirstOrThrow();
  const chat = await createChat(trx, connection.id, [sender, recipient]);
  await trx
    .updateTable('buddy_requests')
    .set({
      state: 'accepted',
      responded_at: sql<Date>`now()`,
      chat_id: chat.id,
      responder_agent_name: by.agentName ?? null,
      responder_agent_session_id: by.agentSessionId ?? null,
    })
    .where('id', '=', request.id)
    .execute();
  const message = firstMessage
    ? await insertMessage(trx, { chatId: chat.id, senderId: recipient, text: firstMessage, by })
    : null;
  const job: PushJob = { kind: 'request_accepted', recipientId: sender, requestId: request.id, chatId: chat.id };
  await enqueue(trx, QUEUES.push, job);
  await recordAgentAction(trx, recipient, 'accept_buddy_request', by);
  return { chatId: chat.id, firstMessage: message };
}

export interface CreateRequestResult {
  success: true;
  outcome: 'created' | 'already_pending' | 'accepted_reverse';
  request: BuddyRequestRecord;
  chat: ChatRecord | null;
}

export async function createBuddyRequest(
  db: Database,
  {
    viewerId,
    slugOrId,
    body,
    baseUrl,
  }: { viewerId: string; slugOrId: string; body: BuddyRequestBody; baseUrl: string },
): Promise<CreateRequestResult> {
  await refuseWhileAwaitingConsent(db, viewerId);
  const target = await resolveOtherUser(db, { viewerId, slugOrId, action: 'send a buddy request to' });
  // Canonical already: the contract's activity list maps plain English to ids.
  const activityIds = body.activityIds ?? [];
  const message = body.message || null;
  assertTextAllowed(message, 'message');

  const result = await db.transaction().execute(async (trx) => {
    await lockPair(trx, viewerId, target.id);
    const blocks = await blockStatus(trx, { viewerId, otherId: target.id });
    if (blocks.byMe || blocks.byThem) throw recipientUnavailable();
    const existingChat = await findChatOfPair(trx, viewerId, target.id);
    if (existingChat) {
      throw new ApiError('already_buddies', `You are already buddies with ${target.display_name}`, {
        hint: `Write in your chat instead: POST ${messagesUrl(baseUrl, existingChat)} (chatId ${existingChat}).`,
      });
    }
    const pending = await trx
      .selectFrom('buddy_requests')
      .selectAll()
      .where('state', '=', 'pending')
      .where((eb) =>
        eb.or([
          eb.and([eb('sender_id', '=', viewerId), eb('recipient_id', '=', target.id)]),
          eb.and([eb('sender_id', '=', target.id), eb('recipient_id', '=', viewerId)]),
        ]),
      )
      .forUpdate()
      .executeTakeFirst();
    if (pending && pending.sender_id === viewerId)
      return { outcome: 'already_pending' as const, requestId: pending.id, chatId: null };
    if (pending) {
      // They already asked us: saying yes is the natural reading; our message opens the chat.
      const accepted = await acceptLocked(trx, pending, message, body);
      return { outcome: 'accepted_reverse' as const, requestId: pending.id, chatId: accepted.chatId };
    }
    const recentlyDeclined = await trx
      .selectFrom('buddy_requests')
      .select('id')
      .where('sender_id', '=', viewerId)
      .where('recipient_id', '=', target.id)
      .where('state', '=', 'declined')
      .where('responded_at', '>', sql<Date>`now() - make_interval(days => ${SOCIAL_LIMITS.declineCooldownDays})`)
      .executeTakeFirst();
    if (recentlyDeclined) {
      throw new ApiError('request_declined', `${target.display_name} declined your last request`);
    }
    const created = await trx
      .insertInto('buddy_requests')
      .values({
        sender_id: viewerId,
        recipient_id: target.id,
        message,
        activity_ids: activityIds,
        agent_name: body.agentName ?? null,
        agent_session_id: body.agentSessionId ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job: PushJob = { kind: 'buddy_request', recipientId: target.id, requestId: created.id };
    await enqueue(trx, QUEUES.push, job);
    await recordAgentAction(trx, viewerId, 'send_buddy_request', body);
    return { outcome: 'created' as const, requestId: created.id, chatId: null };
  });

  return {
    success: true,
    outcome: result.outcome,
    request: await loadRequest(db, { viewerId, requestId: result.requestId, baseUrl }),
    chat: result.chatId ? await getChatRecord(db, { viewerId, chatId: result.chatId, baseUrl }) : null,
  };
}

export async function listBuddyRequests(
  db: Database,
  viewerId: string,
  filter: { state?: BuddyRequestState },
  baseUrl: string,
) {
  // A request across the two worlds by age (one of them turned 18 since) is no one's: only an accepted
  // one, whose connection stays, is still listed.
  const sameWorldOrAccepted = (eb: ExpressionBuilder<RequestRowsDb, 'r'>) =>
    eb.or([eb('r.state', '=', 'accepted'), mayMeetUserByAgeSql(viewerId, 'u.birthday')]);
  let sent = requestRows(db, 'r.recipient_id')
    .where('r.sender_id', '=', viewerId)
    .where(notBlockedBy(viewerId, 'r.recipient_id'))
    .where(sameWorldOrAccepted);
  let received = requestRows(db, 'r.sender_id')
    .where('r.recipient_id', '=', viewerId)
    .where(notBlockedBy(viewerId, 'r.sender_id'))
    .where(sameWorldOrAccepted);
  if (filter.state) {
    sent = sent.where('r.state', '=', filter.state);
    received = received.where('r.state', '=', filter.state);
  }
  const [sentRows, receivedRows] = await Promise.all([
    sent.orderBy('r.created_at', 'desc').limit(LIST_LIMIT).execute(),
    received.orderBy('r.created_at', 'desc').limit(LIST_LIMIT).execute(),
  ]);
  return {
    sent: sentRows.map((row) => toBuddyRequest(row, viewerId, baseUrl)),
    received: receivedRows.map((row) => toBuddyRequest(row, viewerId, baseUrl)),
  };
}

type Role = 'recipient' | 'sender';

/**
 * Locks a request the caller takes part in. Strangers (and a blocker, from whom
 * the request is hidden) get 404; the wrong side gets 403; a settled request 409.
 */
async function lockOwnRequest(
  trx: Database,
  { viewerId, requestId, role }: { viewerId: string; requestId: string; role: Role },
) {
  if (!isUuid(requestId)) throw requestNotFound();
  const found = await trx
    .selectFrom('buddy_requests as r')
    .selectAll('r')
    .select(
      mayMeetByAgeSql(
        sql<string | null>`(select birthday from users where id = r.sender_id)`,
        sql<string | null>`(select birthday from users where id = r.recipient_id)`,
      ).as('same_world'),
    )
    .where('r.id', '=', requestId)
    .forUpdate()
    .executeTakeFirst();
  if (!found || (found.sender_id !== viewerId && found.recipient_id !== viewerId)) throw requestNotFound();
  const { same_world: sameWorld, ...request } = found;
  // One of the two crossed 18 since it was sent: nothing new crosses, so the request is no one's.
  if (request.state === 'pending' && !sameWorld) throw requestNotFound();
  const other = request.sender_id === viewerId ? request.recipient_id : request.sender_id;
  const blocks = await blockStatus(trx, { viewerId, otherId: other });
  if (blocks.byMe) throw requestNotFound();
  const isRole = role === 'recipient' ? request.recipient_id === viewerId : request.sender_id === viewerId;
  if (!isRole) {
    throw role === 'recipient'
      ? new ApiError('forbidden', 'Only the recipient can answer a buddy request', {
          hint: 'You sent this request; wait for their answer, or cancel it with .../cancel.json.',
        })
      : new ApiError('forbidden', 'Only the sender can cancel a buddy request', {
          hint: 'This request was sent to you; decline it with .../decline.json.',
        });
  }
  if (request.state !== 'pending') {
    throw new ApiError('request_not_pending', `This request is already ${request.state}`, {
      hint: request.chat_id
        ? `${ERROR_ADVICE.request_not_pending} Its chat: ${request.chat_id}.`
        : ERROR_ADVICE.request_not_pending,
    });
  }
  return { request, blocks };
}

export async function acceptBuddyRequest(
  db: Database,
  { viewerId, requestId, body, baseUrl }: { viewerId: string; requestId: string; body: AcceptBody; baseUrl: string },
) {
  const firstMessage = body.firstMessage || null;
  assertTextAllowed(firstMessage, 'firstMessage');
  const accepted = await db.transaction().execute(async (trx) => {
    const { request, blocks } = await lockOwnRequest(trx, { viewerId, requestId, role: 'recipient' });
    if (blocks.byThem) throw recipientUnavailable();
    return acceptLocked(trx, request, firstMessage, body);
  });
  return {
    success: true as const,
    request: await loadRequest(db, { viewerId, requestId, baseUrl }),
    chat: await getChatRecord(db, { viewerId, chatId: accepted.chatId, baseUrl }),
    first_message: accepted.firstMessage ? toMessage(accepted.firstMessage, viewerId) : null,
  };
}

interface Settlement {
  viewerId: string;
  requestId: string;
  by: Attribution;
  baseUrl: string;
}

async function settle(
  db: Database,
  { viewerId, requestId, by, baseUrl }: Settlement,
  role: Role,
  state: 'declined' | 'cancelled',
) {
  await db.transaction().execute(async (trx) => {
    await lockOwnRequest(trx, { viewerId, requestId, role });
    await trx
      .updateTable('buddy_requests')
      .set({
        state,
        responded_at: sql<Date>`now()`,
        ...(role === 'recipient'
          ? { responder_agent_name: by.agentName ?? null, responder_agent_session_id: by.agentSessionId ?? null }
          : {}),
      })
      .where('id', '=', requestId)
      .execute();
    await recordAgentAction(trx, viewerId, state === 'declined' ? 'decline_buddy_request' : 'cancel_buddy_request', by);
  });
  return { success: true as const, request: await loadRequest(db, { viewerId, requestId, baseUrl }) };
}

export const declineBuddyRequest = (db: Database, request: Settlement) => settle(db, request, 'recipient', 'declined');

export const cancelBuddyRequest = (db: Database, request: Settlement) => settle(db, request, 'sender', 'cancelled');
