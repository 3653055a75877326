// A safety net for meeting a stranger (issue 29 §6) against the real server and PostgreSQL:
// the share page (made, read as the contact reads it, revoked, 410 after the plan, never
// indexed or cached, its secret never in the log), the web-app-only rule (a bearer token
// gets 403; another account gets 404), and check-in end to end on a second stack with a
// real SMTP sink and short configured delays (PLAN_CHECKIN_DELAY=0, a 6 s answer window):
// "All good?" by push and mail, one contact mail with the page, "I'm fine" stopping it,
// and the contact's own unsubscribe. The minute sweep is run sooner by queueing the same
// job its schedule queues, so nothing waits a minute.
import fs from 'node:fs';
import { sql } from 'kysely';
import path from 'node:path';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Database } from '@/db';
import * as plans from '@/lib/contract/plans';
import { acceptBuddyRequest, sendBuddyRequest } from '@/lib/contract/buddies';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startStack, type Stack } from '../support/stack';
import { api, baseUrl, freshIp, testDb, uniqueEmail } from './client';
import { call, send } from './contract-client';
import { WebClient } from './web-client';

const SECOND = 1000;
const HOUR = 3_600_000;
const PASSWORD = 'safety-net-test-password-7';

interface Person {
  id: string;
  slug: string;
  token: string;
  email: string;
  web: WebClient;
}

async function person(base: string, displayName: string, birthday?: string): Promise<Person> {
  const email = uniqueEmail('safety');
  const body = { email, displayName, password: PASSWORD, ...(birthday ? { birthday } : {}) };
  const res = await api('POST', '/api/v1/register.json', { base, body });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const web = new WebClient(freshIp(), base);
  const signedIn = await web.signInWithPassword(email, PASSWORD);
  if (!web.sessionCookie()) throw new Error(`sign-in failed: ${signedIn.status} ${signedIn.location}`);
  return { id: res.body.user.id, slug: res.body.user.slug, token: res.body.auth.token, email, web };
}

/** Two buddies with a confirmed plan starting `startsInMs` after it is proposed. */
async function planFor(base: string, names: [string, string], startsInMs: number, birthday?: string) {
  const [a, b] = await Promise.all([person(base, names[0], birthday), person(base, names[1], birthday)]);
  const asked = await call(sendBuddyRequest, { params: { slug: b.slug }, token: a.token, base });
  const { chat } = await call(acceptBuddyRequest, { params: { invitationId: asked.request.id }, token: b.token, base });
  const { plan } = await call(plans.proposePlan, {
    params: { chatId: chat.chatId },
    token: a.token,
    base,
    body: {
      activity: 'Bouldering <b>now</b>',
      starts_at: new Date(Date.now() + startsInMs).toISOString(),
      place: { name: 'Block Hall', address: 'Hauptstraße 1, Vienna' },
      note: 'My phone number is 555 0100',
    },
  });
  const accepted = await send(plans.acceptPlan, { params: { planId: plan.id }, token: b.token, base, body: {} });
  expect(accepted.status).toBe(200);
  return { a, b, planId: plan.id, chatId: chat.chatId };
}

const sharePath = (planId: string) => `/api/v1/plans/${planId}/share.json`;
const checkinPath = (planId: string) => `/api/v1/plans/${planId}/checkin.json`;
/** A session write, from this site's pages (same-origin Origin, as browsers send it). */
const web = (p: Person, method: string, url: string, json?: unknown) =>
  p.web.request(method, url, {
    json: method === 'GET' ? undefined : (json ?? {}),
    headers: { origin: new URL(p.web.base || baseUrl()).origin },
  });

