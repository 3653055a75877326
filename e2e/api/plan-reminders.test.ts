// Reminders (issue 29, section 5) against the real server: rows written with the confirm,
// moved by an accepted counter, removed by a cancel; the minute sweep turns a due row into
// a push and a mail (with one-click unsubscribe), at most once. The shared stack runs the
// default offsets (24h,2h), so a plan 2 hours and a few seconds ahead is reminded within
// about a minute: nothing sleeps for hours.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as plans from '@/lib/contract/plans';
import { acceptBuddyRequest, sendBuddyRequest } from '@/lib/contract/buddies';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { startStack, type Stack } from '../support/stack';
import { api, registerUser, testDb, uniqueEmail } from './client';
import { call, send } from './contract-client';
import { makeBuddies, pushJobs, type TestUser } from './social-helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Person = TestUser & { email: string };
async function pair(): Promise<[Person, Person, string]> {
  const emails = [uniqueEmail('remind'), uniqueEmail('remind')] as const;
  const [a, b] = await Promise.all([
    registerUser({ displayName: 'Rita Remind', email: emails[0] }),
    registerUser({ displayName: 'Sam Remind', email: emails[1] }),
  ]);
  return [{ ...a, email: emails[0] }, { ...b, email: emails[1] }, await makeBuddies(a, b)];
}

const propose = (by: TestUser, chatId: string, startsAt: Date, extra: Record<string, unknown> = {}) =>
  call(plans.proposePlan, {
    params: { chatId },
    token: by.token,
    body: {
      activity: 'Evil activity https://evil.example',
      starts_at: startsAt.toISOString(),
      place: { name: 'Click here https://evil.example' },
      ...extra,
    },
  });
const accept = (by: TestUser, planId: string) =>
  send(plans.acceptPlan, { params: { planId }, token: by.token, body: {} });
const cancel = (by: TestUser, planId: string) =>
  send(plans.cancelPlan, { params: { planId }, token: by.token, body: {} });

const reminders = (planId: string) =>
  testDb()
    .selectFrom('plan_reminders')
    .selectAll()
    .where('plan_id', '=', planId)
    .orderBy('user_id')
    .orderBy('offset_minutes', 'desc')
    .execute();

async function queuedFor(planId: string) {
  const { rows } = await sql<{ name: string }>`
    select name from pgboss.job where data->>'planId' = ${planId} and data->>'kind' = 'plan_reminder'
    union all select name from pgboss.job where name = 'mail-plan-reminder' and data->>'reminderId' in
      (select id::text from plan_reminders where plan_id = ${planId})`.execute(testDb());
  return rows;
}

