// Plans (issue 29, section 3) against the real server and PostgreSQL: a plan's life,
// its refusals, the races between two people answering at once, what the inbox and its
// long-poll show, blocks and disabled accounts, and the MCP tools through the SDK client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'kysely';
import type { z } from 'zod';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { disableAccount } from '@/lib/accounts/disable';
import * as plans from '@/lib/contract/plans';
import { updateMe } from '@/lib/contract/profiles';
import { getInbox } from '@/lib/contract/inbox';
import { blockUser } from '@/lib/contract/safety';
import { sweepPlans } from '@/lib/plans/plans';
import { send as sendRaw } from '../support/fuzz';
import { register } from '@/lib/contract/accounts';
import { api, baseUrl, freshIp, testDb, uniqueEmail } from './client';
import { call, callWithHeaders, pathOf, refused, refusedRaw, send } from './contract-client';
import { makeBuddies, pushJobs, restrictScopes, settledPushJobs, users, type TestUser } from './social-helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

type ProposeBody = z.input<typeof plans.proposePlanBodySchema>;

// withAgents: registered with agentName AgentA and AgentB (a token's own agent is the only one its writes may name).
async function pair(prefix = 'Plan', withAgents = false): Promise<[TestUser, TestUser, string]> {
  const [a, b] = await users(2, prefix, withAgents);
  return [a, b, await makeBuddies(a, b)];
}

const proposal = (overrides: Partial<ProposeBody> = {}): ProposeBody => ({
  activity: 'Bouldering',
  starts_at: inHours(48),
  place: { name: 'Block Hall', address: 'Hauptstraße 1' },
  ...overrides,
});
const propose = (by: TestUser, chatId: string, overrides: Partial<ProposeBody> = {}) =>
  call(plans.proposePlan, { params: { chatId }, token: by.token, body: proposal(overrides) });
const proposeRaw = (by: TestUser, chatId: string, overrides: Partial<ProposeBody> = {}) =>
  send(plans.proposePlan, { params: { chatId }, token: by.token, body: proposal(overrides) });
const answer = (
  spec: typeof plans.acceptPlan | typeof plans.declinePlan,
  by: TestUser,
  planId: string,
  agentName?: string,
) => send(spec, { params: { planId }, token: by.token, body: agentName ? { agentName } : {} });
const cancel = (by: TestUser, planId: string, body: { reason?: string; if_status?: 'proposed' | 'confirmed' } = {}) =>
  send(plans.cancelPlan, { params: { planId }, token: by.token, body });
const getPlan = (by: TestUser, planId: string) => call(plans.getPlan, { params: { planId }, token: by.token });
const stored = (planId: string) =>
  testDb().selectFrom('plans').selectAll().where('id', '=', planId).executeTakeFirstOrThrow();
const inboxTag = async (user: TestUser) =>
  (await callWithHeaders(getInbox, { token: user.token })).headers.get('etag') ?? '';