async function page(url: string) {
  const res = await fetch(url, { headers: { 'x-forwarded-for': freshIp() } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function until<T>(what: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('share my plan', () => {
  it('makes a read-only page for a contact: no index, no cache, no referrer, secret kept out of the log; a new link replaces it; revoked it answers 410', async () => {
    const { a, b, planId } = await planFor(baseUrl(), ['Rita Share', 'Sam Share'], 48 * HOUR);
    const made = await web(a, 'POST', sharePath(planId), {});
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({ shared: true, contact_email: null, checkin: { on: false } });
    const url: string = made.json.url;
    expect(url).toMatch(new RegExp(`^${baseUrl()}/share/bm_sh_[\\w-]{40,}$`));
    // Stored only as a hash: the read back has no link.
    const read = await a.web.request('GET', sharePath(planId));
    expect(read.json).toMatchObject({ shared: true, url: null });
    expect(JSON.stringify(await testDb().selectFrom('plan_shares').selectAll().execute())).not.toContain(
      url.split('/').pop(),
    );

    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.headers.get('x-robots-tag')).toMatch(/noindex/);
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    expect(shown.text).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(shown.text).toContain('Rita is meeting Sam');
    expect(shown.text).toContain('Bouldering &lt;b&gt;now&lt;/b&gt;'); // escaped, never markup
    expect(shown.text).toContain('Block Hall');
    expect(shown.text).toContain('Hauptstraße 1, Vienna');
    expect(shown.text).not.toContain('555 0100'); // the note is between the two of them
    expect(shown.text).not.toContain('<script');

    // Never in the request log: the path is logged with the secret redacted.
    const secret = url.split('/').pop()!;
    const log = () => fs.readFileSync(path.join(inject('dataDir'), 'server.log'), 'utf8');
    await until(log, (text) => text.includes('"path":"/share/[redacted]"'), 10_000);
    expect(log()).toContain('"path":"/share/[redacted]"');
    expect(log()).not.toContain(secret);

    // Made again: a new link, and the old one is unknown.
    const again = await web(a, 'POST', sharePath(planId), {});
    expect(again.status).toBe(201);
    expect(again.json.url).not.toBe(url);
    expect((await page(url)).status).toBe(404);

    // The other person may share it with their own contact; their link is their own.
    const theirs = await web(b, 'POST', sharePath(planId), {});
    expect(theirs.status).toBe(201);
    expect((await page(theirs.json.url)).text).toContain('Sam is meeting Rita');

    const revoked = await web(a, 'DELETE', sharePath(planId));
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ shared: false });
    const gone = await page(again.json.url);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(gone.text).not.toContain('Block Hall');
    expect((await page(theirs.json.url)).status).toBe(200);
    expect((await page(`${baseUrl()}/share/bm_sh_madeup`)).status).toBe(404);
  });

  it('is the person’s own: a bearer token gets 403, another account and a blocked pair get 404', async () => {
    const { a, b, planId } = await planFor(baseUrl(), ['Tess Own', 'Uli Own'], 48 * HOUR);
    const byToken = await api('POST', sharePath(planId), { token: a.token, body: {} });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.code).toBe('person_only');
    expect((await api('POST', checkinPath(planId), { token: a.token, body: { fine: true } })).status).toBe(403);

    const stranger = await person(baseUrl(), 'Vic Stranger');
    expect((await web(stranger, 'POST', sharePath(planId), {})).status).toBe(404);
    const made = await web(a, 'POST', sharePath(planId), {});
    expect(made.status).toBe(201);
    expect((await web(stranger, 'DELETE', sharePath(planId))).status).toBe(404);
    expect((await stranger.web.request('GET', sharePath(planId))).status).toBe(404);
    expect((await page(made.json.url)).status).toBe(200); // the stranger's attempt changed nothing

    // A block cancels the plan: its page is gone.
    const blocked = await api('POST', `/api/v1/users/${a.slug}/block.json`, { token: b.token, body: {} });
    expect(blocked.status).toBeLessThan(300);
    expect((await page(made.json.url)).status).toBe(410);
    expect((await web(a, 'POST', sharePath(planId), {})).status).toBe(404);
  });

  it('answers 410 from 24 hours after the plan ends', async () => {
    const { a, planId } = await planFor(baseUrl(), ['Wen Late', 'Xia Late'], 48 * HOUR);
    const made = await web(a, 'POST', sharePath(planId), {});
    expect((await page(made.json.url)).status).toBe(200);
    // The plan moved into the past (as time would move it): ended 23 h ago, then 25 h ago.
    const moveTo = (endedHoursAgo: number) =>
      testDb()
        .updateTable('plans')
        .set({
          starts_at: new Date(Date.now() - (endedHoursAgo + 2) * HOUR),
          ends_at: new Date(Date.now() - endedHoursAgo * HOUR),
        })
        .where('id', '=', planId)
        .execute();
    await moveTo(23);
    expect((await page(made.json.url)).status).toBe(200);
    await moveTo(25);
    const gone = await page(made.json.url);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('expired');
    // Nor can a plan that is over be shared again.
    expect((await web(a, 'POST', sharePath(planId), {})).status).toBe(409);
  });

  it('refuses check-in where no mail is delivered (no SMTP_URL), and says so', async () => {
    const { a, planId } = await planFor(baseUrl(), ['Yara Nomail', 'Zed Nomail'], 48 * HOUR);
    const refused = await web(a, 'POST', sharePath(planId), { contact_email: 'friend@example.com', checkin: true });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('conflict');
    expect(refused.json.error.message).toMatch(/delivers no mail.*SMTP_URL/);
    // Sharing alone works; turning check-in on afterwards is refused the same way.
    expect((await web(a, 'POST', sharePath(planId), { contact_email: 'friend@example.com' })).status).toBe(201);
    const later = await web(a, 'POST', checkinPath(planId), { on: true });
    expect(later.status).toBe(409);
    expect(later.json.error.message).toMatch(/SMTP_URL/);
  });
});

