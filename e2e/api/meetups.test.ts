// Meetups (issue 45) against the real server and PostgreSQL: hosting (times on the host's clock,
// weekly series, refusals), search near the caller ranked by fit, seats and the waitlist that moves
// by itself (and offers close to the start), approval, cancel, privacy (address, people, blocks, the
// two age worlds), the group chat through the chats endpoints, inbox, calendar, reminders,
// attendance and the reliability rule, and the two limits. The races are in meetup-races.test.ts.
import ical, { type VEvent } from 'node-ical';
import { sql } from 'kysely';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { disableAccount } from '@/lib/accounts/disable';
import { listChats, listMessages, sendMessage } from '@/lib/contract/chats';
import { getInbox } from '@/lib/contract/inbox';
import * as meetups from '@/lib/contract/meetups';
import { updateMe } from '@/lib/contract/profiles';
import { blockUser } from '@/lib/contract/safety';
import { startBoss, stopBoss } from '@/lib/jobs/boss';
import { reliabilityDemotedSql } from '@/lib/plans/reliability';
import { api, baseUrl, freshIp, personSession, registerUser, testDb } from './client';
import { call, refused, send } from './contract-client';
import {
  DAY,
  HOUR,
  attendees,
  cancel,
  host,
  hostBody,
  join,
  joined,
  leave,
  meetupMails,
  meetupPushes,
  person,
  spotsAt,
  storedMeetup,
  view,
} from './meetup-helpers';

const spot = spotsAt(-25);

const find = (by: { token: string }, query: Record<string, string | number> = {}) =>
  call(meetups.listMeetups, { token: by.token, query });

