// The calendar (issue 29, section 4) against the real server: a plan's .ics and the private
// feed, each parsed with a real iCalendar library (node-ical), through confirm, counter and cancel.
import fs from 'node:fs';
import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import * as plans from '@/lib/contract/plans';
import { blockUser } from '@/lib/contract/safety';
import { SERVER_LOG } from '../support/server-log';
import { api, baseUrl, personSession, registerUser, testDb } from './client';
import { call, send } from './contract-client';
import { makeBuddies, users, type TestUser } from './social-helpers';

const HOUR = 3_600_000;
// Whole minutes: iCalendar times have whole seconds.
const inHours = (hours: number) => new Date(Math.floor((Date.now() + hours * HOUR) / 60_000) * 60_000).toISOString();

// Two surnames, so "first name only" can fail.
async function pair(): Promise<[TestUser, TestUser, string]> {
  const [a, b] = await Promise.all([
    registerUser({ displayName: 'Ana Lima' }),
    registerUser({ displayName: 'Bruno Costa' }),
  ]);
  return [a, b, await makeBuddies(a, b)];
}

const propose = (by: TestUser, chatId: string, extra: Record<string, unknown> = {}) =>
  call(plans.proposePlan, {
    params: { chatId },
    token: by.token,
    body: {
      activity: 'Bouldering; indoors, easy',
      starts_at: inHours(50),
      place: { name: 'Block Hall, north wing', address: 'Hauptstraße 1' },
      ...extra,
    },
  });
const accept = (by: TestUser, planId: string) =>
  send(plans.acceptPlan, { params: { planId }, token: by.token, body: {} });
const cancel = (by: TestUser, planId: string) =>
  send(plans.cancelPlan, { params: { planId }, token: by.token, body: {} });

