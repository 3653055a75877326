// The mail digest (issue 31 §4) through a real SMTP conversation: a stack of its own whose
// mail goes to an smtp-server sink, with MAIL_DIGEST_DELAY=4s. Nobody here has push, so each
// message and request they get goes into their digest: one mail, counts only, at most one an
// hour, none for a muted chat, off by RFC 8058 one-click and on again from Settings.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '@/db';
import { acceptBuddyRequest, sendBuddyRequest } from '@/lib/contract/buddies';
import { sendMessage } from '@/lib/contract/chats';
import { muteChat } from '@/lib/contract/web-app';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startStack, type Stack } from '../support/stack';
import { api, uniqueEmail } from './client';
import { call } from './contract-client';

const HOUR = 60 * 60 * 1000;

describe('mail digest for people without push', () => {
  let sink: SmtpSink | undefined;
  let stack: Stack;
  let db: Database;

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({ SMTP_URL: sink.url, MAIL_FROM: 'buddies@example.com', MAIL_DIGEST_DELAY: '4s' });
    db = createDb(stack.databaseUrl, 2);
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await stack?.stop();
    await sink?.close();
  });

  const person = async (displayName: string) => {
    const email = uniqueEmail('digest');
    const res = await api('POST', '/api/v1/register.json', { base: stack.baseUrl, body: { email, displayName } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { email, id: res.body.user.id as string, slug: res.body.user.slug as string, token: res.body.auth.token };
  };
  type Person = Awaited<ReturnType<typeof person>>;
  const ask = (from: Person, to: Person) =>
    call(sendBuddyRequest, { base: stack.baseUrl, params: { slug: to.slug }, token: from.token, body: {} });
  /** `asker` asks, `other` accepts: no digest for either from that (an acceptance is not news to wait for). */
  const buddies = async (asker: Person, other: Person) => {
    const { request } = await ask(asker, other);
    const { chat } = await call(acceptBuddyRequest, {
      base: stack.baseUrl,
      params: { invitationId: request.id },
      token: other.token,
    });
    return chat.chatId;
  };
  const write = async (from: Person, chatId: string, text: string) =>
    (await call(sendMessage, { base: stack.baseUrl, params: { chatId }, token: from.token, body: { text } })).message;
  const digestsTo = (p: Person) =>
    (sink?.mails ?? []).filter((m) => m.to.includes(p.email) && /^Subject: Buddy Match: /m.test(m.raw));
  const digestRow = (p: Person) =>
    db.selectFrom('mail_digests').selectAll().where('user_id', '=', p.id).executeTakeFirst();
  /** Every push job about this message has run: whatever it scheduled is in place. */
  const pushed = async (messageId: string | number) => {
    const settled = async () => {
      const { rows } = await sql<{ state: string }>`
        select state::text as state from pgboss.job
        where name = 'push-notify' and data->>'messageId' = ${String(messageId)}`.execute(db);
      return rows.length === 1 && rows[0]!.state === 'completed';
    };
    await expect.poll(settled, { timeout: 20_000 }).toBe(true);
  };
  const oneClick = (url: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });

  it('one digest an hour lists unread messages and requests, with one-click unsubscribe that only its owner can use', {
    timeout: 120_000,
  }, async () => {
    const [rae, bo, ash] = [await person('Rae Digest'), await person('Bo Digest'), await person('Ash Digest')];
    const chatId = await buddies(rae, bo);
    await write(bo, chatId, 'Secret meeting point: the old mill');
    await ask(ash, rae);

    await expect.poll(() => digestsTo(rae).length, { timeout: 30_000 }).toBe(1);
    const raw = digestsTo(rae)[0]!.raw;
    const text = raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/^From: buddies@example\.com/m);
    // Who, by first name (issue 46 §5), and never what they wrote.
    expect(text).toContain('1 unread message from Bo in 1 chat');
    expect(text).toContain('1 buddy request from Ash to answer');
    expect(text).not.toMatch(/old mill|Bo Digest|Ash Digest/);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const unsubscribe = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(raw)?.[1];
    expect(unsubscribe).toMatch(/\/api\/v1\/mail\/unsubscribe\.json\?token=/);

    // A second message within the hour: the next digest waits for the hour's end, and no mail goes now.
    const second = await write(bo, chatId, 'Still on?');
    await pushed(second.id);
    const row = await digestRow(rae);
    expect(row?.due_at?.getTime()).toBeGreaterThanOrEqual(row!.last_sent_at!.getTime() + HOUR - 1000);
    await new Promise((r) => setTimeout(r, 5000)); // past MAIL_DIGEST_DELAY
    expect(digestsTo(rae)).toHaveLength(1);

    // Forged tokens (a made-up signature, or Rae's signature on Bo's id) are refused and change nothing.
    const url = new URL(unsubscribe!);
    const signature = url.searchParams.get('token')!.split('.')[1];
    for (const token of [`${rae.id}.${'A'.repeat(signature!.length)}`, `${bo.id}.${signature}`]) {
      expect((await oneClick(`${url.origin}${url.pathname}?token=${token}`)).status).toBe(404);
    }
    const prefs = (p: Person) =>
      api('GET', '/api/v1/me/mail_preferences.json', { base: stack.baseUrl, token: p.token });
    expect((await prefs(rae)).body.digests).toBe(true);
    expect((await prefs(bo)).body.digests).toBe(true);

    // RFC 8058 one-click turns digests off, stored; with the hour over, new mail still schedules nothing.
    expect((await oneClick(unsubscribe!)).status).toBe(200);
    expect((await prefs(rae)).body).toMatchObject({ digests: false, reminders: false });
    await db
      .updateTable('mail_digests')
      .set({ last_sent_at: new Date(Date.now() - 2 * HOUR), due_at: null })
      .where('user_id', '=', rae.id)
      .execute();
    await pushed((await write(bo, chatId, 'Hello?')).id);
    expect((await digestRow(rae))?.due_at).toBeNull();

    // Settings turns it back on: the next message brings a digest of everything unread since the last one.
    const on = await api('PATCH', '/api/v1/me/mail_preferences.json', {
      base: stack.baseUrl,
      token: rae.token,
      body: { digests: true },
    });
    expect(on.body.digests).toBe(true);
    await write(bo, chatId, 'Last try');
    await expect.poll(() => digestsTo(rae).length, { timeout: 30_000 }).toBe(2);
    const later = digestsTo(rae)[1]!.raw.replace(/=\r?\n/g, '');
    expect(later).toContain('3 unread messages from Bo in 1 chat');
    expect(later).not.toContain('buddy request'); // Ash's request was in the first digest
  });

  it('a muted chat’s message brings no digest', { timeout: 60_000 }, async () => {
    const [mo, cy] = [await person('Mo Digest'), await person('Cy Digest')];
    const chatId = await buddies(mo, cy);
    await call(muteChat, { base: stack.baseUrl, params: { chatId }, token: mo.token, body: { muted: true } });
    await pushed((await write(cy, chatId, 'Are you there?')).id);
    expect(await digestRow(mo)).toBeUndefined();
    await new Promise((r) => setTimeout(r, 5000)); // past MAIL_DIGEST_DELAY
    expect(digestsTo(mo)).toEqual([]);
  });
});