function events(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

/** YYYY-MM-DD of an instant on a zone's clock. */
const dateIn = (at: Date, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

/** A host in Berlin (on Berlin's clock, with its daylight saving), into bouldering. */
const berliner = (displayName: string) =>
  registerUser({
    displayName,
    location: 'Berlin',
    coords: { latitude: 52.52, longitude: 13.405 },
    birthday: '1990-01-01',
    activities: ['bouldering'],
  });

describe('hosting', () => {
  it('reads a time without an offset on the host’s clock; the host sees everything, the card shows name and area', async () => {
    const ana = await berliner('Ana Lima');
    const date = dateIn(new Date(Date.now() + 5 * DAY), 'Europe/Berlin');
    const hosted = await host(ana, { starts_at: `${date}T19:00`, capacity: 5, note: 'Shoes for rent' });
    const { meetup } = hosted;
    expect(meetup.starts_at).toMatch(new RegExp(`^${date}T19:00:00\\+0[12]:00$`));
    expect(Date.parse(meetup.ends_at) - Date.parse(meetup.starts_at)).toBe(2 * HOUR);
    expect(meetup).toMatchObject({
      // Plain English in, the catalog's id out.
      activity: 'rock_climbing',
      place: { name: 'Ostbloc', address: 'Hauptstraße 1', area: expect.stringContaining('Berlin') },
      capacity: 5,
      join: 'open',
      status: 'upcoming',
      seats_left: 4,
      waitlist: 0,
      host: { id: ana.id, first_name: 'Ana' },
      people: [],
      me: { role: 'host', waitlist_position: null },
      note: 'Shoes for rent',
      series_id: null,
    });
    expect(meetup.chatId).toEqual(expect.any(String));
    expect(hosted.series).toEqual([{ id: meetup.id, starts_at: meetup.starts_at }]);
    // Stored where it is found: the host's public point and its cell, never the exact point.
    const row = await storedMeetup(meetup.id);
    const user = await testDb()
      .selectFrom('users')
      .select(['public_latitude', 'public_longitude', 'latitude'])
      .where('id', '=', ana.id)
      .executeTakeFirstOrThrow();
    expect([row.public_latitude, row.public_longitude]).toEqual([user.public_latitude, user.public_longitude]);
    expect(row.public_latitude).not.toBe(user.latitude);
    // Reminders for the host, 24 h and 2 h before.
    const reminders = await testDb()
      .selectFrom('meetup_reminders')
      .selectAll()
      .where('meetup_id', '=', meetup.id)
      .execute();
    expect(reminders.map((r) => r.offset_minutes).sort()).toEqual([120, 1440]);
  });

  // Issue 44 §2: the host's words, read on their calendar as a plan's are.
  it("reads the host's words on their calendar and says what it read; words that could mean two things are refused", async () => {
    const bo = await berliner('Bo Words');
    const weekday = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', weekday: 'long' })
      .format(new Date())
      .toLowerCase();
    const date = dateIn(new Date(Date.now() + 7 * DAY), 'Europe/Berlin');
    const hosted = await host(bo, { starts_at: `next ${weekday} 7pm`, ends_at: '9pm' });
    expect(hosted.meetup.starts_at).toMatch(new RegExp(`^${date}T19:00:00\\+0[12]:00$`));
    expect(hosted.meetup.ends_at).toMatch(new RegExp(`^${date}T21:00:00\\+0[12]:00$`));
    expect(hosted.warnings?.normalized).toEqual([
      expect.stringMatching(
        new RegExp(`^starts_at: "next ${weekday} 7pm" was read as .*, 19:00 on your clock \\(Europe/Berlin\\)`),
      ),
      expect.stringMatching(/^ends_at: "9pm" was read as .*, 21:00 on your clock/),
    ]);
    const error = await refused(
      meetups.hostMeetup,
      { token: bo.token, body: hostBody({ starts_at: 'saturday at 7' }) },
      'validation_failed',
    );
    expect(error.fields?.starts_at).toMatch(/could be morning or evening|is today/);
  });

  it('a weekly series keeps the wall-clock time; one occurrence or the rest can be cancelled', async () => {
    const ana = await registerUser({
      displayName: 'Ana Serie',
      location: 'Berlin',
      coords: { latitude: 52.52, longitude: 13.405 },
    });
    const date = dateIn(new Date(Date.now() + 2 * DAY), 'Europe/Berlin');
    const { meetup, series } = await host(ana, { starts_at: `${date}T18:30`, repeat_weekly: 4 });
    expect(series).toHaveLength(4);
    expect(series[0]!.id).toBe(meetup.id);
    for (const occurrence of series) expect(occurrence.starts_at).toMatch(/T18:30:00\+0[12]:00$/);
    const days = series.map((o) => Date.parse(o.starts_at.slice(0, 10)));
    expect(days.slice(1).map((d, i) => (d - days[i]!) / DAY)).toEqual([7, 7, 7]);
    const rows = await Promise.all(series.map((o) => storedMeetup(o.id)));
    expect(new Set(rows.map((r) => r.series_id)).size).toBe(1);
    expect(rows[0]!.series_id).not.toBeNull();

    // One occurrence: only that one.
    await cancel(ana, series[1]!.id, { reason: 'Holiday' });
    // From the third on: the third and fourth; the first stays.
    const rest = await cancel(ana, series[2]!.id, { series: true });
    expect(rest.ok && rest.data.meetup).toMatchObject({ status: 'cancelled', cancel_reason: null });
    expect((await Promise.all(series.map((o) => storedMeetup(o.id)))).map((r) => r.status)).toEqual([
      'open',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect((await view(ana, series[1]!.id)).cancel_reason).toBe('Holiday');
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['capacity 1', { capacity: 1 }, 'capacity'],
    ['capacity 51', { capacity: 51 }, 'capacity'],
    ['a start in the past', { starts_at: new Date(Date.now() - HOUR).toISOString() }, 'starts_at'],
    ['a start 100 days ahead', { starts_at: new Date(Date.now() + 100 * DAY).toISOString() }, 'starts_at'],
    ['an end before the start', { ends_at: new Date(Date.now() + HOUR).toISOString() }, 'ends_at'],
    ['not a time', { starts_at: 'next thursday' }, 'starts_at'],
    ['an unknown activity', { activity: 'zzqx flibber' }, 'activity'],
    ['13 weeks', { repeat_weekly: 13 }, 'repeat_weekly'],
    ['no place name', { place: { name: '   ' } }, 'place.name'],
    ['join by lottery', { join: 'lottery' }, 'join'],
  ];
  it.each(refusals)('refuses %s (400 naming the field, nothing stored)', async (_what, overrides, field) => {
    const hostPerson = await person('Refused Host', spot());
    const res = await api('POST', '/api/v1/meetups.json', {
      token: hostPerson.token,
      body: { ...hostBody(), ...overrides },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.fields)).toContain(field);
    const stored = await testDb().selectFrom('meetups').select('id').where('host_id', '=', hostPerson.id).execute();
    expect(stored).toEqual([]);
  });

  it('needs a place to be found by (422 onboarding_incomplete naming location)', async () => {
    const nowhere = await registerUser({ displayName: 'No Where' });
    const error = await refused(
      meetups.hostMeetup,
      { token: nowhere.token, body: hostBody() },
      'onboarding_incomplete',
    );
    expect(error.fields).toHaveProperty('location');
    await refused(meetups.listMeetups, { token: nowhere.token }, 'onboarding_incomplete');
    // view=mine needs no place.
    expect((await find(nowhere, { view: 'mine' })).results).toEqual([]);
  });
});

describe('search near the caller', () => {
  it('ranks by fit and explains it; only within the radius, the searched activities and the window', async () => {
    const at = spot();
    const [hostA, hostB, hostC] = await Promise.all([
      person('Hana Host', at, {}, 2),
      person('Hugo Host', at, {}, 5),
      person('Far Host', at, {}, 60),
    ]);
    const seeker = await person('Sita Seeker', at, {
      activities: ['bouldering'],
      availability_text: 'weekday evenings',
    });
    // Evening (18:00-20:00 on the spot's clock): the seeker is free then (a weekday), or not (a weekend).
    const zone = (await testDb().selectFrom('users').select('timezone').where('id', '=', seeker.id).executeTakeFirst())!
      .timezone!;
    const dayAhead = (weekday: boolean) => {
      for (let d = 3; ; d++) {
        const at = new Date(Date.now() + d * DAY);
        const dow = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short' }).format(at);
        if (['Sat', 'Sun'].includes(dow) !== weekday) return `${dateIn(at, zone)}T18:00`;
      }
    };
    const good = (await host(hostA, { starts_at: dayAhead(true) })).meetup;
    const weekend = (await host(hostB, { starts_at: dayAhead(false) })).meetup;
    const hiking = (await host(hostA, { activity: 'hiking', starts_at: dayAhead(true) })).meetup;
    const far = (await host(hostC, { starts_at: dayAhead(true) })).meetup;
    const later = (await host(hostB, { starts_at: new Date(Date.now() + 40 * DAY).toISOString() })).meetup;

    const found = await find(seeker);
    expect(found.view).toBe('nearby');
    expect(found.results.map((r) => r.meetup.id)).toEqual([good.id, weekend.id]);
    const [first, second] = found.results;
    expect(first!.fit).toMatchObject({ shared_activity: true, free_then: true, score: expect.any(Number) });
    expect(second!.fit).toMatchObject({ shared_activity: true, free_then: false });
    expect(first!.fit!.distance_km).toBeGreaterThanOrEqual(1);
    expect(first!.fit!.distance_km).toBeLessThanOrEqual(5);
    expect(second!.fit!.distance_km).toBeGreaterThanOrEqual(2);
    expect(first!.fit!.why).toEqual(
      expect.arrayContaining(['You like rock climbing', 'You are usually free then', '3 seats left']),
    );
    expect(first!.fit!.why.some((w) => /^\d+ km away$/.test(w))).toBe(true);
    // A stranger's card: place name and area, no address, no people.
    expect(first!.meetup).toMatchObject({
      place: { name: 'Ostbloc', address: null },
      people: [],
      me: { role: 'none' },
    });

    // Other activities on request (not on the seeker's profile: no shared activity); a wider circle; a longer window.
    const both = await find(seeker, { activities: 'bouldering,hiking' });
    expect(both.results.map((r) => r.meetup.id)).toEqual([good.id, weekend.id, hiking.id]);
    expect(both.results[2]!.fit).toMatchObject({ shared_activity: false, free_then: true });
    expect((await find(seeker, { radius_km: 100 })).results.map((r) => r.meetup.id)).toContain(far.id);
    expect((await find(seeker, { days: 60 })).results.map((r) => r.meetup.id)).toContain(later.id);
    // when=: only meetups starting then, on the seeker's clock.
    expect((await find(seeker, { when: 'weekends' })).results.map((r) => r.meetup.id)).toEqual([weekend.id]);
    // Pages: limit 1, then the cursor, never repeating.
    const page1 = await find(seeker, { limit: 1 });
    expect(page1.results.map((r) => r.meetup.id)).toEqual([good.id]);
    const page2 = await find(seeker, { limit: 1, cursor: page1.next_cursor! });
    expect(page2.results.map((r) => r.meetup.id)).toEqual([weekend.id]);
    expect(page2.next_cursor).toBeNull();
    await refused(
      meetups.listMeetups,
      { token: seeker.token, query: { cursor: page1.next_cursor!, days: 10 } },
      'validation_failed',
    );
    // The host does not find their own; a cancelled one is gone.
    expect((await find(hostA)).results.map((r) => r.meetup.id)).not.toContain(good.id);
    await cancel(hostB, weekend.id);
    expect((await find(seeker)).results.map((r) => r.meetup.id)).toEqual([good.id]);
  });

  it('reads a bounded number of rows: one LIMIT-bounded index range per (activity, cell)', async () => {
    const { candidatesQuery } = await import('@/lib/meetups/search');
    const plan = await sql<{ 'QUERY PLAN': string }>`explain ${candidatesQuery({
      viewerId: '00000000-0000-4000-8000-000000000000',
      activities: ['bouldering', 'hiking'],
      cells: [1, 2, 3],
      from: new Date(),
      to: new Date(Date.now() + 30 * DAY),
      perCell: 50,
    })}`.execute(testDb());
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Limit/);
    expect(text).toMatch(/meetups_search_idx/);
    expect(text).not.toMatch(/Seq Scan on meetups/);
  });
});

describe('seats and the waitlist', () => {
  it('seats while they last, then a waitlist that moves by itself: promoted once, told by push, inbox and mail', async () => {
    const at = spot();
    const [hostP, bea, cai, dan, eve] = await Promise.all([
      person('Hanna Host', at),
      person('Bea Brown', at),
      person('Cai Chen', at),
      person('Dan Diaz', at),
      person('Eve Evans', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 3 });
    const b = await joined(bea, meetup.id);
    expect(b).toMatchObject({ me: { role: 'confirmed' }, seats_left: 1, place: { address: 'Hauptstraße 1' } });
    expect(b.chatId).toBe(meetup.chatId);
    // The confirmed see each other's first names and photos only.
    expect(b.people).toEqual([{ id: bea.id, first_name: 'Bea', photoURL: null, status: 'confirmed' }]);
    await joined(cai, meetup.id);
    const d = await joined(dan, meetup.id);
    expect(d).toMatchObject({
      me: { role: 'waitlisted', waitlist_position: 1 },
      seats_left: 0,
      waitlist: 1,
      place: { address: null },
      people: [],
      chatId: null,
    });
    expect((await joined(eve, meetup.id)).me.waitlist_position).toBe(2);
    // Joining again is the same place.
    expect((await joined(eve, meetup.id)).me.waitlist_position).toBe(2);
    // The host sees everyone and their place.
    expect((await view(hostP, meetup.id)).people.map((p) => [p.first_name, p.status])).toEqual([
      ['Bea', 'confirmed'],
      ['Cai', 'confirmed'],
      ['Dan', 'waitlisted'],
      ['Eve', 'waitlisted'],
    ]);

    const left = await leave(bea, meetup.id);
    expect(left.ok && left.data.meetup.me.role).toBe('left');
    expect((await view(dan, meetup.id)).me).toMatchObject({ role: 'confirmed', waitlist_position: null });
    expect((await view(eve, meetup.id)).me).toMatchObject({ role: 'waitlisted', waitlist_position: 1 });
    expect(await storedMeetup(meetup.id)).toMatchObject({ confirmed_count: 2, waitlist_count: 1, offered_count: 0 });
    // Told once, by push and mail; the inbox says so, once.
    expect(await meetupPushes(dan.id, meetup.id)).toEqual(['promoted']);
    expect(await meetupMails(dan.id, meetup.id)).toEqual(['promoted']);
    expect(await meetupPushes(eve.id, meetup.id)).toEqual([]);
    const inbox = await call(getInbox, { token: dan.token, query: { since: Date.now() - 60_000 } });
    expect(inbox.meetup_updates.map((u) => [u.what, u.meetup.id])).toEqual([['promoted', meetup.id]]);
    const again = await call(getInbox, { token: dan.token, query: { cursor: inbox.cursor } });
    expect(again.meetup_updates).toEqual([]);
    // Dan is in the group chat now, Bea no longer.
    const chatId = meetup.chatId!;
    await call(listMessages, { params: { chatId }, token: dan.token });
    await refused(listMessages, { params: { chatId }, token: bea.token }, 'not_found');
    // Leaving twice is the same; the host cannot leave.
    expect((await leave(bea, meetup.id)).status).toBe(200);
    await refused(meetups.leaveMeetup, { params: { meetupId: meetup.id }, token: hostP.token, body: {} }, 'forbidden');
    await refused(meetups.joinMeetup, { params: { meetupId: meetup.id }, token: hostP.token, body: {} }, 'forbidden');
    // view=mine: hosting and joined.
    expect((await find(hostP, { view: 'mine' })).results.map((r) => r.meetup.id)).toContain(meetup.id);
    expect((await find(eve, { view: 'mine' })).results[0]).toMatchObject({
      meetup: { id: meetup.id, me: { role: 'waitlisted' } },
      fit: null,
    });
  });

  it('within 3 hours of the start a freed seat is offered, held 30 minutes, then passes to the next (a pg-boss job)', async () => {
    const at = spot();
    const [hostP, bea, cai, dan, eve] = await Promise.all([
      person('Hanna Host', at),
      person('Bea Brown', at),
      person('Cai Chen', at),
      person('Dan Diaz', at),
      person('Eve Evans', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 2, starts_at: new Date(Date.now() + 2.5 * HOUR).toISOString() });
    await joined(bea, meetup.id);
    await joined(cai, meetup.id);
    await joined(dan, meetup.id);
    await joined(eve, meetup.id);
    const before = Date.now();
    await leave(bea, meetup.id);
    const offered = await view(cai, meetup.id);
    expect(offered.me.role).toBe('offered');
    const expires = Date.parse(offered.me.offer_expires_at!);
    expect(expires - before).toBeGreaterThan(29 * 60_000);
    expect(expires - before).toBeLessThan(31 * 60_000);
    expect(offered).toMatchObject({ seats_left: 0, people: [], place: { address: null } });
    expect(await meetupPushes(cai.id, meetup.id)).toEqual(['offered']);
    expect(await meetupMails(cai.id, meetup.id)).toEqual(['offered']);
    const inbox = await call(getInbox, { token: cai.token });
    expect(inbox.meetups_to_answer.map((a) => [a.what, a.meetup.id])).toEqual([['take_seat', meetup.id]]);
    // Taken by joining.
    expect((await joined(cai, meetup.id)).me.role).toBe('confirmed');

    // The next offer is not taken: its pg-boss job (due at the expiry) passes it on.
    await leave(cai, meetup.id);
    expect((await view(dan, meetup.id)).me.role).toBe('offered');
    const { rows: jobs } = await sql<{ id: string; start_after: Date }>`
      select id, start_after from pgboss.job where name = 'meetup-offer-expiry'
        and data->>'meetupId' = ${meetup.id} and data->>'userId' = ${dan.id}`.execute(testDb());
    expect(jobs).toHaveLength(1);
    expect(
      Math.abs(
        new Date(jobs[0]!.start_after).getTime() - Date.parse((await view(dan, meetup.id)).me.offer_expires_at!),
      ),
    ).toBeLessThan(1000);
    // Half an hour later (moved here instead of waited for):
    await testDb()
      .updateTable('meetup_attendees')
      .set({ offer_expires_at: new Date(Date.now() - 1000) })
      .where('meetup_id', '=', meetup.id)
      .where('user_id', '=', dan.id)
      .execute();
    await sql`update pgboss.job set start_after = now() where id = ${jobs[0]!.id}::uuid`.execute(testDb());
    let eveRole = '';
    for (let i = 0; i < 60 && eveRole !== 'offered'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      eveRole = (await view(eve, meetup.id)).me.role;
    }
    expect(eveRole).toBe('offered');
    expect((await view(dan, meetup.id)).me.role).toBe('missed');
    expect(await storedMeetup(meetup.id)).toMatchObject({ confirmed_count: 0, offered_count: 1, waitlist_count: 0 });
    const missed = await call(getInbox, { token: dan.token, query: { since: Date.now() - 60_000 } });
    expect(missed.meetup_updates.map((u) => u.what)).toContain('seat_missed');

    // A hold past its time cannot be taken by joining, even before its job ran: it passes on
    // (to Fay), and Eve's join is a new one, at the end of the waitlist.
    const fay = await person('Fay Fox', at);
    expect((await joined(fay, meetup.id)).me.waitlist_position).toBe(1);
    await testDb()
      .updateTable('meetup_attendees')
      .set({ offer_expires_at: new Date(Date.now() - 1000) })
      .where('meetup_id', '=', meetup.id)
      .where('user_id', '=', eve.id)
      .execute();
    expect((await joined(eve, meetup.id)).me).toMatchObject({ role: 'waitlisted', waitlist_position: 1 });
    expect((await view(fay, meetup.id)).me.role).toBe('offered');
  }, 60_000);
});

describe('approval', () => {
  it('joins wait for the host, who approves (a seat, else the waitlist) or declines; both are told', async () => {
    const at = spot();
    const [hostP, bea, cai, dan] = await Promise.all([
      person('Hanna Host', at),
      person('Bea Brown', at),
      person('Cai Chen', at),
      person('Dan Diaz', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 2, join: 'approval' });
    const b = await joined(bea, meetup.id);
    expect(b).toMatchObject({ me: { role: 'pending' }, seats_left: 1, place: { address: null } });
    await joined(cai, meetup.id);
    await joined(dan, meetup.id);
    expect(await meetupPushes(hostP.id, meetup.id)).toEqual(['join_request', 'join_request', 'join_request']);
    const inbox = await call(getInbox, { token: hostP.token });
    expect(
      inbox.meetups_to_answer.filter((a) => a.meetup.id === meetup.id).map((a) => [a.what, a.person?.first_name]),
    ).toEqual([
      ['approve_join', 'Bea'],
      ['approve_join', 'Cai'],
      ['approve_join', 'Dan'],
    ]);
    const approve = (user: { id: string }) =>
      call(meetups.approveMeetupJoin, {
        params: { meetupId: meetup.id },
        token: hostP.token,
        body: { user_id: user.id },
      });
    expect((await approve(bea)).meetup.people.map((p) => [p.first_name, p.status])).toEqual([
      ['Bea', 'confirmed'],
      ['Cai', 'pending'],
      ['Dan', 'pending'],
    ]);
    await approve(bea); // the same answer again
    await approve(cai);
    expect((await view(cai, meetup.id)).me).toMatchObject({ role: 'waitlisted', waitlist_position: 1 });
    expect((await view(bea, meetup.id)).me.role).toBe('confirmed');
    expect(await meetupPushes(bea.id, meetup.id)).toEqual(['approved']);
    await call(meetups.declineMeetupJoin, {
      params: { meetupId: meetup.id },
      token: hostP.token,
      body: { user_id: dan.id },
    });
    expect((await view(dan, meetup.id)).me.role).toBe('declined');
    expect(await meetupPushes(dan.id, meetup.id)).toEqual(['declined']);
    await refused(meetups.joinMeetup, { params: { meetupId: meetup.id }, token: dan.token, body: {} }, 'forbidden');
    // Only the host answers; an unknown person is a 404 naming user_id.
    await refused(
      meetups.approveMeetupJoin,
      { params: { meetupId: meetup.id }, token: bea.token, body: { user_id: cai.id } },
      'forbidden',
    );
    const unknown = await refused(
      meetups.approveMeetupJoin,
      { params: { meetupId: meetup.id }, token: hostP.token, body: { user_id: hostP.id } },
      'not_found',
    );
    expect(unknown.fields).toHaveProperty('user_id');
  });
});

describe('cancel', () => {
  it('the host cancels: everyone holding a place is told, joins are refused, the calendar says CANCELLED', async () => {
    const at = spot();
    const [hostP, bea, cai, dan] = await Promise.all([
      person('Hanna Host', at),
      person('Bea Brown', at),
      person('Cai Chen', at),
      person('Dan Diaz', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 2 });
    await joined(bea, meetup.id);
    await joined(cai, meetup.id);
    const feed = await api('POST', '/api/v1/me/calendar_feed.json', { headers: await personSession(bea.id), body: {} });
    expect(feed.status).toBe(201);
    const feedPath = new URL(feed.body.url as string).pathname;
    const inFeed = async () =>
      events((await api<string>('GET', feedPath)).body).filter((e) => e.uid.startsWith(`meetup-${meetup.id}@`));
    const [confirmedEvent] = await inFeed();
    expect(confirmedEvent).toMatchObject({ status: 'CONFIRMED', location: 'Ostbloc, Hauptstraße 1' });
    // The per-meetup .ics: the address only for the confirmed.
    const icsFor = async (who: { token: string }) => {
      const res = await api<string>('GET', `/api/v1/meetups/${meetup.id}.ics`, { token: who.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
      return events(res.body)[0]!;
    };
    expect((await icsFor(bea)).location).toBe('Ostbloc, Hauptstraße 1');
    expect((await icsFor(dan)).location).toBe('Ostbloc');

    await refused(meetups.cancelMeetup, { params: { meetupId: meetup.id }, token: bea.token, body: {} }, 'forbidden');
    const done = await cancel(hostP, meetup.id, { reason: 'Gym closed' });
    expect(done.ok && done.data.meetup).toMatchObject({ status: 'cancelled', cancel_reason: 'Gym closed' });
    expect((await cancel(hostP, meetup.id)).status).toBe(200); // the same, again
    for (const p of [bea, cai]) expect(await meetupPushes(p.id, meetup.id)).toEqual(['cancelled']);
    const inbox = await call(getInbox, { token: cai.token, query: { since: Date.now() - 60_000 } });
    expect(inbox.meetup_updates.map((u) => [u.what, u.meetup.id])).toEqual([['cancelled', meetup.id]]);
    const joinAfter = await refused(
      meetups.joinMeetup,
      { params: { meetupId: meetup.id }, token: dan.token, body: {} },
      'meetup_not_open',
    );
    expect(joinAfter.status).toBe(409);
    const [cancelledEvent] = await inFeed();
    expect(cancelledEvent!.status).toBe('CANCELLED');
    expect(Number(cancelledEvent!.sequence)).toBeGreaterThan(Number(confirmedEvent!.sequence));
    expect((await icsFor(bea)).status).toBe('CANCELLED');
    expect(
      await testDb()
        .selectFrom('meetup_reminders')
        .select('id')
        .where('meetup_id', '=', meetup.id)
        .where('sent_at', 'is', null)
        .execute(),
    ).toEqual([]);
  });
});

describe('privacy', () => {
  it('blocks: nobody sees a meetup hosted by someone they blocked or who blocked them; a block takes the person out', async () => {
    const at = spot();
    const [hostP, blocker, blocked, waiting] = await Promise.all([
      person('Hanna Host', at),
      person('Bo Blocker', at),
      person('Bruno Blocked', at),
      person('Wanda Waiting', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 2 });
    // Bo blocks the host: the meetup is gone for Bo, as if it never existed.
    await call(blockUser, { params: { slug: hostP.slug }, token: blocker.token, body: {} });
    await refused(meetups.getMeetup, { params: { meetupId: meetup.id }, token: blocker.token }, 'not_found');
    await refused(meetups.joinMeetup, { params: { meetupId: meetup.id }, token: blocker.token, body: {} }, 'not_found');
    expect((await find(blocker)).results.map((r) => r.meetup.id)).not.toContain(meetup.id);
    const ics = await api('GET', `/api/v1/meetups/${meetup.id}.ics`, { token: blocker.token });
    expect(ics.status).toBe(404);

    // Bruno holds a seat, Wanda waits; the host blocks Bruno: he is out, his seat is Wanda's.
    await joined(blocked, meetup.id);
    await joined(waiting, meetup.id);
    await call(blockUser, { params: { slug: blocked.slug }, token: hostP.token, body: {} });
    await refused(meetups.getMeetup, { params: { meetupId: meetup.id }, token: blocked.token }, 'not_found');
    await refused(listMessages, { params: { chatId: meetup.chatId! }, token: blocked.token }, 'not_found');
    expect((await view(waiting, meetup.id)).me.role).toBe('confirmed');
    expect((await attendees(meetup.id)).find((a) => a.user_id === blocked.id)?.status).toBe('removed');
    // Nothing told Bruno: no push about it.
    expect(await meetupPushes(blocked.id, meetup.id)).toEqual([]);
    // A person who does not exist and a blocked one answer alike.
    const ghost = await send(meetups.getMeetup, {
      params: { meetupId: '00000000-0000-4000-8000-000000000000' },
      token: blocked.token,
    });
    const hidden = await send(meetups.getMeetup, { params: { meetupId: meetup.id }, token: blocked.token });
    expect(!ghost.ok && !hidden.ok && [ghost.error, hidden.error]).toEqual([
      expect.objectContaining({ code: 'not_found', message: 'Meetup not found' }),
      expect.objectContaining({ code: 'not_found', message: 'Meetup not found' }),
    ]);
  });

  it('two attendees who block each other both stay, and nothing changes for the one blocked', async () => {
    const at = spot();
    const [hostP, ann, ben] = await Promise.all([
      person('Hanna Host', at),
      person('Ann Alpha', at),
      person('Ben Beta', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 4 });
    await joined(ann, meetup.id);
    await joined(ben, meetup.id);
    await call(blockUser, { params: { slug: ben.slug }, token: ann.token, body: {} });
    // Ben sees exactly what he saw before; Ann no longer sees Ben's face (her own choice).
    expect((await view(ben, meetup.id)).people.map((p) => p.first_name)).toEqual(['Ann', 'Ben']);
    expect((await view(ann, meetup.id)).people.map((p) => p.first_name)).toEqual(['Ann']);
    expect((await view(ann, meetup.id)).me.role).toBe('confirmed');
    expect((await view(ben, meetup.id)).me.role).toBe('confirmed');
  });

  it('teenagers only with teenagers: the other world sees nothing (the 404 of a meetup that does not exist)', async () => {
    const at = spot();
    const teenBirthday = (years: number) => {
      const d = new Date();
      return `${d.getUTCFullYear() - years}-01-01`;
    };
    // Tia 15 hosts; Tom is 17 and Yan 13: each within two years of Tia, four apart from each other.
    const [adultHost, teenHost, teen, otherTeen, adult] = await Promise.all([
      person('Ada Adult', at),
      person('Tia Teen', at, { birthday: teenBirthday(15) }),
      person('Tom Teen', at, { birthday: teenBirthday(17) }),
      person('Yan Young', at, { birthday: teenBirthday(13) }),
      person('Al Adult', at),
    ]);
    const adults = (await host(adultHost)).meetup;
    const teens = (await host(teenHost)).meetup;
    // A teenager: nothing of the adults' meetup.
    await refused(meetups.getMeetup, { params: { meetupId: adults.id }, token: teen.token }, 'not_found');
    await refused(meetups.joinMeetup, { params: { meetupId: adults.id }, token: teen.token, body: {} }, 'not_found');
    expect((await find(teen)).results.map((r) => r.meetup.id)).toEqual([teens.id]);
    // An adult: nothing of the teenagers'.
    await refused(meetups.getMeetup, { params: { meetupId: teens.id }, token: adult.token }, 'not_found');
    expect((await find(adult)).results.map((r) => r.meetup.id)).toEqual([adults.id]);
    // Attendees likewise: Yan sees Tia's meetup until Tom holds a place in it, then nothing.
    expect((await view(otherTeen, teens.id)).id).toBe(teens.id);
    await joined(teen, teens.id);
    await refused(meetups.getMeetup, { params: { meetupId: teens.id }, token: otherTeen.token }, 'not_found');
  });
});

describe('a profile awaiting its person’s yes (REQUIRE_PERSON_CONSENT)', () => {
  it('neither hosts nor joins: both would show its face to strangers', async () => {
    const at = spot();
    const [hostP, unseen] = await Promise.all([person('Hanna Host', at), person('Una Unseen', at)]);
    const { meetup } = await host(hostP);
    await testDb().updateTable('users').set({ awaiting_person_consent: true }).where('id', '=', unseen.id).execute();
    const hosting = await refused(meetups.hostMeetup, { token: unseen.token, body: hostBody() }, 'forbidden');
    expect(hosting.hint).toMatch(/Yes, show me to people nearby/);
    await refused(meetups.joinMeetup, { params: { meetupId: meetup.id }, token: unseen.token, body: {} }, 'forbidden');
    expect(await attendees(meetup.id)).toEqual([]);
  });
});

describe('the group chat', () => {
  it('host and confirmed share one chat through the messages endpoints; the waitlisted do not see it', async () => {
    const at = spot();
    const [hostP, bea, cai] = await Promise.all([
      registerUser({
        displayName: 'Hanna Host',
        agentName: 'HostBot',
        location: 'Open sea',
        coords: at,
        birthday: '1990-06-15',
      }),
      person('Bea Brown', at),
      person('Cai Chen', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 2 });
    await joined(bea, meetup.id);
    await joined(cai, meetup.id); // waitlisted
    const chatId = meetup.chatId!;
    const sent = await call(sendMessage, {
      params: { chatId },
      token: hostP.token,
      body: { text: 'Meet at the entrance!' },
    });
    expect(sent.message).toMatchObject({ from_me: true, agent_name: 'HostBot' });
    const page = await call(listMessages, { params: { chatId }, token: bea.token });
    expect(page.messages.map((m) => [m.sender_id, m.text, m.agent_name])).toEqual([
      [hostP.id, 'Meet at the entrance!', 'HostBot'],
    ]);
    expect(page.unread_count).toBe(1);
    await refused(listMessages, { params: { chatId }, token: cai.token }, 'not_found');
    await refused(sendMessage, { params: { chatId }, token: cai.token, body: { text: 'hi' } }, 'not_found');
    // Moderation as in every chat.
    await refused(
      sendMessage,
      { params: { chatId }, token: bea.token, body: { text: 'i will kill you' } },
      'message_blocked_threat',
    );
    // The inbox carries it; the buddy chat list does not (it is not a buddy chat).
    const inbox = await call(getInbox, { token: bea.token });
    expect(
      inbox.meetup_chats.map((c) => [c.chatId, c.meetup_id, c.unread_count, c.new_messages.map((m) => m.text)]),
    ).toEqual([[chatId, meetup.id, 1, ['Meet at the entrance!']]]);
    expect((await call(listChats, { token: bea.token })).chats.map((c) => c.chatId)).not.toContain(chatId);
    // Pushed to the other member, not to the waitlisted.
    const { rows } = await sql<{ recipient: string }>`select data->>'recipientId' as recipient from pgboss.job
      where name = 'push-notify' and data->>'kind' = 'message' and data->>'chatId' = ${chatId}`.execute(testDb());
    expect(rows.map((r) => r.recipient)).toEqual([bea.id]);
    // A confirmed person who leaves is out of it; the next in is in.
    await leave(bea, meetup.id);
    await refused(listMessages, { params: { chatId }, token: bea.token }, 'not_found');
    await call(sendMessage, { params: { chatId }, token: cai.token, body: { text: 'Thanks, see you there' } });
    expect((await call(listMessages, { params: { chatId }, token: hostP.token })).messages).toHaveLength(2);
  });
});

describe('attendance and reliability', () => {
  it('after the end the host marks no-shows; two different hosts over 90 days demote a person', async () => {
    const at = spot();
    const [h1, h2, flake, good] = await Promise.all([
      person('Hanna Host', at),
      person('Harry Host', at),
      person('Fred Flake', at),
      person('Gina Good', at),
    ]);
    const endMeetup = async (meetupId: string) =>
      testDb()
        .updateTable('meetups')
        .set({ starts_at: new Date(Date.now() - 3 * HOUR), ends_at: new Date(Date.now() - HOUR) })
        .where('id', '=', meetupId)
        .execute();
    const demoted = async () => {
      const { rows } = await sql<{ ids: string[] }>`${reliabilityDemotedSql(new Date())}`.execute(testDb());
      return rows[0]!.ids;
    };
    const first = (await host(h1)).meetup;
    await joined(flake, first.id);
    await joined(good, first.id);
    const early = await refused(
      meetups.meetupAttendance,
      { params: { meetupId: first.id }, token: h1.token, body: { no_show: [flake.id] } },
      'conflict',
    );
    expect(early.status).toBe(409);
    await endMeetup(first.id);
    await refused(
      meetups.meetupAttendance,
      { params: { meetupId: first.id }, token: flake.token, body: { no_show: [] } },
      'forbidden',
    );
    const stranger = await refused(
      meetups.meetupAttendance,
      { params: { meetupId: first.id }, token: h1.token, body: { no_show: [h2.id] } },
      'validation_failed',
    );
    expect(stranger.fields).toHaveProperty('no_show');
    const marked = await call(meetups.meetupAttendance, {
      params: { meetupId: first.id },
      token: h1.token,
      body: { no_show: [flake.id] },
    });
    expect(marked.meetup.status).toBe('over');
    expect((await view(flake, first.id)).me.attended).toBe(false);
    expect((await view(good, first.id)).me.attended).toBe(true);
    // One host is one grudge: not yet.
    expect(await demoted()).not.toContain(flake.id);
    const second = (await host(h2)).meetup;
    await joined(flake, second.id);
    await endMeetup(second.id);
    await call(meetups.meetupAttendance, {
      params: { meetupId: second.id },
      token: h2.token,
      body: { no_show: [flake.id] },
    });
    const now = await demoted();
    expect(now).toContain(flake.id);
    expect(now).not.toContain(good.id);
  });
});

describe('limits', () => {
  it('meetups hosted at once: past the limit 429 with Retry-After, nothing stored', async () => {
    const busy = await person('Busy Host', spot());
    const limit = 20;
    await host(busy, { repeat_weekly: 12 });
    await host(busy, { repeat_weekly: 8, starts_at: new Date(Date.now() + 5 * DAY).toISOString() });
    const error = await refused(meetups.hostMeetup, { token: busy.token, body: hostBody() }, 'rate_limited');
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0);
    const stored = await testDb().selectFrom('meetups').select('id').where('host_id', '=', busy.id).execute();
    expect(stored).toHaveLength(limit);
    // A cancel frees room.
    await cancel(busy, stored[0]!.id);
    await host(busy);
  });

  it('joins per day: the 31st is 429 with Retry-After', async () => {
    const at = spot();
    const [h1, h2, h3, joiner] = await Promise.all([
      person('Host One', at),
      person('Host Two', at),
      person('Host Three', at),
      person('Jo Joiner', at),
    ]);
    const series = [
      ...(await host(h1, { repeat_weekly: 12 })).series,
      ...(await host(h2, { repeat_weekly: 12 })).series,
      ...(await host(h3, { repeat_weekly: 8 })).series,
    ];
    for (const occurrence of series.slice(0, 30)) expect((await join(joiner, occurrence.id)).status).toBe(200);
    const error = await refused(
      meetups.joinMeetup,
      { params: { meetupId: series[30]!.id }, token: joiner.token, body: {} },
      'rate_limited',
    );
    expect(Number(error.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(error.headers.get('ratelimit-policy')).toContain('meetup_joins');
  });
});

describe('reminders, the inbox’s long-poll, a closed account', () => {
  it('the minute sweep reminds the host and the confirmed before the start, by push and mail, once', async () => {
    const at = spot();
    const [hostP, bea] = await Promise.all([person('Hanna Host', at), person('Bea Brown', at)]);
    // The 2-hour reminder falls due in 20 seconds.
    const { meetup } = await host(hostP, { starts_at: new Date(Date.now() + 2 * HOUR + 20_000).toISOString() });
    await joined(bea, meetup.id);
    const queued = async () => {
      const { rows } = await sql<{ who: string; what: string }>`
        select data->>'recipientId' as who, 'push' as what from pgboss.job
          where name = 'push-notify' and data->>'kind' = 'meetup_reminder' and data->>'meetupId' = ${meetup.id}
        union all select data->>'userId', 'mail' from pgboss.job
          where name = 'mail-meetup' and data->>'event' = 'reminder' and data->>'meetupId' = ${meetup.id}`.execute(
        testDb(),
      );
      return rows.map((r) => `${r.what}:${r.who}`).sort();
    };
    const expected = [`mail:${bea.id}`, `mail:${hostP.id}`, `push:${bea.id}`, `push:${hostP.id}`].sort();
    let seen: string[] = [];
    for (let i = 0; i < 100 && seen.length < 4; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      seen = await queued();
    }
    expect(seen).toEqual(expected);
    const sent = await testDb()
      .selectFrom('meetup_reminders')
      .select(['user_id', 'sent_at'])
      .where('meetup_id', '=', meetup.id)
      .where('offset_minutes', '=', 120)
      .execute();
    expect(sent.every((r) => r.sent_at !== null)).toBe(true);
  }, 120_000);

  it('a held inbox poll wakes when a seat is given (the version is bumped in that transaction)', async () => {
    const at = spot();
    const [hostP, bea, dan] = await Promise.all([
      person('Hanna Host', at),
      person('Bea Brown', at),
      person('Dan Diaz', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 2 });
    await joined(bea, meetup.id);
    await joined(dan, meetup.id);
    const first = await api('GET', '/api/v1/inbox.json', { token: dan.token });
    const tag = first.headers.get('etag')!;
    const started = Date.now();
    const held = api('GET', `/api/v1/inbox.json?wait=20&cursor=${first.body.cursor}`, {
      token: dan.token,
      headers: { 'if-none-match': tag },
    });
    await new Promise((r) => setTimeout(r, 500));
    await leave(bea, meetup.id);
    const woke = await held;
    expect(woke.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(woke.body.meetup_updates.map((u: { what: string }) => u.what)).toEqual(['promoted']);
  });

  it('a closed account’s hosted meetups are cancelled and its seats given to whoever waits', async () => {
    const at = spot();
    const [hostP, closing, waiting] = await Promise.all([
      person('Hanna Host', at),
      person('Cleo Closing', at),
      person('Wes Waiting', at),
    ]);
    const theirs = (await host(closing)).meetup;
    await joined(waiting, theirs.id);
    const { meetup } = await host(hostP, { capacity: 2 });
    await joined(closing, meetup.id);
    await joined(waiting, meetup.id);
    // Disabled as the server disables (lib/accounts/disable.ts), with this process's job queue for its pushes.
    await startBoss(inject('databaseUrl'));
    try {
      await testDb()
        .transaction()
        .execute((trx) => disableAccount(trx, closing.id, 'not_me'));
    } finally {
      await stopBoss();
    }
    expect(await storedMeetup(theirs.id)).toMatchObject({ status: 'cancelled', cancel_reason: null });
    await refused(meetups.getMeetup, { params: { meetupId: theirs.id }, token: waiting.token }, 'not_found');
    expect((await view(waiting, meetup.id)).me.role).toBe('confirmed');
    expect((await view(hostP, meetup.id)).people.map((p) => p.first_name)).toEqual(['Wes']);
  });
});

describe('the MCP tools, through the SDK client', () => {
  const clients: Client[] = [];
  afterAll(async () => Promise.all(clients.map((c) => c.close().catch(() => {}))));
  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'meetups-test', version: '1.0.0' });
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

  it('host_meetup, find_meetups, join_meetup, get_meetup and leave_meetup are tools of the same shapes', async () => {
    const at = spot();
    const [hostP, bea] = await Promise.all([person('Hanna Host', at), person('Bea Brown', at)]);
    const [hosting, joining] = await Promise.all([connect(hostP.token), connect(bea.token)]);
    const names = (await hosting.listTools()).tools.map((t) => t.name);
    for (const name of [
      'host_meetup',
      'find_meetups',
      'get_meetup',
      'join_meetup',
      'leave_meetup',
      'cancel_meetup',
      'approve_meetup_join',
    ])
      expect(names).toContain(name);
    // The host's own acts on the page are not tools (tools/list's budget).
    expect(names).not.toContain('meetup_attendance');
    const hosted = await tool(hosting, 'host_meetup', {
      activity: 'hiking',
      starts_at: new Date(Date.now() + 3 * DAY).toISOString(),
      place: { name: 'North trailhead' },
      capacity: 3,
    });
    expect(hosted.meetup).toMatchObject({ activity: 'hiking', me: { role: 'host' } });
    const found = await tool(joining, 'find_meetups', { activities: 'hiking' });
    expect(found.results.map((r: { meetup: { id: string } }) => r.meetup.id)).toEqual([hosted.meetup.id]);
    const joinedAnswer = await tool(joining, 'join_meetup', { meetupId: hosted.meetup.id });
    expect(joinedAnswer.meetup.me.role).toBe('confirmed');
    expect((await tool(hosting, 'get_meetup', { meetupId: hosted.meetup.id })).meetup.people).toHaveLength(1);
    expect((await tool(joining, 'leave_meetup', { meetupId: hosted.meetup.id })).meetup.me.role).toBe('left');
  });
});

describe('times', () => {
  it('shows every time on the reader’s clock', async () => {
    const at = spot();
    const [hostP, reader] = await Promise.all([person('Hanna Host', at), person('Rita Reader', at)]);
    await call(updateMe, { token: reader.token, body: { timezone: 'Asia/Tokyo' } });
    const { meetup } = await host(hostP);
    const seen = await view(reader, meetup.id);
    expect(seen.starts_at).toMatch(/\+09:00$/);
    expect(Date.parse(seen.starts_at)).toBe(Date.parse(meetup.starts_at));
  });
});
