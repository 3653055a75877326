// The plan's safety net for a meetup (issue 45) against the real server and PostgreSQL, as
// plan-safety.test.ts tests it for a plan: the share page (made, read as the contact reads it:
// the place with its address, the host's first name and how many go, nobody else; revoked, 410
// after the meetup, cancelled, or once the sharer left), the web-app-only rule (a bearer token
// gets 403) and who may share (the host and the confirmed; anyone else, the waitlisted included,
// 404). Check-in end to end on a second stack with the SMTP sink and short delays
// (PLAN_CHECKIN_DELAY=0, a 6 s answer window): "All good?" by push and mail, one contact mail
// with the meetup's page, and what stops it: a cancel, leaving, "I'm fine". The minute sweep is
// run sooner by queueing the same job its schedule queues, so nothing waits a minute.
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Database } from '@/db';
import * as meetups from '@/lib/contract/meetups';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startStack, type Stack } from '../support/stack';
import { api, baseUrl, freshIp, testDb, uniqueEmail } from './client';
import { call, send } from './contract-client';
import { DAY, HOUR, hostBody, spotsAt } from './meetup-helpers';
import { WebClient } from './web-client';

const SECOND = 1000;
const PASSWORD = 'meetup-safety-test-password-7';
const spot = spotsAt(-31);

interface Person {
  id: string;
  token: string;
  email: string;
  web: WebClient;
}

/** A person at `at` (a meetup's host needs a place), signed in on the web with a session. */
async function person(
  base: string,
  displayName: string,
  at: { latitude: number; longitude: number },
  birthday = '1990-06-15',
): Promise<Person> {
  const email = uniqueEmail('meetup-safety');
  const body = { email, displayName, password: PASSWORD, birthday, location: 'Open sea', coords: at };
  const res = await api('POST', '/api/v1/register.json', { base, body });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const web = new WebClient(freshIp(), base);
  const signedIn = await web.signInWithPassword(email, PASSWORD);
  if (!web.sessionCookie()) throw new Error(`sign-in failed: ${signedIn.status} ${signedIn.location}`);
  return { id: res.body.user.id, token: res.body.auth.token, email, web };
}

/** A meetup hosted by the first name, joined (confirmed) by the others, in that order. */
async function meetupOf(
  base: string,
  names: readonly string[],
  { startsInMs = 4 * DAY, capacity = 6, birthday }: { startsInMs?: number; capacity?: number; birthday?: string } = {},
) {
  const at = spot();
  const everyone = await Promise.all(names.map((name) => person(base, name, at, birthday)));
  const [host, ...joiners] = everyone;
  const { meetup } = await call(meetups.hostMeetup, {
    token: host!.token,
    base,
    body: hostBody({
      starts_at: new Date(Date.now() + startsInMs).toISOString(),
      place: { name: 'Ostbloc', address: 'Hauptstraße 1, Berlin' },
      note: 'My phone number is 555 0100',
      capacity,
    }),
  });
  for (const joiner of joiners) {
    const joined = await send(meetups.joinMeetup, { params: { meetupId: meetup.id }, token: joiner.token, base });
    expect(joined.ok && joined.data.meetup.me.role).toBe('confirmed');
  }
  return { host: host!, joiners, meetupId: meetup.id };
}

