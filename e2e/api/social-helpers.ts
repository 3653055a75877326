// Shared steps for the buddies, chats, inbox and blocks API tests.
import { sql } from 'kysely';
import { acceptBuddyRequest, sendBuddyRequest } from '@/lib/contract/buddies';
import { sendMessage } from '@/lib/contract/chats';
import { api, registerUser, testDb, uniqueEmail, updateTokens } from './client';
import { call, send as sendTyped, type CallInput } from './contract-client';

export type TestUser = Awaited<ReturnType<typeof registerUser>>;

/** N of the same type, as a tuple, so `const [a, b] = await users(2)` needs no `!`. */
export type Tuple<T, N extends number, Acc extends T[] = []> = Acc['length'] extends N ? Acc : Tuple<T, N, [...Acc, T]>;

/** `withAgents`: each registers with the agent name "Agent" + its letter (AgentA, AgentB, …), which its token then carries. */
export async function users<N extends number>(
  count: N,
  prefix = 'Person',
  withAgents = false,
): Promise<Tuple<TestUser, N>> {
  const made = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const letter = String.fromCharCode(65 + i);
      return registerUser({
        displayName: `${prefix} ${letter}`,
        ...(withAgents ? { agentName: `Agent${letter}` } : {}),
      });
    }),
  );
  return made as Tuple<TestUser, N>;
}

export async function requestBuddy(from: TestUser, to: TestUser, body?: Record<string, unknown>) {
  return api('POST', `/api/v1/users/${to.slug}/buddy_request.json`, { token: from.token, body });
}

export async function accept(by: TestUser, invitationId: string, body?: Record<string, unknown>) {
  return api('POST', `/api/v1/buddy_requests/${invitationId}/accept.json`, { token: by.token, body });
}

/** Typed: A asks B; the request must be created (201). Returns the contract's answer. */
export async function askBuddy(from: TestUser, to: TestUser, body?: CallInput<typeof sendBuddyRequest>['body']) {
  return call(sendBuddyRequest, { params: { slug: to.slug }, token: from.token, body });
}

/** Typed: the recipient accepts (200). Returns the contract's answer. */
export async function acceptRequest(
  by: TestUser,
  invitationId: string,
  body?: CallInput<typeof acceptBuddyRequest>['body'],
) {
  return call(acceptBuddyRequest, { params: { invitationId }, token: by.token, body });
}

/** A asks B, B accepts: returns the chat id. */
export async function makeBuddies(a: TestUser, b: TestUser, firstMessage?: string): Promise<string> {
  const req = await askBuddy(a, b);
  const res = await acceptRequest(b, req.request.id, firstMessage ? { firstMessage } : undefined);
  return res.chat.chatId;
}

export async function send(by: TestUser, chatId: string, text: string, extra: Record<string, unknown> = {}) {
  return api('POST', `/api/v1/chats/${chatId}/messages.json`, { token: by.token, body: { text, ...extra } });
}

type MessageExtra = Omit<NonNullable<CallInput<typeof sendMessage>['body']>, 'text'>;

/** Typed: the message input for call/refused/send(sendMessage, …). */
export function messageInput(by: TestUser, chatId: string, text: string, extra: MessageExtra = {}) {
  return { params: { chatId }, token: by.token, body: { text, ...extra } };
}

/** Typed: sends a message and returns the contract's answer, success or error (for `.ok`, `.status`, `.error.code`). */
export async function sendMessageAs(by: TestUser, chatId: string, text: string, extra: MessageExtra = {}) {
  return sendTyped(sendMessage, messageInput(by, chatId, text, extra));
}

/** Typed: sends a message that must be stored (201); returns it. */
export async function say(by: TestUser, chatId: string, text: string, extra: MessageExtra = {}) {
  return (await call(sendMessage, messageInput(by, chatId, text, extra))).message;
}

/**
 * `by` accepts the request; returns the chat and a way for `writer` (the other side) to
 * write in it, on the given server.
 */
export async function acceptThenWrite(
  by: { token: string },
  requestId: string,
  writer: { token: string },
  base?: string,
) {
  const accepted = await call(acceptBuddyRequest, {
    params: { invitationId: requestId },
    token: by.token,
    body: {},
    base,
  });
  const chatId = accepted.chat.chatId;
  const write = (text: string) => call(sendMessage, { params: { chatId }, token: writer.token, body: { text }, base });
  return { chatId, write };
}

/** A user whose token lacks some scopes (tokens are minted with all seven at registration). */
export async function restrictScopes(user: TestUser, scopes: string[]): Promise<void> {
  await updateTokens(user.id, { scopes });
}

export async function storedMessages(chatId: string) {
  return testDb().selectFrom('messages').selectAll().where('chat_id', '=', chatId).orderBy('id').execute();
}

export async function memberRow(chatId: string, userId: string) {
  return testDb()
    .selectFrom('chat_members')
    .selectAll()
    .where('chat_id', '=', chatId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Push jobs queued for a recipient (pg-boss keeps them in its own schema). */
export async function pushJobs(recipientId: string) {
  const { rows } = await sql<{ data: Record<string, unknown>; state: string }>`
    select data, state::text as state from pgboss.job where name = 'push-notify' and data->>'recipientId' = ${recipientId} order by created_on`.execute(
    testDb(),
  );
  return rows;
}

/** Waits until the queued jobs for a recipient reach a final state. */
export async function settledPushJobs(recipientId: string, expected: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await pushJobs(recipientId);
    if (jobs.length >= expected && jobs.every((j) => j.state === 'completed' || j.state === 'failed')) return jobs;
    if (Date.now() > deadline) return jobs;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A registration body complete but for the photo, placed `kmNorth` of a point at sea (where no
 * other test's people live): for the tests that start their own stack (PgBouncer, replicas).
 */
export function profileAtSea(
  emailTag: string,
  name: string,
  at: { latitude: number; longitude: number },
  kmNorth: number,
) {
  return {
    email: uniqueEmail(emailTag),
    displayName: name,
    aboutMe: `I am ${name}`,
    location: 'Open sea',
    coords: { latitude: at.latitude + kmNorth / 111, longitude: at.longitude },
    gender: 'female',
    birthday: '1990-06-15',
    activities: ['tennis', 'hiking'],
    availability_text: 'weekends',
  };
}