/** Reminder mails to an address, from the outbox (the shared stack has no SMTP_URL). */
function mailsTo(email: string): string[] {
  const dir = path.join(inject('dataDir'), 'mail');
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const to = new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'mi');
  return files
    .map((file) => fs.readFileSync(path.join(dir, file), 'utf8').replace(/=\r?\n/g, ''))
    .filter((mail) => to.test(mail) && /^Subject: Reminder:/m.test(mail)); // not the sign-in mail of registration
}

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('plan reminders', () => {
  it('a plan 20 days out keeps its reminders as rows (no queued job), moves them with a counter, and loses them on cancel', async () => {
    const [a, b, chatId] = await pair();
    const start = new Date(Date.now() + 20 * DAY);
    const { plan } = await propose(a, chatId, start);
    expect(await reminders(plan.id)).toEqual([]);
    expect((await accept(b, plan.id)).status).toBe(200);
    const rows = await reminders(plan.id);
    expect(rows.map((r) => [r.user_id, r.offset_minutes, new Date(r.due_at).getTime(), r.sent_at])).toEqual(
      [
        [a.id, 24 * 60, start.getTime() - DAY, null],
        [a.id, 120, start.getTime() - 2 * HOUR, null],
        [b.id, 24 * 60, start.getTime() - DAY, null],
        [b.id, 120, start.getTime() - 2 * HOUR, null],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(await queuedFor(plan.id)).toEqual([]);

    // Moved: an accepted counter's reminders replace the old plan's.
    const later = new Date(start.getTime() + 3 * DAY);
    const counter = await propose(b, chatId, later, { replaces: plan.id });
    expect((await reminders(plan.id)).length).toBe(4); // still confirmed until the counter is accepted
    expect((await accept(a, counter.plan.id)).status).toBe(200);
    expect(await reminders(plan.id)).toEqual([]);
    const moved = await reminders(counter.plan.id);
    expect(moved.map((r) => new Date(r.due_at).getTime()).sort()).toEqual(
      [later.getTime() - DAY, later.getTime() - DAY, later.getTime() - 2 * HOUR, later.getTime() - 2 * HOUR].sort(),
    );

    expect((await cancel(a, counter.plan.id)).status).toBe(200);
    expect(await reminders(counter.plan.id)).toEqual([]);
  });

  it('a due reminder becomes one push and one fixed-wording mail with one-click unsubscribe; mail off means push only', async () => {
    const [a, b, chatId] = await pair();
    // a turned reminder mail off in settings; b keeps it.
    const off = await api('PATCH', '/api/v1/me/mail_preferences.json', { token: a.token, body: { reminders: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toMatchObject({ reminders: false, checkins: true, digests: true });

    const start = new Date(Date.now() + 2 * HOUR + 15_000);
    const { plan } = await propose(a, chatId, start);
    expect((await accept(b, plan.id)).status).toBe(200);
    // Only the 2 h reminder is still ahead (the 24 h one is already past).
    expect((await reminders(plan.id)).map((r) => r.offset_minutes)).toEqual([120, 120]);

    const sent = await until(
      () => reminders(plan.id),
      (rows) => rows.every((r) => r.sent_at !== null),
    );
    expect(sent.every((r) => r.sent_at !== null)).toBe(true);
    const pushes = await until(
      async () => [...(await pushJobs(a.id)), ...(await pushJobs(b.id))].filter((j) => j.data.kind === 'plan_reminder'),
      (jobs) => jobs.length >= 2,
    );
    expect(pushes.map((j) => j.data.recipientId).sort()).toEqual([a.id, b.id].sort());

    const mails = await until(
      async () => mailsTo(b.email),
      (found) => found.length >= 1,
      30_000,
    );
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    // The header may be folded onto a second line (RFC 5322), as nodemailer does with a long URL.
    const unsubscribe = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(mail)?.[1];
    expect(unsubscribe).toBeTruthy();
    // Issue 46 §5: the buddy's first name, the activity only as the catalog names it (this one is not
    // in it), the plan's own page, and the plan as an .ics in the same words; never text someone chose.
    expect(mail).toMatch(/^Subject: Reminder: your plan with Rita, in 2 hours$/m);
    expect(mail).toContain('Your plan with Rita starts');
    expect(mail).toContain(`/account/plans/${plan.id}`);
    const ics = /Content-Type: text\/calendar[^\n]*\n(?:[^\n]+\n)*\n([\s\S]+?)\n--/m.exec(mail)?.[1] ?? '';
    const calendar = ics.includes('BEGIN:VCALENDAR')
      ? ics
      : Buffer.from(ics.replace(/\s+/g, ''), 'base64').toString('utf8');
    expect(calendar).toContain('BEGIN:VEVENT');
    expect(calendar).toContain('SUMMARY:Your plan with Rita');
    const { calendar_uid } = await testDb()
      .selectFrom('plans')
      .select('calendar_uid')
      .where('id', '=', plan.id)
      .executeTakeFirstOrThrow();
    expect(calendar).toContain(`UID:${calendar_uid}@`);
    expect(calendar).not.toContain('LOCATION');
    expect(`${mail}\n${calendar}`).not.toMatch(/evil|Click here|Remind(?!er)/);
    // a turned reminder mail off: the push went, the mail did not.
    await new Promise((r) => setTimeout(r, 3000));
    expect(mailsTo(a.email)).toEqual([]);

    // The sweep runs again each minute; nothing is sent twice.
    const again = await reminders(plan.id);
    expect(again.map((r) => r.sent_at)).toEqual(sent.map((r) => r.sent_at));

    // RFC 8058 one-click: a POST with the form body turns optional mail off; a forged token does nothing.
    const url = new URL(unsubscribe!);
    const forged = await fetch(`${url.origin}${url.pathname}?token=${a.id}.AAAA`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(forged.status).toBe(404);
    const done = await fetch(unsubscribe!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    const prefs = await api('GET', '/api/v1/me/mail_preferences.json', { token: b.token });
    expect(prefs.body).toMatchObject({ reminders: false, checkins: false, digests: false });
  }, 240_000);

  it('a cancelled plan sends no reminder', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId, new Date(Date.now() + 2 * HOUR + 10 * MINUTE));
    expect((await accept(b, plan.id)).status).toBe(200);
    expect((await reminders(plan.id)).length).toBe(2);
    expect((await cancel(b, plan.id)).status).toBe(200);
    expect(await reminders(plan.id)).toEqual([]);
  });
});

// The same path through a real SMTP conversation: a stack of its own, whose mail goes to an
// smtp-server sink started here, with a reminder 2 minutes before the start
// (PLAN_REMINDER_OFFSETS=2m), so a plan proposed 2.5 minutes ahead is reminded within a
// minute and a half of the sweep.
describe('plan reminders by SMTP', () => {
  let sink: SmtpSink | undefined;
  let stack: Stack;

  beforeAll(async () => {
    sink = await startSmtpSink();
    stack = await startStack({
      SMTP_URL: sink.url,
      MAIL_FROM: 'buddies@example.com',
      PLAN_REMINDER_OFFSETS: '2m',
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await sink?.close();
  });

  it('a confirmed plan’s reminder reaches both people through SMTP, naming the buddy, with one-click unsubscribe', {
    timeout: 240_000,
  }, async () => {
    const base = stack.baseUrl;
    const person = async (displayName: string) => {
      const email = uniqueEmail('smtp-remind');
      const res = await api('POST', '/api/v1/register.json', { base, body: { email, displayName } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { email, slug: res.body.user.slug as string, token: res.body.auth.token as string };
    };
    const [a, b] = [await person('Tess Smtp'), await person('Uma Smtp')];
    const asked = await call(sendBuddyRequest, { base, params: { slug: b.slug }, token: a.token, body: {} });
    const { chat } = await call(acceptBuddyRequest, {
      base,
      params: { invitationId: asked.request.id },
      token: b.token,
    });
    const { plan } = await call(plans.proposePlan, {
      base,
      params: { chatId: chat.chatId },
      token: a.token,
      body: {
        activity: 'Evil activity https://evil.example',
        starts_at: new Date(Date.now() + 150_000).toISOString(),
        place: { name: 'Click here https://evil.example' },
      },
    });
    await call(plans.acceptPlan, { base, params: { planId: plan.id }, token: b.token, body: {} });

    const reminders = () =>
      (sink?.mails ?? []).filter((m) => /^Subject: Reminder: your plan with (Tess|Uma), in 2 minutes/m.test(m.raw));
    const deadline = Date.now() + 180_000;
    while (reminders().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    const mails = reminders();
    expect(mails.flatMap((m) => m.to).sort()).toEqual([a.email, b.email].sort());
    for (const { raw, to } of mails) {
      expect(raw).toMatch(/^From: buddies@example\.com/m);
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
      expect(raw).toMatch(/^List-Unsubscribe:\s*<http/m);
      const text = raw.replace(/=\r?\n/g, '');
      // Each is told the other's first name; the activity is not the catalog's, so it is "your plan".
      expect(text).toContain(`Your plan with ${to.includes(a.email) ? 'Uma' : 'Tess'} starts`);
      expect(text).toMatch(/^Content-Type: text\/calendar/m);
      expect(text).not.toMatch(/\b(evil|Click here)\b/);
    }
  });
});