describe("a plan's life", () => {
  it('propose → the other sees it to answer → accept (with provenance) → confirmed, next plan, pushes', async () => {
    const [a, b, chatId] = await pair('Plan', true);
    const startsAt = inHours(30);
    const { plan } = await propose(a, chatId, { starts_at: startsAt, note: 'Shoes for rent', agentName: 'AgentA' });
    expect(plan).toMatchObject({
      status: 'proposed',
      chatId,
      from_me: true,
      activity: 'Bouldering',
      place: { name: 'Block Hall', address: 'Hauptstraße 1' },
      note: 'Shoes for rent',
      replaces: null,
      sequence: 0,
      buddy: { id: b.id },
      proposed_by: { name: 'Plan A', agent_name: 'AgentA' },
      accepted_by: null,
    });
    // Any offset in, UTC out; two hours long by default.
    expect(Date.parse(plan.starts_at)).toBe(Date.parse(startsAt));
    expect(Date.parse(plan.ends_at) - Date.parse(plan.starts_at)).toBe(2 * HOUR);

    const toAnswer = await call(plans.listPlans, { query: { view: 'to_answer' }, token: b.token });
    expect(toAnswer.plans.map((p) => p.id)).toEqual([plan.id]);
    expect(toAnswer.plans[0]).toMatchObject({ from_me: false, buddy: { id: a.id } });
    expect((await call(plans.listPlans, { query: { view: 'to_answer' }, token: a.token })).plans).toEqual([]);
    const inboxB = await call(getInbox, { token: b.token });
    expect(inboxB.plans_to_answer.map((p) => p.id)).toEqual([plan.id]);
    expect(inboxB.next_plan).toBeNull();

    const accepted = await answer(plans.acceptPlan, b, plan.id, 'AgentB');
    expect(accepted.ok && accepted.data.plan).toMatchObject({
      status: 'confirmed',
      accepted_by: { name: 'Plan B', agent_name: 'AgentB' },
    });
    expect(await stored(plan.id)).toMatchObject({
      status: 'confirmed',
      acted_by_user: b.id,
      acted_agent_name: 'AgentB',
    });
    // Both see who accepted through which assistant.
    expect((await getPlan(a, plan.id)).plan.accepted_by).toEqual({ name: 'Plan B', agent_name: 'AgentB' });
    expect((await call(getInbox, { token: a.token })).next_plan?.id).toBe(plan.id);
    expect((await call(getInbox, { token: b.token })).plans_to_answer).toEqual([]);
    expect((await call(plans.listPlans, { token: a.token })).plans.map((p) => p.id)).toEqual([plan.id]);

    const pushed = [...(await pushJobs(b.id)), ...(await pushJobs(a.id))]
      .map((j) => j.data)
      .filter((d) => d.kind === 'plan');
    expect(pushed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ recipientId: b.id, planId: plan.id, event: 'proposed' }),
        expect.objectContaining({ recipientId: a.id, planId: plan.id, event: 'accepted' }),
      ]),
    );
    // The worker builds and sends each (the log provider here): none fails.
    const delivered = (await settledPushJobs(a.id, 2)).filter((j) => j.data.kind === 'plan');
    expect(delivered.map((j) => j.state)).toEqual(['completed']);
  });

  it('shows every instant in the reader’s zone, and the buddy’s local start where their clock differs', async () => {
    const [a, b, chatId] = await pair('Zone');
    await call(updateMe, { token: a.token, body: { timezone: 'Europe/Vienna' } });
    await call(updateMe, { token: b.token, body: { timezone: 'America/New_York' } });
    // Proposed with a third zone's offset: any offset is accepted.
    const startsAt = new Date(Math.ceil((Date.now() + 50 * HOUR) / HOUR) * HOUR);
    const tokyo = new Date(startsAt.getTime() + 9 * HOUR).toISOString().replace(/\.000Z$/, '+09:00');
    const { plan } = await propose(a, chatId, { starts_at: tokyo });
    const offset = (zone: string) =>
      new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
        .formatToParts(startsAt)
        .find((part) => part.type === 'timeZoneName')!
        .value.slice(3);
    const [vienna, newYork] = [offset('Europe/Vienna'), offset('America/New_York')];
    expect(plan.starts_at.endsWith(vienna)).toBe(true);
    expect(plan.ends_at.endsWith(vienna)).toBe(true);
    expect(plan.created_at.endsWith(vienna)).toBe(true);
    expect(plan.buddy_local_starts_at?.endsWith(newYork)).toBe(true);

    const seenByB = (await getPlan(b, plan.id)).plan;
    expect(seenByB.starts_at.endsWith(newYork)).toBe(true);
    expect(seenByB.buddy_local_starts_at?.endsWith(vienna)).toBe(true);
    for (const shown of [plan.starts_at, plan.buddy_local_starts_at, seenByB.starts_at, seenByB.buddy_local_starts_at])
      expect(Date.parse(shown ?? '')).toBe(startsAt.getTime());
    const inbox = await call(getInbox, { token: b.token });
    expect(inbox.plans_to_answer[0]?.starts_at).toBe(seenByB.starts_at);
    await answer(plans.acceptPlan, b, plan.id);
    expect((await call(getInbox, { token: a.token })).next_plan?.starts_at).toBe(plan.starts_at);

    // Same clock: no second time; no zone at all: UTC with Z.
    const [c, d, sameChat] = await pair('Zone');
    await call(updateMe, { token: c.token, body: { timezone: 'Europe/Vienna' } });
    await call(updateMe, { token: d.token, body: { timezone: 'Europe/Berlin' } });
    expect((await propose(c, sameChat)).plan.buddy_local_starts_at).toBeNull();
    const [e, , utcChat] = await pair('Zone');
    expect((await propose(e, utcChat)).plan.starts_at).toMatch(/Z$/);
  });

  // Issue 44 §2: every agent had to work out the person's offset, daylight saving included.
  it("reads a time without an offset on the proposer's clock, and says which zone it used", async () => {
    const [a, b, chatId] = await pair('Local');
    await call(updateMe, { token: a.token, body: { timezone: 'America/Mexico_City' } });
    await call(updateMe, { token: b.token, body: { timezone: 'Europe/Madrid' } });
    const day = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
    const res = await propose(a, chatId, { starts_at: `${day}T19:00`, ends_at: `${day}T21:30:00` });
    // Mexico City keeps UTC-6 all year: 19:00 there is 01:00 UTC the next day.
    expect(res.plan.starts_at).toBe(`${day}T19:00:00-06:00`);
    expect(res.plan.ends_at).toBe(`${day}T21:30:00-06:00`);
    expect(Date.parse(res.plan.starts_at)).toBe(Date.parse(`${day}T19:00:00Z`) + 6 * HOUR);
    expect(res.warnings?.normalized).toEqual([
      `starts_at: ${day}T19:00 has no offset, so it was read on your clock (America/Mexico_City): ${day}T19:00:00-06:00`,
      `ends_at: ${day}T21:30:00 has no offset, so it was read on your clock (America/Mexico_City): ${day}T21:30:00-06:00`,
    ]);
    expect((await stored(res.plan.id)).starts_at.getTime()).toBe(Date.parse(res.plan.starts_at));
    // The buddy sees the same instant on their own clock; a time with an offset gets no note.
    expect(Date.parse((await getPlan(b, res.plan.id)).plan.starts_at)).toBe(Date.parse(res.plan.starts_at));
    const [c, , otherChat] = await pair('Local');
    expect((await propose(c, otherChat)).warnings).toBeUndefined();
    // No zone on the profile: UTC, and the note says why.
    const utc = await propose(c, otherChat, { starts_at: `${day}T10:00` });
    expect(utc.plan.starts_at).toBe(`${day}T10:00:00.000Z`);
    expect(utc.warnings?.normalized).toEqual([
      `starts_at: ${day}T10:00 has no offset, so it was read on UTC (your profile has no time zone): ${day}T10:00:00.000Z`,
    ]);
  });

  // Issue 44 §2: an agent passes on the person's words; they are read on the person's calendar, and
  // words that could mean two things are refused with the fix, never guessed.
  it("reads the person's words on their calendar, says what it read, and refuses what could mean two things", async () => {
    const zone = 'Europe/Lisbon';
    const [a, b, chatId] = await pair('Words');
    for (const person of [a, b]) await call(updateMe, { token: person.token, body: { timezone: zone } });
    const onClock = (at: Date) => {
      const parts = new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        weekday: 'long',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).formatToParts(at);
      const part = (type: string) => parts.find((p) => p.type === type)!.value;
      return { date: `${part('year')}-${part('month')}-${part('day')}`, weekday: part('weekday').toLowerCase() };
    };
    const today = onClock(new Date());
    const inAWeek = onClock(new Date(Date.now() + 7 * DAY)).date;
    const tomorrow = onClock(new Date(Date.now() + DAY)).date;

    // "next <today's weekday>" is a week away; a range gives the end; the note names date, zone and instants.
    const ranged = await propose(a, chatId, { starts_at: `next ${today.weekday} 10-13` });
    expect(ranged.plan.starts_at).toBe(`${inAWeek}T10:00:00${ranged.plan.starts_at.slice(-6)}`);
    expect(ranged.plan.ends_at).toBe(`${inAWeek}T13:00:00${ranged.plan.ends_at.slice(-6)}`);
    expect(ranged.warnings?.normalized).toEqual([
      expect.stringMatching(
        new RegExp(
          `^starts_at: "next ${today.weekday} 10-13" was read as \\w+ \\d+ \\w+ \\d{4}, 10:00–13:00 on your clock \\(Europe/Lisbon\\): ${inAWeek}T10:00:00`,
        ),
      ),
    ]);
    expect((await stored(ranged.plan.id)).starts_at.getTime()).toBe(Date.parse(ranged.plan.starts_at));
    // An end in words is on the start's day.
    const evening = await propose(b, chatId, { starts_at: 'tomorrow at 7pm', ends_at: '9:30pm' });
    expect(evening.plan.starts_at).toMatch(new RegExp(`^${tomorrow}T19:00:00[+-]`));
    expect(Date.parse(evening.plan.ends_at) - Date.parse(evening.plan.starts_at)).toBe(2.5 * HOUR);

    // Refused with the fix, nothing stored.
    for (const [words, problem] of [
      [`${today.weekday} 7pm`, `"${today.weekday}" is today: say "today" or "next ${today.weekday}"`],
      ['tomorrow at 7', '"7" could be morning or evening: say 7am or 7pm (or 19:00)'],
      ['whenever suits', 'could not read "whenever", "suits"'],
    ] as const) {
      const before = await testDb().selectFrom('plans').select('id').where('chat_id', '=', chatId).execute();
      const error = await refused(
        plans.proposePlan,
        { params: { chatId }, token: a.token, body: proposal({ starts_at: words }) },
        'validation_failed',
      );
      expect(error.fields?.starts_at, words).toContain(problem);
      expect(await testDb().selectFrom('plans').select('id').where('chat_id', '=', chatId).execute()).toEqual(before);
    }
  });

  it('read_time.json reads the times as a proposal would, and stores nothing', async () => {
    const [a, , chatId] = await pair('DryRun');
    await call(updateMe, { token: a.token, body: { timezone: 'America/Mexico_City' } });
    const read = await call(plans.readPlanTime, {
      token: a.token,
      body: { starts_at: 'tomorrow at 7pm', ends_at: '9pm' },
    });
    expect(read.starts_at).toMatch(/T19:00:00-06:00$/);
    expect(read.ends_at).toMatch(/T21:00:00-06:00$/);
    expect(read.read).toEqual([
      expect.stringMatching(
        /^starts_at: "tomorrow at 7pm" was read as .*, 19:00 on your clock \(America\/Mexico_City\)/,
      ),
      expect.stringMatching(/^ends_at: "9pm" was read as .*, 21:00 on your clock/),
    ]);
    // With an offset there is nothing to say; the same refusals as a proposal.
    const exact = await call(plans.readPlanTime, { token: a.token, body: { starts_at: inHours(30) } });
    expect(Date.parse(exact.ends_at) - Date.parse(exact.starts_at)).toBe(2 * HOUR);
    expect(exact.read).toEqual([]);
    for (const starts_at of ['at 7', inHours(-2)])
      await refused(plans.readPlanTime, { token: a.token, body: { starts_at } }, 'validation_failed');
    expect(await testDb().selectFrom('plans').select('id').where('chat_id', '=', chatId).execute()).toEqual([]);
  });

  it('attributes the action to the agent its token was issued to when the body names none', async () => {
    const [a, , chatId] = await pair('Plan', true);
    const { plan } = await propose(a, chatId);
    expect(plan.proposed_by).toEqual({ name: 'Plan A', agent_name: 'AgentA' });
  });

  it('decline and cancel (with a reason the other person sees); both push', async () => {
    const [a, b, chatId] = await pair();
    const first = (await propose(a, chatId)).plan;
    const declined = await answer(plans.declinePlan, b, first.id);
    expect(declined.ok && declined.data.plan).toMatchObject({ status: 'declined', declined_by: { name: 'Plan B' } });
    // Declining twice is the same answer.
    expect((await answer(plans.declinePlan, b, first.id)).status).toBe(200);

    const second = (await propose(a, chatId)).plan;
    await answer(plans.acceptPlan, b, second.id);
    const cancelled = await cancel(b, second.id, { reason: 'Sprained my ankle' });
    expect(cancelled.ok && cancelled.data.plan).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Sprained my ankle',
    });
    expect((await getPlan(a, second.id)).plan).toMatchObject({
      status: 'cancelled',
      cancelled_by: { name: 'Plan B', agent_name: null },
      cancel_reason: 'Sprained my ankle',
    });
    const events = (await pushJobs(a.id))
      .map((j) => j.data)
      .filter((d) => d.kind === 'plan')
      .map((d) => d.event);
    expect(events).toEqual(expect.arrayContaining(['declined', 'cancelled']));
    expect((await call(plans.listPlans, { query: { view: 'past' }, token: a.token })).plans.map((p) => p.id)).toEqual([
      second.id,
      first.id,
    ]);
  });

  it('a counter to a proposal supersedes it at once and keeps the calendar uid', async () => {
    const [a, b, chatId] = await pair();
    const original = (await propose(a, chatId)).plan;
    const counter = (await propose(b, chatId, { starts_at: inHours(72), replaces: original.id })).plan;
    expect(counter).toMatchObject({
      status: 'proposed',
      replaces: original.id,
      calendar_uid: original.calendar_uid,
      sequence: 1,
    });
    expect((await getPlan(a, original.id)).plan).toMatchObject({ status: 'superseded', superseded_by: counter.id });
    const refusal = await refused(
      plans.acceptPlan,
      { params: { planId: original.id }, token: b.token },
      'plan_superseded',
    );
    expect(refusal.plan).toMatchObject({ id: original.id, superseded_by: counter.id });
    // Now A answers the counter.
    const accepted = await answer(plans.acceptPlan, a, counter.id);
    expect(accepted.ok && accepted.data.plan.status).toBe('confirmed');
  });

  it('a counter to a confirmed plan leaves it confirmed until the counter is accepted', async () => {
    const [a, b, chatId] = await pair();
    const original = (await propose(a, chatId)).plan;
    await answer(plans.acceptPlan, b, original.id);
    const declinedCounter = (await propose(b, chatId, { starts_at: inHours(50), replaces: original.id })).plan;
    expect((await getPlan(a, original.id)).plan.status).toBe('confirmed');
    await answer(plans.declinePlan, a, declinedCounter.id);
    expect((await getPlan(a, original.id)).plan.status).toBe('confirmed');

    const counter = (await propose(b, chatId, { starts_at: inHours(55), replaces: original.id })).plan;
    expect(counter.sequence).toBe(2);
    await answer(plans.acceptPlan, a, counter.id);
    expect((await getPlan(b, original.id)).plan).toMatchObject({ status: 'superseded', superseded_by: counter.id });
    expect((await getPlan(b, counter.id)).plan).toMatchObject({
      status: 'confirmed',
      calendar_uid: original.calendar_uid,
    });
    expect((await call(getInbox, { token: b.token })).next_plan?.id).toBe(counter.id);
  });

  it('an unanswered proposal expires at its start: shown at once, stored by the sweep, no longer open', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    await testDb()
      .updateTable('plans')
      .set({ starts_at: new Date(Date.now() - HOUR), ends_at: new Date(Date.now() + HOUR) })
      .where('id', '=', plan.id)
      .execute();
    expect((await getPlan(b, plan.id)).plan.status).toBe('expired');
    const late = await refused(plans.acceptPlan, { params: { planId: plan.id }, token: b.token }, 'plan_not_open');
    expect(late.plan).toMatchObject({ id: plan.id, status: 'expired' });
    expect((await call(getInbox, { token: b.token })).plans_to_answer).toEqual([]);
    const tag = await inboxTag(b);
    await sweepPlans(testDb());
    expect((await stored(plan.id)).status).toBe('expired');
    // Storing it woke the inbox.
    expect((await api('GET', pathOf(getInbox), { token: b.token, headers: { 'if-none-match': tag } })).status).toBe(
      200,
    );
    // An expired proposal does not count against the cap.
    for (let i = 0; i < 3; i++) await propose(a, chatId, { starts_at: inHours(10 + i) });
  });

  it('pages through a list with next_cursor, in time order, never repeating', async () => {
    const [a, b, chatId] = await pair();
    const ids: string[] = [];
    for (const hours of [90, 20, 60]) {
      const { plan } = await propose(a, chatId, { starts_at: inHours(hours) });
      await answer(plans.acceptPlan, b, plan.id);
      ids.push(plan.id);
    }
    for (const hours of [40, 10]) ids.push((await propose(b, chatId, { starts_at: inHours(hours) })).plan.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const res = await call(plans.listPlans, { query: { view: 'upcoming', limit: 2, cursor }, token: a.token });
      seen.push(...res.plans.map((p) => p.id));
      if (!res.next_cursor) break;
      expect(res.next_url).toContain('cursor=');
      cursor = res.next_cursor;
    }
    const starts = await Promise.all(seen.map(async (id) => Date.parse((await getPlan(a, id)).plan.starts_at)));
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toHaveLength(5);
    expect([...starts].sort((x, y) => x - y)).toEqual(starts);
  });

  it('wakes a held inbox long-poll of the other person when a plan is proposed', async () => {
    const [a, b, chatId] = await pair();
    const tag = await inboxTag(b);
    const started = Date.now();
    const held = api('GET', pathOf(getInbox, {}, { wait: 20 }), { token: b.token, headers: { 'if-none-match': tag } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { plan } = await propose(a, chatId);
    const woke = await held;
    expect(woke.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(woke.body.plans_to_answer.map((p: { id: string }) => p.id)).toEqual([plan.id]);
  });
});

describe('plan changes in the inbox (issue 43 §1)', () => {
  /** The path of an inbox answer's poll_next_url, held for up to `wait` seconds. */
  const nextPoll = (inbox: { poll_next_url: string }, wait = 0) => {
    const url = new URL(inbox.poll_next_url);
    return `${url.pathname}${url.search}${wait > 0 ? `&wait=${wait}` : ''}`;
  };
  const poll = async (user: TestUser, path: string) => {
    const res = await api('GET', path, { token: user.token });
    expect(res.status).toBe(200);
    return res.body as z.infer<typeof getInbox.response>;
  };
  const updates = (inbox: z.infer<typeof getInbox.response>) =>
    inbox.plan_updates.map((u) => [u.what, u.by, u.plan.id, u.plan.status]);

  it('brings every change once, to both, with who acted: proposed, declined, accepted, countered, cancelled, expired', async () => {
    const [a, b, chatId] = await pair('Upd');
    let inboxA = await call(getInbox, { token: a.token });
    let inboxB = await call(getInbox, { token: b.token });

    const { plan: first } = await propose(a, chatId);
    inboxA = await poll(a, nextPoll(inboxA));
    inboxB = await poll(b, nextPoll(inboxB));
    expect(updates(inboxA)).toEqual([['proposed', 'you', first.id, 'proposed']]);
    expect(updates(inboxB)).toEqual([['proposed', 'buddy', first.id, 'proposed']]);

    // A decline wakes the proposer's held poll and says so (it used to wake with nothing to see).
    const heldA = poll(a, nextPoll(inboxA, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    expect((await answer(plans.declinePlan, b, first.id)).status).toBe(200);
    inboxA = await heldA;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(updates(inboxA)).toEqual([['declined', 'buddy', first.id, 'declined']]);
    expect(inboxA.plan_updates[0]!.plan.declined_by).toMatchObject({ name: 'Upd B' });
    inboxB = await poll(b, nextPoll(inboxB));
    expect(updates(inboxB)).toEqual([['declined', 'you', first.id, 'declined']]);
    // Each once: the next polls carry nothing more.
    inboxA = await poll(a, nextPoll(inboxA));
    expect(inboxA.plan_updates).toEqual([]);

    const { plan: second } = await propose(a, chatId);
    expect((await answer(plans.acceptPlan, b, second.id)).status).toBe(200);
    inboxA = await poll(a, nextPoll(inboxA));
    // One entry per plan changed, in its state now: a's proposal and b's accept between two polls are one.
    expect(updates(inboxA)).toEqual([['accepted', 'buddy', second.id, 'confirmed']]);

    const counter = await send(plans.proposePlan, {
      params: { chatId },
      token: b.token,
      body: proposal({ starts_at: inHours(50), replaces: second.id }),
    });
    expect(counter.status).toBe(201);
    const counterId = counter.ok ? counter.data.plan.id : '';
    inboxA = await poll(a, nextPoll(inboxA));
    expect(updates(inboxA)).toEqual([['countered', 'buddy', counterId, 'proposed']]);
    expect(inboxA.plan_updates[0]!.plan.replaces).toBe(second.id);

    const heldAgain = poll(a, nextPoll(inboxA, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await cancel(b, second.id, { reason: 'Rain' })).status).toBe(200);
    inboxA = await heldAgain;
    expect(updates(inboxA)).toEqual([['cancelled', 'buddy', second.id, 'cancelled']]);
    expect(inboxA.plan_updates[0]!.plan.cancel_reason).toBe('Rain');
    expect(inboxA.next_plan).toBeNull();

    // The counter nobody answered expires when its start passes: by nobody.
    await testDb()
      .updateTable('plans')
      .set({ starts_at: new Date(Date.now() - 60_000), ends_at: new Date(Date.now() + HOUR) })
      .where('id', '=', counterId)
      .execute();
    await sweepPlans(testDb());
    inboxA = await poll(a, nextPoll(inboxA));
    expect(updates(inboxA)).toEqual([['expired', null, counterId, 'expired']]);
    inboxB = await poll(b, nextPoll(inboxB));
    // b last polled after the decline: since then the second plan was proposed, accepted and
    // cancelled, and the counter made and expired, oldest change first.
    expect(updates(inboxB)).toEqual([
      ['cancelled', 'you', second.id, 'cancelled'],
      ['expired', null, counterId, 'expired'],
    ]);
  });
});

describe('refusals', () => {
  const badTimes: Array<[string, Partial<ProposeBody>, string]> = [
    ['a start in the past', { starts_at: inHours(-1) }, 'starts_at'],
    ['a start more than 90 days ahead', { starts_at: new Date(Date.now() + 91 * DAY).toISOString() }, 'starts_at'],
    ['an end before the start', { starts_at: inHours(10), ends_at: inHours(9) }, 'ends_at'],
    ['an end more than 24 h after the start', { starts_at: inHours(10), ends_at: inHours(40) }, 'ends_at'],
    ['a date without a time', { starts_at: '2030-06-06' }, 'starts_at'],
    ['a time of day that does not exist', { starts_at: '2030-06-06T25:00' }, 'starts_at'],
  ];
  it.each(badTimes)('%s → 400 validation_failed naming the field', async (_name, overrides, field) => {
    const [a, , chatId] = await pair();
    const res = await api('POST', pathOf(plans.proposePlan, { chatId }), { token: a.token, body: proposal(overrides) });
    const error = refusedRaw(res, 'validation_failed');
    expect(Object.keys(error.fields ?? {}).some((f) => f === field || f.endsWith(`.${field}`))).toBe(true);
    expect(await testDb().selectFrom('plans').select('id').where('chat_id', '=', chatId).execute()).toEqual([]);
  });

  it('a fourth open proposal in one chat → 429 too_many_open_plans; five at once: exactly three stored', async () => {
    const [a, b, chatId] = await pair();
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => proposeRaw(i % 2 ? a : b, chatId, { starts_at: inHours(10 + i) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.ok ? null : [r.status, r.error.code]).toEqual([429, 'too_many_open_plans']);
    }
    const open = await testDb().selectFrom('plans').select('id').where('chat_id', '=', chatId).execute();
    expect(open).toHaveLength(3);
  });

  it('strangers get 404 for a chat or plan that is not theirs, and the proposer cannot accept their own plan', async () => {
    const [a, b, chatId] = await pair();
    const [stranger] = await users(1, 'Stranger');
    const { plan } = await propose(a, chatId);
    await refused(plans.proposePlan, { params: { chatId }, token: stranger.token, body: proposal() }, 'not_found');
    await refused(plans.getPlan, { params: { planId: plan.id }, token: stranger.token }, 'not_found');
    await refused(plans.acceptPlan, { params: { planId: plan.id }, token: stranger.token }, 'not_found');
    await refused(plans.cancelPlan, { params: { planId: plan.id }, token: stranger.token }, 'not_found');
    await refused(plans.getPlan, { params: { planId: 'not-a-uuid' }, token: a.token }, 'not_found');
    await refused(plans.acceptPlan, { params: { planId: plan.id }, token: a.token }, 'forbidden');
    await refused(plans.declinePlan, { params: { planId: plan.id }, token: a.token }, 'forbidden');
    const wrongChat = await refused(
      plans.proposePlan,
      { params: { chatId: await makeBuddies(a, stranger) }, token: a.token, body: proposal({ replaces: plan.id }) },
      'not_found',
    );
    expect(wrongChat.fields).toHaveProperty('replaces');
    expect((await stored(plan.id)).status).toBe('proposed');
    expect((await getPlan(b, plan.id)).plan.status).toBe('proposed');
  });

  it('GET plans/{planId}.json answers over HTTP with the .json suffix', async () => {
    const [a, , chatId] = await pair();
    const { plan } = await propose(a, chatId);
    const res = await api('GET', `/api/v1/plans/${plan.id}.json`, { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.plan.id).toBe(plan.id);
  });

  it.each([
    ['/api/v1/chats/%2e%2e/plans.json', 'POST', 'GET'],
    ['/api/v1/plans/./accept.json', 'POST', 'GET'],
  ])(
    '%s (dot segments reach another plans path): %s → the JSON 405 of the path reached',
    async (target, method, allow) => {
      const res = await sendRaw(
        baseUrl(),
        { method, target, headers: { 'content-type': 'application/json' }, body: '{}', mutation: 'none' },
        { 'x-forwarded-for': freshIp() },
      );
      expect(res.status).toBe(405);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(JSON.parse(res.text).error.code).toBe('method_not_allowed');
      expect(String(res.headers.allow)).toContain(allow);
    },
  );

  it('a plan that has started cannot be cancelled or countered (409 with the plan as it is)', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    await answer(plans.acceptPlan, b, plan.id);
    await testDb()
      .updateTable('plans')
      .set({ starts_at: new Date(Date.now() - HOUR), ends_at: new Date(Date.now() + HOUR) })
      .where('id', '=', plan.id)
      .execute();
    const refusal = await refused(
      plans.cancelPlan,
      { params: { planId: plan.id }, token: a.token, body: {} },
      'plan_not_open',
    );
    expect(refusal.plan).toMatchObject({ id: plan.id, status: 'confirmed' });
    await refused(
      plans.proposePlan,
      { params: { chatId }, token: b.token, body: proposal({ replaces: plan.id }) },
      'plan_not_open',
    );
    expect((await stored(plan.id)).status).toBe('confirmed');
  });

  it('reading needs buddy:read, acting buddy:write', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    await restrictScopes(b, ['buddy:read']);
    await refused(plans.acceptPlan, { params: { planId: plan.id }, token: b.token }, 'insufficient_scope');
    expect((await getPlan(b, plan.id)).plan.id).toBe(plan.id);
    await restrictScopes(a, ['buddy:write']);
    await refused(plans.listPlans, { token: a.token }, 'insufficient_scope');
    expect((await stored(plan.id)).status).toBe('proposed');
  });

  it('the inbox shows plans only to a token with buddy:read (its tag differs too)', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    const full = await callWithHeaders(getInbox, { token: b.token });
    expect(full.data.plans_to_answer.map((p) => p.id)).toEqual([plan.id]);
    await restrictScopes(b, ['message:read']);
    const narrow = await callWithHeaders(getInbox, { token: b.token });
    expect(narrow.data.plans_to_answer).toEqual([]);
    expect(narrow.data.next_plan).toBeNull();
    expect(narrow.headers.get('etag')).not.toBe(full.headers.get('etag'));
    const stale = await api('GET', pathOf(getInbox), {
      token: b.token,
      headers: { 'if-none-match': full.headers.get('etag') ?? '' },
    });
    expect(stale.status).toBe(200);
  });

  it('a bad cursor → 400 naming it', async () => {
    const [a] = await users(1);
    const error = await refused(plans.listPlans, { query: { cursor: 'bogus' }, token: a.token }, 'validation_failed');
    expect(error.fields).toHaveProperty('cursor');
  });
});

describe('blocks and disabled accounts', () => {
  it('a block cancels the pair’s open and confirmed plans, by nobody, for no reason; then 404 both ways', async () => {
    const [a, b, chatId] = await pair();
    const confirmed = (await propose(a, chatId, { starts_at: inHours(20) })).plan;
    await answer(plans.acceptPlan, b, confirmed.id);
    const open = (await propose(b, chatId, { starts_at: inHours(30) })).plan;
    await call(blockUser, { params: { slug: b.slug }, token: a.token });
    for (const id of [confirmed.id, open.id]) {
      expect(await stored(id)).toMatchObject({ status: 'cancelled', acted_by_user: null, cancel_reason: null });
      // The blocked person sees only "cancelled"; the blocker no longer sees the plan at all.
      expect((await getPlan(b, id)).plan).toMatchObject({
        status: 'cancelled',
        cancelled_by: null,
        cancel_reason: null,
      });
      await refused(plans.getPlan, { params: { planId: id }, token: a.token }, 'not_found');
    }
    // As a message would be: closed (403 chat_unavailable) to the one blocked, gone (404) for the blocker.
    const closed = await refused(
      plans.proposePlan,
      { params: { chatId }, token: b.token, body: proposal() },
      'chat_unavailable',
    );
    expect(closed.status).toBe(403);
    await refused(plans.proposePlan, { params: { chatId }, token: a.token, body: proposal() }, 'not_found');
    await refused(plans.cancelPlan, { params: { planId: open.id }, token: b.token, body: {} }, 'not_found');
    // No push tells anyone of a block.
    const events = (await pushJobs(a.id)).concat(await pushJobs(b.id)).map((j) => j.data.event);
    expect(events).not.toContain('cancelled');
  });

  it('a disabled account’s plans are cancelled without a reason', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    await testDb()
      .transaction()
      .execute((trx) => disableAccount(trx, a.id, 'not_me'));
    expect(await stored(plan.id)).toMatchObject({ status: 'cancelled', acted_by_user: null, cancel_reason: null });
    // A disabled account vanishes for everyone (as if each had blocked it), its plans with it.
    expect((await call(plans.listPlans, { token: b.token })).plans).toEqual([]);
    expect((await call(getInbox, { token: b.token })).plans_to_answer).toEqual([]);
  });
});

