// Load from one client (issue 28 §6): one account's held long-polls are capped (the oldest
// answered, the newest kept), and sockets that send nothing, or half a request, are closed.
import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { listMessages } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import { MAX_HELD_POLLS_PER_ACCOUNT } from '@/lib/chats/poll';
import { HTTP_SERVER_TIMEOUTS } from '@/server/timeouts';
import { api, type ApiResponse } from './client';
import { call, callWithHeaders, pathOf } from './contract-client';
import { makeBuddies, say, users } from './social-helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request and, once answered, when (ms after `since`). */
function timed(request: Promise<ApiResponse>, since: number) {
  const state: { answer?: ApiResponse; afterMs?: number } = {};
  const done = request.then((answer) => {
    state.answer = answer;
    state.afterMs = Date.now() - since;
    return answer;
  });
  return { state, done };
}

describe(`held long-polls of one account (at most ${MAX_HELD_POLLS_PER_ACCOUNT})`, () => {
  it('past the cap the oldest holds are answered at once, "nothing new", and the newest keep holding', async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other, 'first');
    const page = await call(listMessages, { params: { chatId: chat }, token: me.token });
    const nextPage = `${page.poll_next_url.slice(inject('baseUrl').length)}&wait=20`;
    const inboxTag = (await callWithHeaders(getInbox, { token: me.token })).headers.get('etag')!;
    const started = Date.now();

    // The three oldest, one of each kind of hold: in the server (an unchanged inbox with its
    // ETag), and in the route (messages after the cursor, the inbox since a moment).
    const oldest = [
      timed(
        api('GET', pathOf(getInbox, {}, { wait: 20 }), { token: me.token, headers: { 'if-none-match': inboxTag } }),
        started,
      ),
      timed(api('GET', nextPage, { token: me.token }), started),
      timed(
        api('GET', pathOf(getInbox, {}, { since: new Date().toISOString(), wait: 20 }), { token: me.token }),
        started,
      ),
    ];
    await sleep(2_500);
    expect(oldest.map((p) => p.state.answer)).toEqual([undefined, undefined, undefined]);
    const opened = Date.now();
    const newest = Array.from({ length: MAX_HELD_POLLS_PER_ACCOUNT }, () =>
      timed(api('GET', nextPage, { token: me.token }), opened),
    );
    const displaced = await Promise.all(oldest.map((p) => p.done));
    // Answered as at their deadline, long before it.
    expect(displaced.map((r) => r.status)).toEqual([304, 200, 200]);
    expect(listMessages.response.parse(displaced[1]!.body).messages).toEqual([]);
    expect(getInbox.response.parse(displaced[2]!.body).chats.flatMap((c) => c.new_messages)).toEqual([]);
    for (const p of oldest) expect(p.state.afterMs! - (opened - started)).toBeLessThan(8_000);

    // Another account's polls are not counted against this one.
    const otherPage = await call(listMessages, { params: { chatId: chat }, token: other.token });
    const othersPoll = timed(
      api('GET', `${otherPage.poll_next_url.slice(inject('baseUrl').length)}&wait=20`, { token: other.token }),
      opened,
    );
    await sleep(1_500);
    expect(newest.filter((p) => p.state.answer)).toEqual([]);
    expect(othersPoll.state.answer).toBeUndefined();

    // The newest were held, not refused: the next message reaches every one of them.
    await say(other, chat, 'second');
    const woke = await Promise.all(newest.map((p) => p.done));
    for (const res of woke)
      expect(listMessages.response.parse(res.body).messages.map((m) => m.text)).toEqual(['second']);
    expect((await othersPoll.done).status).toBe(200);
  });
});

describe('sockets that send nothing, or half a request, are closed (server/timeouts.ts)', () => {
  const { headersTimeout, connectionsCheckingInterval } = HTTP_SERVER_TIMEOUTS;
  const closesWithin = headersTimeout + connectionsCheckingInterval + 3_000;

  /** Opens a raw socket, writes `send`, and resolves with when the server closed it (or null after `giveUpMs`). */
  function rawSocket(send: string, giveUpMs: number): Promise<{ closedAfterMs: number | null; received: string }> {
    const { hostname, port } = new URL(inject('baseUrl'));
    return new Promise((resolve) => {
      const started = Date.now();
      let received = '';
      const socket = net.connect(Number(port), hostname, () => {
        if (send) socket.write(send);
      });
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ closedAfterMs: null, received });
      }, giveUpMs);
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve({ closedAfterMs: Date.now() - started, received });
      });
    });
  }

  it('silent sockets and a half-sent header are closed within the header timeout; a held poll outlives it', {
    timeout: 60_000,
  }, async () => {
    const [me, other] = await users(2);
    const chat = await makeBuddies(me, other, 'first');
    const page = await call(listMessages, { params: { chatId: chat }, token: me.token });
    // A long-poll held longer than the header timeout, whose request was received at once.
    const heldSeconds = Math.ceil(headersTimeout / 1000) + 4;
    const pollStarted = Date.now();
    const poll = api('GET', `${page.poll_next_url.slice(inject('baseUrl').length)}&wait=${heldSeconds}`, {
      token: me.token,
    });

    const silent = Array.from({ length: 20 }, () => rawSocket('', closesWithin + 5_000));
    const half = rawSocket('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ', closesWithin + 5_000);
    await sleep(1_000);
    // Meanwhile the server serves everyone else.
    expect((await api('GET', '/api/health')).status).toBe(200);

    for (const closed of await Promise.all([...silent, half])) {
      expect(closed.closedAfterMs).not.toBeNull();
      expect(closed.closedAfterMs!).toBeGreaterThanOrEqual(headersTimeout - 500);
      expect(closed.closedAfterMs!).toBeLessThan(closesWithin);
      expect(closed.received).toMatch(/^(HTTP\/1\.1 408 |$)/);
    }
    const answered = await poll;
    expect(answered.status).toBe(200);
    expect(listMessages.response.parse(answered.body).messages).toEqual([]);
    expect(Date.now() - pollStarted).toBeGreaterThanOrEqual(heldSeconds * 1000 - 500);
  });
});