const storedMeetup = (id: string) =>
  testDb().selectFrom('meetups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sharePath = (meetupId: string) => `/api/v1/meetups/${meetupId}/share.json`;
const checkinPath = (meetupId: string) => `/api/v1/meetups/${meetupId}/checkin.json`;
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

describe('share my meetup', () => {
  it('makes a read-only page for a contact: the place with its address, the host and how many go, nobody else; revoked it answers 410', async () => {
    const { host, joiners, meetupId } = await meetupOf(baseUrl(), ['Hana Lindqvist', 'Jon Okafor', 'Kim Tanaka']);
    const [jon] = joiners;
    const made = await web(jon!, 'POST', sharePath(meetupId), {});
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({ shared: true, contact_email: null, checkin: { on: false } });
    const url: string = made.json.url;
    expect(url).toMatch(new RegExp(`^${baseUrl()}/share/bm_sh_[\\w-]{40,}$`));
    // Stored only as a hash: the read back has no link, and no row holds it.
    const read = await jon!.web.request('GET', sharePath(meetupId));
    expect(read.json).toMatchObject({ shared: true, url: null });
    expect(Date.parse(read.json.expires_at)).toBe(
      Date.parse((await storedMeetup(meetupId)).ends_at.toISOString()) + 24 * HOUR,
    );
    expect(JSON.stringify(await testDb().selectFrom('meetup_shares').selectAll().execute())).not.toContain(
      url.split('/').pop(),
    );

    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.headers.get('x-robots-tag')).toMatch(/noindex/);
    expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
    expect(shown.text).toContain('Jon is going to a meetup');
    expect(shown.text).toContain('Rock Climbing');
    expect(shown.text).toContain('Ostbloc');
    expect(shown.text).toContain('Hauptstraße 1, Berlin'); // the sharer holds a seat: the address is theirs to see
    expect(shown.text).toContain('<dd>Hana</dd>');
    expect(shown.text).toMatch(/3 people, Jon included/);
    // First names only, and no one else's: not the other attendee, no surnames, no note, no photos.
    expect(shown.text).not.toMatch(/\b(Kim|Tanaka|Okafor|Lindqvist)\b/);
    expect(shown.text).not.toContain('555 0100');
    expect(shown.text).not.toContain('<img');
    expect(shown.text).not.toContain('<script');

    // The host shares their own; check-in is refused where no mail is delivered.
    const hosts = await web(host, 'POST', sharePath(meetupId), {});
    expect(hosts.status).toBe(201);
    expect((await page(hosts.json.url)).text).toContain('Hana is hosting a meetup');
    const noMail = await web(host, 'POST', sharePath(meetupId), { contact_email: 'friend@example.com', checkin: true });
    expect([noMail.status, noMail.json.error.code]).toEqual([409, 'conflict']);
    expect(noMail.json.error.message).toMatch(/SMTP_URL/);

    // Made again: a new link, and the old one is unknown. Revoked: 410; the host's still works.
    const again = await web(jon!, 'POST', sharePath(meetupId), {});
    expect(again.json.url).not.toBe(url);
    expect((await page(url)).status).toBe(404);
    const revoked = await web(jon!, 'DELETE', sharePath(meetupId));
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ shared: false, url: null });
    const gone = await page(again.json.url);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('This meetup is no longer shared');
    expect(gone.text).not.toContain('Ostbloc');
    expect((await page(hosts.json.url)).status).toBe(200);
  });

  it('is for whoever holds a seat: a bearer token gets 403; a stranger and the waitlisted get 404; leaving ends the link', async () => {
    const { host, joiners, meetupId } = await meetupOf(baseUrl(), ['Lea Host', 'Max Seat'], { capacity: 2 });
    const [max] = joiners;
    const [wes, sam] = await Promise.all([
      person(baseUrl(), 'Wes Waiting', spot()),
      person(baseUrl(), 'Sam Stranger', spot()),
    ]);
    const waiting = await send(meetups.joinMeetup, { params: { meetupId }, token: wes.token });
    expect(waiting.ok && waiting.data.meetup.me.role).toBe('waitlisted');

    for (const [method, path, body] of [
      ['GET', sharePath(meetupId), undefined],
      ['POST', sharePath(meetupId), {}],
      ['DELETE', sharePath(meetupId), {}],
      ['POST', checkinPath(meetupId), { fine: true }],
    ] as const) {
      const byToken = await api(method, path, { token: host.token, body });
      expect([method, path, byToken.status, byToken.body.error.code]).toEqual([method, path, 403, 'person_only']);
      expect(byToken.body.error.hint).toMatch(/meetup’s page in the web app/);
      for (const outsider of [sam, wes]) {
        const refused = await web(outsider, method, path, body);
        expect([method, path, refused.status, refused.json.error.code]).toEqual([method, path, 404, 'not_found']);
        expect(refused.json.error.message).toBe('Meetup not found'); // as a meetup that does not exist
      }
    }
    expect((await web(max!, 'POST', sharePath('not-a-meetup'), {})).status).toBe(404);

    const made = await web(max!, 'POST', sharePath(meetupId), {});
    expect(made.status).toBe(201);
    expect((await page(made.json.url)).status).toBe(200); // the refusals changed nothing

    // Max leaves: his link is gone, he may not share it again, and his seat goes to Wes, who may.
    const left = await send(meetups.leaveMeetup, { params: { meetupId }, token: max!.token });
    expect(left.ok).toBe(true);
    const gone = await page(made.json.url);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('Max is no longer going to this meetup.');
    expect((await web(max!, 'POST', sharePath(meetupId), {})).status).toBe(404);
    const row = await testDb()
      .selectFrom('meetup_shares')
      .selectAll()
      .where('meetup_id', '=', meetupId)
      .where('user_id', '=', max!.id)
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect((await web(wes, 'POST', sharePath(meetupId), {})).status).toBe(201);
  });

  it('answers 409 meetup_not_open for a cancelled or finished meetup; the page is gone then, and from 24 hours after the end', async () => {
    const cancelled = await meetupOf(baseUrl(), ['Ona Host', 'Pia Seat']);
    const link = (await web(cancelled.joiners[0]!, 'POST', sharePath(cancelled.meetupId), {})).json.url as string;
    expect(
      (
        await send(meetups.cancelMeetup, {
          params: { meetupId: cancelled.meetupId },
          token: cancelled.host.token,
          body: {},
        })
      ).ok,
    ).toBe(true);
    const gone = await page(link);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('This meetup is no longer happening.');
    const refused = await web(cancelled.joiners[0]!, 'POST', sharePath(cancelled.meetupId), {});
    expect([refused.status, refused.json.error.code]).toEqual([409, 'meetup_not_open']);
    expect(refused.json.error.message).toBe('This meetup is cancelled, so there is nothing to share');
    // Still theirs to read and turn off.
    expect((await web(cancelled.joiners[0]!, 'GET', sharePath(cancelled.meetupId))).json.shared).toBe(true);

    const { joiners, meetupId } = await meetupOf(baseUrl(), ['Quin Host', 'Rui Seat']);
    const made = await web(joiners[0]!, 'POST', sharePath(meetupId), {});
    // The meetup moved into the past (as time would move it): ended 23 h ago, then 25 h ago.
    const moveTo = (endedHoursAgo: number) =>
      testDb()
        .updateTable('meetups')
        .set({
          starts_at: new Date(Date.now() - (endedHoursAgo + 2) * HOUR),
          ends_at: new Date(Date.now() - endedHoursAgo * HOUR),
        })
        .where('id', '=', meetupId)
        .execute();
    await moveTo(23);
    expect((await page(made.json.url)).status).toBe(200);
    expect((await web(joiners[0]!, 'POST', sharePath(meetupId), {})).json.error.code).toBe('meetup_not_open');
    await moveTo(25);
    const expired = await page(made.json.url);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');
  });
});

