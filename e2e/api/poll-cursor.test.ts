// Polling that never loops (issue 30, section 1): following the inbox's poll_next_url (REST)
// or passing its cursor back (MCP, through the official SDK client) shows every new message
// exactly once, skips none (writers race the polls), and a poll with `wait` that has nothing
// new holds instead of answering at once. The three loops run side by side (about 30 s in
// all, not the 60 s, to keep CI cheap), each with its own people.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '@/lib/chats/cursor';
import { encodeInboxCursor } from '@/lib/chats/poll-cursor';
import { listChats, listMessages } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { api, baseUrl, freshIp } from './client';
import { call, refused } from './contract-client';
import { askBuddy, acceptRequest, makeBuddies, say, type TestUser, users } from './social-helpers';

const LOOP_MS = 24_000;
const SENDERS = 4;
const MESSAGES_PER_SENDER = 6;
const WAIT_SECONDS = 2;

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close().catch(() => {}))));

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: 'poll-cursor-test', version: '1.0.0' });
  const headers = { 'x-forwarded-for': freshIp(), authorization: `Bearer ${token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), { requestInit: { headers } }),
  );
  clients.push(client);
  return client;
}

async function mcpCall(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as {
    content: Array<{ text?: string }>;
    isError?: boolean;
  };
  expect(result.isError ?? false, result.content[0]?.text).toBe(false);
  return JSON.parse(result.content[0]!.text!);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface InboxAnswer {
  chats: Array<{ new_messages: Array<{ id: string; text: string }> }>;
  accepted_requests: Array<{ id: string }>;
  pending_requests_count: number;
  unread_messages_count: number;
  cursor: string;
  poll_next_url: string;
}

interface Poll {
  ms: number;
  newIds: string[];
  answer: InboxAnswer;
}

/**
 * A poller with SENDERS buddies who write at random moments over LOOP_MS (several at the very
 * same moment, racing the polls), and one buddy request of the poller's accepted mid-loop.
 */
async function scene(tag: string) {
  const [poller, ...senders] = (await users(SENDERS + 1, tag)) as TestUser[];
  const chats = await Promise.all(senders.map((s) => makeBuddies(s, poller!)));
  const [acceptor] = await users(1, `${tag} acceptor`);
  const request = await askBuddy(poller!, acceptor!);
  return { poller: poller!, senders, chats, acceptor: acceptor!, requestId: request.request.id };
}

async function writeAtRandom(s: Awaited<ReturnType<typeof scene>>, sent: Set<string>) {
  const moments = Array.from({ length: MESSAGES_PER_SENDER }, () => Math.random() * LOOP_MS);
  // Racing writers: at two moments every sender writes at once.
  const bursts = [LOOP_MS * 0.3, LOOP_MS * 0.7];
  const writers = s.senders.map(async (sender: TestUser, i: number) => {
    const times = [...moments.map((m) => (m + i * 997) % LOOP_MS).slice(0, MESSAGES_PER_SENDER - 2), ...bursts].sort(
      (a, b) => a - b,
    );
    const start = Date.now();
    for (const [n, at] of times.entries()) {
      await sleep(Math.max(0, at - (Date.now() - start)));
      sent.add((await say(sender, s.chats[i]!, `m${n} from ${i}`)).id);
    }
  });
  const accepting = (async () => {
    await sleep(LOOP_MS * 0.5);
    await acceptRequest(s.acceptor, s.requestId);
  })();
  await Promise.all([...writers, accepting]);
}

/** Polls until every sent message was seen (or 100 polls); returns each poll. */
async function pollLoop(poll: (cursor: string | undefined) => Promise<InboxAnswer>, done: () => boolean) {
  const polls: Poll[] = [];
  let cursor: string | undefined;
  // The first answer is the starting state: its cursor is where "new" begins.
  cursor = (await poll(undefined)).cursor;
  while (polls.length < 100) {
    const started = Date.now();
    const answer = await poll(cursor);
    polls.push({
      ms: Date.now() - started,
      newIds: answer.chats.flatMap((c) => c.new_messages.map((m) => m.id)),
      answer,
    });
    cursor = answer.cursor;
    if (done()) break;
  }
  return polls;
}

function expectExactlyOnce(polls: Poll[], sent: Set<string>, requestId: string, waits: boolean) {
  const seen = polls.flatMap((p) => p.newIds);
  expect(new Set(seen).size, 'no message twice').toBe(seen.length);
  expect(new Set(seen)).toEqual(sent);
  const accepted = polls.flatMap((p) => p.answer.accepted_requests.map((r) => r.id));
  expect(accepted, 'the accepted request, once').toEqual([requestId]);
  // State stays in every answer.
  for (const poll of polls) expect(poll.answer.unread_messages_count).toBeGreaterThanOrEqual(0);
  expect(polls.at(-1)!.answer.unread_messages_count).toBe(sent.size);
  if (waits) {
    for (const poll of polls.filter((p) => p.newIds.length === 0 && p.answer.accepted_requests.length === 0)) {
      expect(poll.ms, 'a poll with wait and nothing new holds').toBeGreaterThanOrEqual(WAIT_SECONDS * 1000 - 100);
    }
  }
}

describe('polling with the cursor: every new message exactly once, and a hold when nothing is new', () => {
  it('REST with wait, REST without wait, and MCP with wait, while messages arrive at random', async () => {
    const [rest, restNoWait, mcp] = await Promise.all([scene('Rest'), scene('Plain'), scene('Mcp')]);
    const mcpPoller = await mcpClient(mcp.poller.token);

    const run = async (s: Awaited<ReturnType<typeof scene>>, poll: (cursor?: string) => Promise<InboxAnswer>) => {
      const sent = new Set<string>();
      let writing = true;
      const seen = new Set<string>();
      const writes = writeAtRandom(s, sent).finally(() => (writing = false));
      const polls = await pollLoop(
        async (cursor) => {
          const answer = await poll(cursor);
          for (const c of answer.chats) for (const m of c.new_messages) seen.add(m.id);
          return answer;
        },
        () => !writing && [...sent].every((id) => seen.has(id)),
      );
      await writes;
      return { polls, sent };
    };

    const [restRun, plainRun, mcpRun] = await Promise.all([
      // REST: follow poll_next_url exactly as returned, with wait.
      run(rest, async (cursor) => {
        const path =
          cursor === undefined ? '/api/v1/inbox.json' : `/api/v1/inbox.json?cursor=${cursor}&wait=${WAIT_SECONDS}`;
        const res = await api('GET', path, { token: rest.poller.token });
        expect(res.status).toBe(200);
        if (cursor !== undefined) expect(res.body.poll_next_url).toContain(`cursor=${res.body.cursor}`);
        return res.body as InboxAnswer;
      }),
      // REST without wait: poll_next_url itself, every 400 ms.
      (async () => {
        let next: string | undefined;
        return run(restNoWait, async (cursor) => {
          if (cursor !== undefined) await sleep(400);
          const url = cursor === undefined ? '/api/v1/inbox.json' : new URL(next!).pathname + new URL(next!).search;
          const res = await api('GET', url, { token: restNoWait.poller.token });
          expect(res.status).toBe(200);
          next = res.body.poll_next_url;
          return res.body as InboxAnswer;
        });
      })(),
      // MCP: the cursor passed back to get_inbox, as a model would.
      run(mcp, (cursor) => mcpCall(mcpPoller, 'get_inbox', cursor === undefined ? {} : { cursor, wait: WAIT_SECONDS })),
    ]);

    expectExactlyOnce(restRun.polls, restRun.sent, rest.requestId, true);
    expectExactlyOnce(plainRun.polls, plainRun.sent, restNoWait.requestId, false);
    expectExactlyOnce(mcpRun.polls, mcpRun.sent, mcp.requestId, true);
    // The loops did hold: far fewer polls than a loop answered at once would make.
    expect(restRun.polls.length).toBeLessThan(100);
    expect(mcpRun.polls.length).toBeLessThan(100);
  }, 120_000);

  it("the issue's experiment: get_inbox {cursor, wait} after a message answers once, then holds", async () => {
    const [me, buddy] = await users(2, 'Experiment');
    const chatId = await makeBuddies(buddy!, me!);
    const client = await mcpClient(me!.token);
    const before = await mcpCall(client, 'get_inbox', {});
    await say(buddy!, chatId, 'Are you free on Saturday?');
    const started = Date.now();
    const answers: InboxAnswer[] = [];
    let cursor: string = before.cursor;
    while (Date.now() - started < 5_000) {
      const answer: InboxAnswer = await mcpCall(client, 'get_inbox', { cursor, wait: 5 });
      answers.push(answer);
      cursor = answer.cursor;
    }
    const withMessage = answers.filter((a) => a.chats.some((c) => c.new_messages.length > 0));
    expect(withMessage).toHaveLength(1);
    expect(answers.length).toBeLessThanOrEqual(2);
    // The old way still works for callers who build their own URL: since repeats what is newer.
    const since = Date.now() - 60_000;
    const old = await mcpCall(client, 'get_inbox', { since, wait: 5 });
    expect(old.chats[0].new_messages.map((m: { text: string }) => m.text)).toEqual(['Are you free on Saturday?']);
  }, 30_000);

  it('refuses an inbox cursor it never issued (malformed, or a snapshot from the future)', async () => {
    const [me] = await users(1, 'Forger');
    for (const cursor of ['nonsense', encodeInboxCursor('9:5:'), encodeInboxCursor('900000000000:900000000000:')]) {
      const refusal = await refused(getInbox, { token: me!.token, query: { cursor } }, 'validation_failed');
      expect(refusal.fields).toHaveProperty('cursor');
    }
  });

  it('refuses a messages cursor past the last message, which would skip later messages forever', async () => {
    const [a, b] = await users(2, 'Ahead');
    const chatId = await makeBuddies(a!, b!);
    const last = await say(a!, chatId, 'one');
    const ahead = encodeCursor(Number(last.id) + 1000);
    const refusal = await refused(
      listMessages,
      { token: b!.token, params: { chatId }, query: { cursor: ahead } },
      'validation_failed',
    );
    expect(refusal.message).toMatch(/past the last message/);
    // A cursor at the end is fine: an empty page, and the next message comes through it.
    const atEnd = await call(listMessages, {
      token: b!.token,
      params: { chatId },
      query: { cursor: encodeCursor(Number(last.id)) },
    });
    expect(atEnd.messages).toEqual([]);
    const two = await say(a!, chatId, 'two');
    const next = await api('GET', new URL(atEnd.poll_next_url).pathname + new URL(atEnd.poll_next_url).search, {
      token: b!.token,
    });
    expect(next.body.messages.map((m: { id: string }) => m.id)).toEqual([two.id]);
  });

  it('chats.json takes and returns a cursor: held while nothing changes, answered when a message arrives', async () => {
    const [a, b] = await users(2, 'Lister');
    const chatId = await makeBuddies(a!, b!);
    const first = await call(listChats, { token: b!.token });
    let started = Date.now();
    const still = await call(listChats, { token: b!.token, query: { cursor: first.cursor, wait: 2 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(still.cursor).toBe(first.cursor);
    started = Date.now();
    const [changed] = await Promise.all([
      call(listChats, { token: b!.token, query: { cursor: first.cursor, wait: 20 } }),
      sleep(500).then(() => say(a!, chatId, 'hello')),
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(changed.cursor).not.toBe(first.cursor);
    expect(changed.chats[0]!.unread_count).toBe(1);
    expect(changed.poll_next_url).toContain(`cursor=${changed.cursor}`);
  });
});