function events(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

async function planIcs(by: TestUser, planId: string) {
  const res = await api<string>('GET', `/api/v1/plans/${planId}.ics`, { token: by.token });
  expect(res.status, String(res.body)).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
  // Issue 46 §7: named after the plan and its day, and linking back to its page.
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.ics"$/);
  const found = events(res.body);
  expect(found).toHaveLength(1);
  expect(found[0]!.url).toMatchObject({ val: `${baseUrl()}/account/plans/${planId}` });
  return { text: res.body, event: found[0]! };
}

describe('GET /api/v1/plans/{planId}.ics', () => {
  it('is one VEVENT with a stable UID, a SEQUENCE that grows, UTC times, first name only, alarms and status', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    const proposed = await planIcs(b, plan.id);
    expect(proposed.event.uid).toMatch(new RegExp(`^${plan.calendar_uid}@`));
    expect(proposed.event.status).toBe('TENTATIVE');

    expect((await accept(b, plan.id)).status).toBe(200);
    const confirmed = await planIcs(b, plan.id);
    const e = confirmed.event;
    expect(e.uid).toBe(proposed.event.uid);
    expect(Number(e.sequence)).toBeGreaterThan(Number(proposed.event.sequence));
    expect(e.status).toBe('CONFIRMED');
    expect(new Date(e.start).getTime()).toBe(Date.parse(plan.starts_at));
    expect(new Date(e.end as Date).getTime()).toBe(Date.parse(plan.ends_at));
    expect(confirmed.text).toMatch(/^DTSTART:\d{8}T\d{6}Z\r?$/m);
    expect(confirmed.text).toMatch(/^DTSTAMP:\d{8}T\d{6}Z\r?$/m);
    // The other person by first name; escaping survives the round trip.
    expect(e.summary).toBe('Bouldering; indoors, easy with Ana');
    expect(confirmed.text).not.toContain('Lima');
    expect(e.location).toBe('Block Hall, north wing, Hauptstraße 1');
    const alarms = (e as unknown as { alarms: { action: string; trigger: string }[] }).alarms;
    expect(alarms.map((x) => [x.action, x.trigger])).toEqual([
      ['DISPLAY', '-P1D'],
      ['DISPLAY', '-PT2H'],
    ]);
    expect(confirmed.text).not.toMatch(/@example\.com/);
    // Lines are folded at 75 octets.
    for (const line of confirmed.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    // A counter, once accepted, is the same calendar event moved: same UID, higher SEQUENCE.
    const counter = await propose(b, chatId, { starts_at: inHours(74), replaces: plan.id });
    expect((await accept(a, counter.plan.id)).status).toBe(200);
    const moved = (await planIcs(a, counter.plan.id)).event;
    expect(moved.uid).toBe(e.uid);
    expect(Number(moved.sequence)).toBeGreaterThan(Number(e.sequence));
    expect(new Date(moved.start as Date).getTime()).toBe(Date.parse(counter.plan.starts_at));
    expect(moved.summary).toBe('Bouldering; indoors, easy with Bruno');

    expect((await cancel(a, counter.plan.id)).status).toBe(200);
    const cancelled = (await planIcs(b, counter.plan.id)).event;
    expect(cancelled.uid).toBe(e.uid);
    expect(cancelled.status).toBe('CANCELLED');
    expect(Number(cancelled.sequence)).toBeGreaterThan(Number(moved.sequence));
  });

  it('is 404 to a stranger and after a block, and 401 without credentials', async () => {
    const [a, b, chatId] = await pair();
    const [stranger] = await users(1, 'CalendarStranger');
    const { plan } = await propose(a, chatId);
    expect((await api('GET', `/api/v1/plans/${plan.id}.ics`, { token: stranger.token })).status).toBe(404);
    expect((await api('GET', `/api/v1/plans/${plan.id}.ics`)).status).toBe(401);
    expect((await api('GET', '/api/v1/plans/not-a-plan.ics', { token: a.token })).status).toBe(404);
    // b blocks a: b no longer sees the plan; a sees only that it was cancelled.
    await call(blockUser, { params: { slug: a.slug }, token: b.token, body: {} });
    expect((await api('GET', `/api/v1/plans/${plan.id}.ics`, { token: b.token })).status).toBe(404);
    const seen = await api<string>('GET', `/api/v1/plans/${plan.id}.ics`, { token: a.token });
    expect(events(seen.body).map((e) => e.status)).toEqual(['CANCELLED']);
  });
});

describe('the private calendar feed', () => {
  it('lists confirmed plans, marks a cancelled one, dies on rotate and on turning off, and never logs its secret', async () => {
    const [a, b, chatId] = await pair();
    // The feed is the person's own (a token gets 403 person_only): B's web session turns it on.
    const own = await personSession(b.id);
    const on = await api('POST', '/api/v1/me/calendar_feed.json', { headers: own, body: {} });
    expect(on.status).toBe(201);
    expect(on.body.webcal_url).toMatch(/^webcal:\/\/.+\/api\/v1\/calendar\/bm_cal_[\w-]+\.ics$/);
    const feedPath = new URL(on.body.url as string).pathname;
    const secret = /bm_cal_[\w-]+/.exec(feedPath)![0];
    // Shown once: the state never carries it again, and only its hash is stored.
    const state = await api('GET', '/api/v1/me/calendar_feed.json', { headers: own });
    expect(state.body).toMatchObject({ on: true, url: null, webcal_url: null });

    const { plan: proposed } = await propose(a, chatId, { activity: 'Open proposal' });
    const { plan } = await propose(a, chatId, { activity: 'Hiking', starts_at: inHours(60) });
    expect((await accept(b, plan.id)).status).toBe(200);
    const feed = async () => {
      const res = await api<string>('GET', feedPath);
      return { status: res.status, events: res.status === 200 ? events(res.body) : [] };
    };
    let served = await feed();
    expect(served.status).toBe(200);
    expect(served.events.map((e) => [e.summary, e.status])).toEqual([['Hiking with Ana', 'CONFIRMED']]);
    expect(served.events.some((e) => e.uid.startsWith(proposed.calendar_uid))).toBe(false);

    expect((await cancel(a, plan.id)).status).toBe(200);
    served = await feed();
    expect(served.events.map((e) => [e.uid, e.status])).toEqual([[`${plan.calendar_uid}@127.0.0.1`, 'CANCELLED']]);

    // Rotate: the old URL is 404 at once, the new one works.
    const rotated = await api('POST', '/api/v1/me/calendar_feed.json', { headers: own, body: {} });
    expect(rotated.status).toBe(201);
    expect((await feed()).status).toBe(404);
    const newPath = new URL(rotated.body.url as string).pathname;
    expect((await api('GET', newPath)).status).toBe(200);
    // Turned off: 404 too, and a guessed secret is no better.
    expect((await api('DELETE', '/api/v1/me/calendar_feed.json', { headers: own, body: {} })).status).toBe(200);
    expect((await api('GET', newPath)).status).toBe(404);
    expect((await api('GET', '/api/v1/calendar/bm_cal_guess.ics')).status).toBe(404);
    expect((await api('GET', '/api/v1/me/calendar_feed.json', { headers: own })).body.on).toBe(false);

    const log = fs.readFileSync(SERVER_LOG, 'utf8');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(newPath);
  });

  it('cannot be turned on without the person: no credentials, a wrong token, a real token, a cross-site session', async () => {
    const [a] = await users(1, 'FeedScope');
    const res = await api('POST', '/api/v1/me/calendar_feed.json', { body: {} });
    expect(res.status).toBe(401);
    expect((await api('POST', '/api/v1/me/calendar_feed.json', { token: `${a.token}x`, body: {} })).status).toBe(401);
    const byToken = await api('POST', '/api/v1/me/calendar_feed.json', { token: a.token, body: {} });
    expect([byToken.status, byToken.body.error.code]).toEqual([403, 'person_only']);
    const cookie = (await personSession(a.id)).cookie!;
    const crossSite = await api('POST', '/api/v1/me/calendar_feed.json', {
      headers: { cookie, origin: 'https://evil.example' },
      body: {},
    });
    expect(crossSite.status).toBe(403);
    expect(await testDb().selectFrom('calendar_feeds').select('user_id').where('user_id', '=', a.id).execute()).toEqual(
      [],
    );
  });
});