const decode = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\r\n/g, '\n');

describe('meetup check-in, end to end with SMTP', () => {
  let sink: SmtpSink | undefined;
  let stack: Stack;
  let boss: PgBoss;
  let db: Database;
  // Quoted-printable undone, so links and words can be matched whole.
  const inbox = () => (sink?.mails ?? []).map((m) => ({ to: m.to, raw: decode(m.raw) }));

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({ SMTP_URL: sink.url, PLAN_CHECKIN_DELAY: '0', PLAN_CHECKIN_ANSWER_WINDOW: '6s' });
    db = createDb(stack.databaseUrl, 2);
    boss = new PgBoss({ connectionString: stack.databaseUrl, schema: 'pgboss', supervise: false, schedule: false });
    await boss.start();
  }, 180_000);

  afterAll(async () => {
    await boss?.stop({ graceful: false });
    await db?.destroy();
    await stack?.stop();
    await sink?.close();
  });

  /** The sweep now, as its every-minute schedule would queue it (a stately queue: one at a time). */
  const sweep = () => boss.send('plans-sweep', {});
  const mailsTo = (email: string, subject: RegExp) =>
    inbox().filter((m) => m.to.includes(email) && subject.test(/^Subject: (.*)$/m.exec(m.raw)?.[1] ?? ''));
  const shareRow = (meetupId: string, userId: string) =>
    db
      .selectFrom('meetup_shares')
      .selectAll()
      .where('meetup_id', '=', meetupId)
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
  /** Past the answer window and through several sweeps. */
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 7 * SECOND));
    for (let i = 0; i < 3; i++) {
      await sweep();
      await new Promise((r) => setTimeout(r, 700));
    }
  };

  it('turns check-in on by default for a person under 18 with a contact, as for a plan', async () => {
    const sixteen = `${new Date().getUTCFullYear() - 16}-01-01`;
    const { host, meetupId } = await meetupOf(stack.baseUrl, ['Tea Teen', 'Tod Teen'], { birthday: sixteen });
    const teen = await web(host, 'POST', sharePath(meetupId), { contact_email: uniqueEmail('parent') });
    expect(teen.status, teen.text).toBe(201);
    expect(teen.json.checkin.on).toBe(true);
    const off = await web(host, 'POST', sharePath(meetupId), { contact_email: uniqueEmail('parent'), checkin: false });
    expect(off.json.checkin.on).toBe(false);
  });

  it('asks "All good?" by push and mail after the start, then mails the contact once with the meetup’s page', async () => {
    const contact = uniqueEmail('meetup-contact');
    const { joiners, meetupId } = await meetupOf(stack.baseUrl, ['Ana Host', 'Ben Check'], {
      startsInMs: 8 * SECOND,
    });
    const ben = joiners[0]!;
    const made = await web(ben, 'POST', sharePath(meetupId), { contact_email: contact, checkin: true });
    expect(made.status, made.text).toBe(201);
    expect(made.json.checkin).toMatchObject({ on: true, asked_at: null, contact_mailed: false });

    // Asked at the start (delay 0): a push, a fixed-wording mail to the meetup's page, and the home screen.
    const asked = await sweepUntil(
      () => mailsTo(ben.email, /^All good\?/),
      (m) => m.length > 0,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.raw).toContain(`${stack.baseUrl}/account/meetups/${meetupId}`);
    expect(asked[0]!.raw).toContain('during your meetup');
    expect(asked[0]!.raw).not.toMatch(/\b(Rock Climbing|rock_climbing|Ostbloc|Ana)\b/);
    const { rows: pushes } = await sql<{ data: { recipientId: string } }>`
      select data from pgboss.job where data->>'kind' = 'meetup_checkin' and data->>'meetupId' = ${meetupId}`.execute(
      db,
    );
    expect(pushes.map((j) => j.data.recipientId)).toEqual([ben.id]);
    const home = await ben.web.request('GET', '/account');
    expect(home.text).toContain('All good?');
    expect(home.text).toContain(`/account/meetups/${meetupId}`);

    // No answer within the window: one mail to the contact, with a page link of its own.
    const toContact = await sweepUntil(
      () => mailsTo(contact, /check-in went unanswered/),
      (m) => m.length > 0,
    );
    expect(toContact).toHaveLength(1);
    const mail = toContact[0]!.raw;
    expect(mail).toContain('This is the meetup they shared with you');
    expect(mail).toContain('Ben named you as their trusted contact');
    expect(mail).not.toMatch(/\b(Rock Climbing|Ostbloc|Hauptstra|Ana|555 0100)\b/);
    const link = new RegExp(`${stack.baseUrl}/share/(bm_sh_[\\w-]+)`).exec(mail)?.[0];
    expect(link).toBeTruthy();
    expect(link).not.toBe(made.json.url);
    const shown = await page(link!);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Ben is going to a meetup');
    expect(shown.text).toContain('Hauptstraße 1, Berlin');
    expect((await web(ben, 'GET', sharePath(meetupId))).json.checkin.contact_mailed).toBe(true);

    // At most once; a late "I'm fine" is taken.
    await settle();
    expect(mailsTo(contact, /check-in went unanswered/)).toHaveLength(1);
    expect(mailsTo(ben.email, /^All good\?/)).toHaveLength(1);
    const fine = await web(ben, 'POST', checkinPath(meetupId), { fine: true });
    expect(fine.status).toBe(200);
    expect(fine.json.checkin.fine_at).toBeTruthy();
  }, 150_000);

  it('a cancel, leaving, or "I\'m fine" stops it: nothing asked, nothing sent to the contact', async () => {
    const contacts = { cancelled: uniqueEmail('c-cancel'), left: uniqueEmail('c-left'), fine: uniqueEmail('c-fine') };
    // Far enough ahead that the cancel and the leave come before the start (both need it upcoming).
    const soon = { startsInMs: 15 * SECOND };
    const [cancelled, left, fine] = await Promise.all([
      meetupOf(stack.baseUrl, ['Cleo Host', 'Dan Cancel'], soon),
      meetupOf(stack.baseUrl, ['Eva Host', 'Finn Leave'], soon),
      meetupOf(stack.baseUrl, ['Gus Host', 'Ida Fine'], soon),
    ]);
    for (const [m, contact] of [
      [cancelled, contacts.cancelled],
      [left, contacts.left],
      [fine, contacts.fine],
    ] as const) {
      const made = await web(m.joiners[0]!, 'POST', sharePath(m.meetupId), { contact_email: contact, checkin: true });
      expect(made.status, made.text).toBe(201);
    }
    // Before the start: the host cancels one; someone leaves another (which revokes their share).
    const base = stack.baseUrl;
    const cancel = await send(meetups.cancelMeetup, {
      params: { meetupId: cancelled.meetupId },
      token: cancelled.host.token,
      body: {},
      base,
    });
    expect(cancel.ok).toBe(true);
    const leave = await send(meetups.leaveMeetup, {
      params: { meetupId: left.meetupId },
      token: left.joiners[0]!.token,
      base,
    });
    expect(leave.ok).toBe(true);
    const revoked = await shareRow(left.meetupId, left.joiners[0]!.id);
    expect(revoked).toMatchObject({ checkin: false, contact_email: null });
    expect(revoked.revoked_at).not.toBeNull();

    // The third is asked, and answers within the window.
    const asked = await sweepUntil(
      () => shareRow(fine.meetupId, fine.joiners[0]!.id),
      (row) => row.checkin_asked_at !== null,
    );
    expect(asked.checkin_asked_at).not.toBeNull();
    expect((await web(fine.joiners[0]!, 'POST', checkinPath(fine.meetupId), { fine: true })).status).toBe(200);

    await settle();
    for (const contact of Object.values(contacts)) expect(mailsTo(contact, /./)).toEqual([]);
    expect(mailsTo(cancelled.joiners[0]!.email, /^All good\?/)).toEqual([]);
    expect(mailsTo(left.joiners[0]!.email, /^All good\?/)).toEqual([]);
    expect((await shareRow(cancelled.meetupId, cancelled.joiners[0]!.id)).checkin_asked_at).toBeNull();
    expect((await shareRow(left.meetupId, left.joiners[0]!.id)).checkin_asked_at).toBeNull();
    expect((await shareRow(fine.meetupId, fine.joiners[0]!.id)).contact_mail).toBeNull();
  }, 150_000);
});