describe('races (parallel requests)', () => {
  it('two accepts: the first confirms, the second answers 200 with the same confirmed plan', async () => {
    const [a, b, chatId] = await pair();
    const { plan } = await propose(a, chatId);
    const [one, two] = await Promise.all([answer(plans.acceptPlan, b, plan.id), answer(plans.acceptPlan, b, plan.id)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.ok && two.ok && [one.data.plan.status, two.data.plan.status]).toEqual(['confirmed', 'confirmed']);
    const accepted = (await pushJobs(a.id)).filter((j) => j.data.event === 'accepted');
    expect(accepted).toHaveLength(1);
  });

  it('accept against cancel: whichever commits first wins, the other gets 409 with the plan as it is', async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b, chatId] = await pair(`Race${round}`);
      const { plan } = await propose(a, chatId);
      const [accepted, cancelled] = await Promise.all([
        answer(plans.acceptPlan, b, plan.id),
        cancel(a, plan.id, { if_status: 'proposed' }),
      ]);
      const final = (await stored(plan.id)).status;
      expect([accepted.status, cancelled.status].sort()).toEqual([200, 409]);
      const loser = accepted.ok ? cancelled : accepted;
      expect(final).toBe(accepted.ok ? 'confirmed' : 'cancelled');
      expect(loser.ok ? null : [loser.error.code, (loser.error.plan as { status: string }).status]).toEqual([
        'plan_not_open',
        final,
      ]);
    }
  });

  it('counter against accept: a counter to a confirmed plan, or a 409 naming the plan that replaced it', async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b, chatId] = await pair(`Counter${round}`);
      const { plan } = await propose(a, chatId);
      const [accepted, countered] = await Promise.all([
        answer(plans.acceptPlan, b, plan.id),
        proposeRaw(a, chatId, { starts_at: inHours(60), replaces: plan.id }),
      ]);
      expect(countered.status).toBe(201);
      const counter = countered.ok ? countered.data.plan : null;
      if (accepted.ok) {
        expect((await stored(plan.id)).status).toBe('confirmed');
        expect(counter).toMatchObject({ status: 'proposed', replaces: plan.id });
      } else {
        expect(accepted.status).toBe(409);
        expect(accepted.error.code).toBe('plan_superseded');
        expect(accepted.error.plan).toMatchObject({ id: plan.id, superseded_by: counter?.id });
        expect(accepted.error.hint).toContain(String(counter?.id));
      }
    }
  });
});

