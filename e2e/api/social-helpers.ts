// Shared steps for the buddies, chats, inbox and blocks API tests.
import { sql } from 'kysely';
import { expect } from 'vitest';
import { api, registerUser, testDb, updateTokens } from './client';

export type TestUser = Awaited<ReturnType<typeof registerUser>>;

/** N of the same type, as a tuple, so `const [a, b] = await users(2)` needs no `!`. */
export type Tuple<T, N extends number, Acc extends T[] = []> = Acc['length'] extends N ? Acc : Tuple<T, N, [...Acc, T]>;

export async function users<N extends number>(count: N, prefix = 'Person'): Promise<Tuple<TestUser, N>> {
  const made = await Promise.all(Array.from({ length: count }, (_, i) => registerUser({ displayName: `${prefix} ${String.fromCharCode(65 + i)}` })));
  return made as Tuple<TestUser, N>;
}

export async function requestBuddy(from: TestUser, to: TestUser, body?: Record<string, unknown>) {
  return api('POST', `/api/v1/users/${to.slug}/buddy_request.json`, { token: from.token, body });
}

export async function accept(by: TestUser, invitationId: string, body?: Record<string, unknown>) {
  return api('POST', `/api/v1/buddy_requests/${invitationId}/accept.json`, { token: by.token, body });
}

/** A asks B, B accepts: returns the chat id. */
export async function makeBuddies(a: TestUser, b: TestUser, firstMessage?: string): Promise<string> {
  const req = await requestBuddy(a, b);
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const res = await accept(b, req.body.request.id, firstMessage ? { firstMessage } : undefined);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.chat.chatId as string;
}

export async function send(by: TestUser, chatId: string, text: string, extra: Record<string, unknown> = {}) {
  return api('POST', `/api/v1/chats/${chatId}/messages.json`, { token: by.token, body: { text, ...extra } });
}

/** A user whose token lacks some scopes (tokens are minted with all seven at registration). */
export async function restrictScopes(user: TestUser, scopes: string[]): Promise<void> {
  await updateTokens(user.id, { scopes });
}

export async function storedMessages(chatId: string) {
  return testDb().selectFrom('messages').selectAll().where('chat_id', '=', chatId).orderBy('id').execute();
}

export async function memberRow(chatId: string, userId: string) {
  return testDb().selectFrom('chat_members').selectAll().where('chat_id', '=', chatId).where('user_id', '=', userId).executeTakeFirstOrThrow();
}

/** Push jobs queued for a recipient (pg-boss keeps them in its own schema). */
export async function pushJobs(recipientId: string) {
  const { rows } = await sql<{ data: Record<string, unknown>; state: string }>`
    select data, state::text as state from pgboss.job where name = 'push-notify' and data->>'recipientId' = ${recipientId} order by created_on`.execute(testDb());
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