const decode = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\r\n/g, '\n');

describe('check-in, end to end with SMTP', () => {
  let sink: SmtpSink | undefined;
  let stack: Stack;
  let boss: PgBoss;
  // Quoted-printable undone, so links and words can be matched whole.
  const inbox = () => (sink?.mails ?? []).map((m) => ({ to: m.to, raw: decode(m.raw) }));

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({
      SMTP_URL: sink.url,
      PLAN_CHECKIN_DELAY: '0',
      PLAN_CHECKIN_ANSWER_WINDOW: '6s',
      // A server of its own anyway: it also carries an operator's higher minimum age (issue 41).
      MINIMUM_AGE: '16',
    });
    boss = new PgBoss({ connectionString: stack.databaseUrl, schema: 'pgboss', supervise: false, schedule: false });
    await boss.start();
  }, 180_000);

  afterAll(async () => {
    await boss?.stop({ graceful: false });
    await stackDbs.get(stack?.databaseUrl)?.destroy();
    await stack?.stop();
    await sink?.close();
  });

  /** The sweep now, as its every-minute schedule would queue it (a stately queue: one at a time). */
  const sweep = () => boss.send('plans-sweep', {});
  const mailsTo = (email: string, subject: RegExp) =>
    inbox().filter((m) => m.to.includes(email) && subject.test(/^Subject: (.*)$/m.exec(m.raw)?.[1] ?? ''));
  const shareRow = (planId: string, userId: string) =>
    testDbFor(stack)
      .selectFrom('plan_shares')
      .selectAll()
      .where('plan_id', '=', planId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  const sweepUntil = async <T>(what: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 60_000) =>
    until(
      async () => {
        await sweep();
        return what();
      },
      ok,
      timeoutMs,
    );

  it("refuses people under an operator's MINIMUM_AGE at registration and in edits, and the guides say it", async () => {
    const fifteen = `${new Date().getUTCFullYear() - 15}-01-01`;
    const body = { email: uniqueEmail('young'), displayName: 'Yan Young', birthday: fifteen };
    const young = await api('POST', '/api/v1/register.json', { base: stack.baseUrl, body });
    expect(young.status).toBe(400);
    expect(young.body.error.fields.birthday).toBe('You need to be 16 or older');
    expect(await testDbFor(stack).selectFrom('users').select('id').where('email', '=', body.email).execute()).toEqual(
      [],
    );
    const sixteen = await person(stack.baseUrl, 'Sid Sixteen', `${new Date().getUTCFullYear() - 16}-01-01`);
    const edit = await api('PATCH', '/api/v1/me.json', {
      base: stack.baseUrl,
      token: sixteen.token,
      body: { birthday: fifteen },
    });
    expect([edit.status, edit.body.error.fields.birthday]).toEqual([400, 'You need to be 16 or older']);
    const guide = await (await fetch(`${stack.baseUrl}/AGENTS.md`)).text();
    expect(guide).toContain('Members may be 16 or older.');
  });

  it('turns check-in on by default for a person under 18 (a contact given, mail delivered), and only for them', async () => {
    const sixteen = `${new Date().getUTCFullYear() - 16}-01-01`;
    const teens = await planFor(stack.baseUrl, ['Tea Teen', 'Tod Teen'], 48 * HOUR, sixteen);
    const adults = await planFor(stack.baseUrl, ['Ada Grown', 'Al Grown'], 48 * HOUR);
    const contact = uniqueEmail('parent');
    const teen = await web(teens.a, 'POST', sharePath(teens.planId), { contact_email: contact });
    expect(teen.status, teen.text).toBe(201);
    expect(teen.json.checkin.on).toBe(true);
    expect((await shareRow(teens.planId, teens.a.id)).checkin).toBe(true);
    const adult = await web(adults.a, 'POST', sharePath(adults.planId), { contact_email: contact });
    expect(adult.json.checkin.on).toBe(false);
    // The teenager may still turn it off, and without a contact it stays off.
    const off = await web(teens.a, 'POST', sharePath(teens.planId), { contact_email: contact, checkin: false });
    expect(off.json.checkin.on).toBe(false);
    const noContact = await web(teens.b, 'POST', sharePath(teens.planId), {});
    expect(noContact.json.checkin.on).toBe(false);
  });

  it('asks "All good?" by push and mail, then mails the contact once with the page; the contact can stop all mail', async () => {
    const contact = uniqueEmail('contact');
    const { a, planId } = await planFor(stack.baseUrl, ['Ana Check', 'Ben Check'], 6 * SECOND);
    const made = await web(a, 'POST', sharePath(planId), { contact_email: contact, checkin: true });
    expect(made.status, made.text).toBe(201);
    expect(made.json.checkin).toMatchObject({ on: true, asked_at: null, contact_mailed: false });

    // Asked at the start (delay 0): a push, a fixed-wording mail, and the web app shows it.
    const asked = await sweepUntil(
      () => mailsTo(a.email, /^All good\?/),
      (m) => m.length > 0,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.raw).toContain(`${stack.baseUrl}/account/plans/${planId}`);
    expect(asked[0]!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(asked[0]!.raw).not.toMatch(/\b(Bouldering|Block Hall|Ben)\b/);
    const { rows: pushes } = await sql<{ data: { recipientId: string } }>`
      select data from pgboss.job where data->>'kind' = 'plan_checkin' and data->>'planId' = ${planId}`.execute(
      testDbFor(stack),
    );
    expect(pushes.map((j) => j.data.recipientId)).toEqual([a.id]);
    const home = await a.web.request('GET', '/account');
    expect(home.text).toContain('All good?');

    // No answer within the window: one mail to the contact, with a page link of its own.
    const toContact = await sweepUntil(
      () => mailsTo(contact, /check-in went unanswered/),
      (m) => m.length > 0,
    );
    expect(toContact).toHaveLength(1);
    const mail = toContact[0]!.raw;
    const link = new RegExp(`${stack.baseUrl}/share/(bm_sh_[\\w-]+)`).exec(mail)?.[0];
    expect(link).toBeTruthy();
    expect(link).not.toBe(made.json.url);
    const shown = await page(link!);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Ana is meeting Ben');
    // Nothing either person wrote but the sharer's first name (issue 46 §4: the friend is told who).
    expect(mail).toMatch(/^Subject: Ana's Buddy Match check-in went unanswered$/m);
    expect(mail).toContain('Ana named you as their trusted contact');
    expect(mail).not.toMatch(/\b(Bouldering|Block Hall|Hauptstra|Ben|555 0100)\b/);
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const oneClick = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(mail)?.[1];
    expect(oneClick).toMatch(/\/api\/v1\/mail\/unsubscribe\.json\?token=c\./);
    expect((await web(a, 'GET', sharePath(planId))).json.checkin.contact_mailed).toBe(true);

    // At most once: more sweeps, still one mail; a late "I'm fine" is taken and changes nothing sent.
    for (let i = 0; i < 3; i++) {
      await sweep();
      await new Promise((r) => setTimeout(r, 700));
    }
    expect(mailsTo(contact, /check-in went unanswered/)).toHaveLength(1);
    expect(mailsTo(a.email, /^All good\?/)).toHaveLength(1);
    expect((await web(a, 'POST', checkinPath(planId), { fine: true })).json.checkin.fine_at).toBeTruthy();

    // The contact is no member: their link (the page's button, or one-click) suppresses the address.
    const stopUrl = new RegExp(`${stack.baseUrl}/mail/stop\\?token=([\\w.-]+)`).exec(mail)?.[0];
    expect(stopUrl).toBeTruthy();
    const stopPage = await page(stopUrl!);
    expect(stopPage.status).toBe(200);
    expect(stopPage.text).toContain('Stop mail to this address');
    const forged = await fetch(`${stopUrl!.replace(/\.[\w-]+$/, '.AAAA')}`, { method: 'POST' });
    expect(forged.status).toBe(404);
    const done = await fetch(oneClick!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    const named = await web(a, 'POST', sharePath(planId), { contact_email: contact.toUpperCase() });
    expect(named.status).toBe(400);
    expect(named.json.error.fields.contact_email).toMatch(/does not accept mail/);
  }, 150_000);

  it('"I\'m fine" stops it: before the question nothing is asked, after it the contact gets nothing', async () => {
    const early = uniqueEmail('contact-early');
    const late = uniqueEmail('contact-late');
    const [first, second] = await Promise.all([
      planFor(stack.baseUrl, ['Cleo Fine', 'Dan Fine'], 6 * SECOND),
      planFor(stack.baseUrl, ['Eva Fine', 'Finn Fine'], 6 * SECOND),
    ]);
    expect((await web(first.a, 'POST', sharePath(first.planId), { contact_email: early, checkin: true })).status).toBe(
      201,
    );
    expect((await web(second.a, 'POST', sharePath(second.planId), { contact_email: late, checkin: true })).status).toBe(
      201,
    );
    // The first says "I'm fine" before anything is asked.
    const fine = await web(first.a, 'POST', checkinPath(first.planId), { fine: true });
    expect(fine.status).toBe(200);
    expect(fine.json.checkin.fine_at).toBeTruthy();

    // The second is asked, and answers within the window.
    await sweepUntil(
      () => shareRow(second.planId, second.a.id),
      (row) => row.checkin_asked_at !== null,
    );
    expect((await web(second.a, 'POST', checkinPath(second.planId), { fine: true })).status).toBe(200);

    // Past the window and through several sweeps: no contact mail, and no question to the first.
    await new Promise((r) => setTimeout(r, 7 * SECOND));
    for (let i = 0; i < 3; i++) {
      await sweep();
      await new Promise((r) => setTimeout(r, 700));
    }
    expect(mailsTo(early, /./)).toEqual([]);
    expect(mailsTo(late, /./)).toEqual([]);
    expect(mailsTo(first.a.email, /^All good\?/)).toEqual([]);
    expect((await shareRow(first.planId, first.a.id)).checkin_asked_at).toBeNull();
    expect((await shareRow(second.planId, second.a.id)).contact_mail).toBeNull();
  }, 120_000);
});

const stackDbs = new Map<string, Database>();
function testDbFor(stack: Stack): Database {
  let db = stackDbs.get(stack.databaseUrl);
  if (!db) stackDbs.set(stack.databaseUrl, (db = createDb(stack.databaseUrl, 2)));
  return db;
}