describe('plan options', () => {
  // Elvas (Portugal) and Badajoz (Spain): 15 km apart, an hour apart on the clock.
  const elvas = { latitude: 38.88, longitude: -7.16 };
  const badajoz = { latitude: 38.88, longitude: -6.97 };
  const climber = async (name: string, coords: typeof elvas) => {
    const { user, auth } = await call(register, {
      body: {
        email: uniqueEmail(),
        displayName: name,
        location: 'Border',
        coords,
        activities: ['bouldering', 'hiking'],
        availability_text: 'Saturday 9am to 12pm',
      },
    });
    return { id: user.id, slug: user.slug, token: auth.token } as TestUser;
  };
  const localHour = (iso: string, zone: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: 'numeric', hourCycle: 'h23' })
      .format(new Date(iso))
      .split(/,? /);
  const options = (by: TestUser, slug: string, query: { activity?: string; days?: number } = {}) =>
    call(plans.planOptions, { params: { slug }, query, token: by.token });

  it('gives buddies times inside both people’s free hours across a zone difference, an event first', async () => {
    const [ines, lucia] = await Promise.all([climber('Inês', elvas), climber('Lucía', badajoz)]);
    await makeBuddies(ines, lucia);
    // Shared: Saturday 9-11 in Lisbon = 10-12 in Madrid. A bouldering social in between, in the first hour.
    const today = new Date();
    const saturdays = Array.from(
      { length: 14 },
      (_, d) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + d, 12)),
    )
      .filter((noon) => localHour(noon.toISOString(), 'Europe/Lisbon')[0] === 'Sat')
      .map((noon) => {
        const offset = Number(localHour(noon.toISOString(), 'Europe/Lisbon')[1]) - 12;
        return new Date(noon.getTime() - (3 + offset) * HOUR);
      })
      .filter((start) => start.getTime() > Date.now() + 3 * HOUR);
    const eventStart = saturdays[0]!;
    const source = `plan-options-${Date.now()}`;
    // The events feed is shared by every API test file: the event goes when this test ends.
    onTestFinished(async () => {
      await testDb().deleteFrom('events').where('source', '=', source).execute();
    });
    const [event] = await testDb()
      .insertInto('events')
      .values({
        source,
        uid: source,
        series_uid: source,
        title: 'Bouldering social',
        starts_at: eventStart,
        ends_at: new Date(eventStart.getTime() + HOUR),
        local_date: eventStart.toISOString().slice(0, 10),
        venue_name: 'Block Hall',
        latitude: 38.88,
        longitude: -7.06,
        earth_point: sql<string>`ll_to_earth(38.88, -7.06)`,
        activity_ids: ['rock_climbing'],
        scraped_at: new Date(),
      })
      .returning('id')
      .execute();

    const fromLisbon = await options(ines, lucia.slug);
    expect(fromLisbon.options.length).toBeGreaterThan(0);
    expect(fromLisbon.options[0]).toMatchObject({
      activity: 'Rock Climbing',
      place: { name: 'Block Hall' },
      event_id: event!.id,
      why: ['Bouldering social at Block Hall'],
    });
    expect(fromLisbon.options.length).toBeGreaterThanOrEqual(2);
    for (const option of fromLisbon.options) {
      // In the reader's zone, and inside both people's own Saturday 9-12.
      expect(option.starts_at).toMatch(/T09:00:00\+0[01]:00$/);
      for (const zone of ['Europe/Lisbon', 'Europe/Madrid']) {
        const [day, start] = localHour(option.starts_at, zone);
        const [, end] = localHour(option.ends_at, zone);
        expect(day).toBe('Sat');
        expect(Number(start)).toBeGreaterThanOrEqual(9);
        expect(Number(end)).toBeLessThanOrEqual(12);
      }
    }
    expect(fromLisbon.options[1]?.why).toEqual(["You're both free Saturday 9–11", 'You both like rock climbing']);
    expect(Date.parse(fromLisbon.options[1]!.ends_at) - Date.parse(fromLisbon.options[1]!.starts_at)).toBe(2 * HOUR);

    const fromMadrid = await options(lucia, ines.slug, { activity: 'hike', days: 30 });
    expect(fromMadrid.options.every((o) => o.activity === 'Hiking' && /T10:00:00\+0[12]:00$/.test(o.starts_at))).toBe(
      true,
    );
    expect(fromMadrid.options[0]?.why).toEqual(["You're both free Saturday 10–12"]);
    expect(fromMadrid.options.length).toBeLessThanOrEqual(5);
  });

  it('a stranger or a blocked buddy gets 404; bad days → 400', async () => {
    const [a, b, c] = await users(3, 'Opt');
    await makeBuddies(a, b);
    expect((await refused(plans.planOptions, { params: { slug: c.slug }, token: a.token }, 'not_found')).code).toBe(
      'not_found',
    );
    expect((await refused(plans.planOptions, { params: { slug: a.slug }, token: a.token }, 'not_found')).code).toBe(
      'not_found',
    );
    const none = await options(a, b.slug);
    expect(none).toEqual({ options: [], none_because: 'No shared free time: your availability is not set' });
    for (const days of ['0', '31', 'soon']) {
      const res = await api('GET', `/api/v1/users/${b.slug}/plan_options.json?days=${days}`, { token: a.token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    await call(blockUser, { params: { slug: a.slug }, token: b.token });
    await refused(plans.planOptions, { params: { slug: b.slug }, token: a.token }, 'not_found');
    await refused(plans.planOptions, { params: { slug: a.slug }, token: b.token }, 'not_found');
  });
});

describe('the MCP tools, through the SDK client', () => {
  const clients: Client[] = [];
  afterAll(async () => Promise.all(clients.map((c) => c.close().catch(() => {}))));
  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'plans-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl()}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': freshIp() } },
      }),
    );
    clients.push(client);
    return client;
  }
  async function tool(client: Client, name: string, args: Record<string, unknown>) {
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { text?: string }[];
    };
    const text = result.content[0]?.text ?? '';
    expect(result.isError ?? false, `${name}: ${text}`).toBe(false);
    return JSON.parse(text);
  }

  it('plan_options, propose_plan, accept_plan and list_plans; reads are read-only tools', async () => {
    const [a, b, chatId] = await pair('Mcp', true);
    const [ana, ben] = await Promise.all([connect(a.token), connect(b.token)]);
    const { tools } = await ana.listTools();
    expect(tools.find((t) => t.name === 'plan_options')?.annotations?.readOnlyHint).toBe(true);
    for (const name of ['propose_plan', 'accept_plan', 'decline_plan', 'cancel_plan', 'list_plans', 'get_plan'])
      expect(tools.map((t) => t.name)).toContain(name);
    expect(tools.find((t) => t.name === 'list_plans')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'get_plan')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'propose_plan')?.annotations?.readOnlyHint).toBe(false);

    expect(await tool(ana, 'plan_options', { slug: b.slug, days: 7 })).toEqual({
      options: [],
      none_because: 'No shared free time: your availability is not set',
    });
    // Both free on Saturdays and both hiking: the options are real times to propose from.
    for (const who of [a, b]) {
      const res = await api('PATCH', '/api/v1/me.json', {
        token: who.token,
        body: { activities: ['hiking'], availability_text: 'Saturdays 9-17' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const { options } = await tool(ana, 'plan_options', { slug: b.slug, days: 14 });
    expect(options.length).toBeGreaterThan(0);
    const [option] = options as { starts_at: string; activity: string; why: string[] }[];
    expect(new Date(option!.starts_at).getUTCDay()).toBe(6);
    expect(option!.activity).toMatch(/hiking/i);

    const proposed = await tool(ana, 'propose_plan', {
      chatId,
      activity: option!.activity,
      starts_at: option!.starts_at,
      place: { name: 'North trailhead' },
      agentName: 'AgentA',
    });
    expect(Date.parse(proposed.plan.starts_at)).toBe(Date.parse(option!.starts_at));
    expect(proposed.plan).toMatchObject({ status: 'proposed', proposed_by: { agent_name: 'AgentA' } });
    // A counter on Ana's own clock, written as she would say it (issue 44 §2).
    await call(updateMe, { token: a.token, body: { timezone: 'Asia/Tokyo' } });
    const day = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);
    const countered = await tool(ana, 'propose_plan', {
      chatId,
      activity: option!.activity,
      starts_at: `${day}T10:00`,
      place: { name: 'North trailhead' },
      replaces: proposed.plan.id,
      agentName: 'AgentA',
    });
    expect(countered.plan.starts_at).toBe(`${day}T10:00:00+09:00`);
    expect(countered.warnings.normalized).toEqual([
      `starts_at: ${day}T10:00 has no offset, so it was read on your clock (Asia/Tokyo): ${day}T10:00:00+09:00`,
    ]);
    proposed.plan = countered.plan;
    const toAnswer = await tool(ben, 'list_plans', { view: 'to_answer' });
    expect(toAnswer.plans.map((p: { id: string }) => p.id)).toEqual([proposed.plan.id]);
    const accepted = await tool(ben, 'accept_plan', { planId: proposed.plan.id, agentName: 'AgentB' });
    expect(accepted.plan).toMatchObject({ status: 'confirmed', accepted_by: { name: 'Mcp B', agent_name: 'AgentB' } });
    const upcoming = await tool(ana, 'list_plans', {});
    expect(upcoming.plans).toMatchObject([{ id: proposed.plan.id, status: 'confirmed' }]);
    expect((await tool(ana, 'get_plan', { planId: proposed.plan.id })).plan.id).toBe(proposed.plan.id);
  });
});
