// Seats are exact under races (issue 45): parallel requests, sent round-robin to two app
// instances on one database (the shared stack's server and a second one started here), so no
// in-process lock could be what serialises them; only the meetup's row lock does. Each race is
// stated as what must hold whichever request commits first.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/stack';
import { baseUrl } from './client';
import {
  attendees,
  cancel,
  host,
  join,
  joined,
  leave,
  meetupPushes,
  type Person,
  people,
  person,
  spotsAt,
  storedMeetup,
  view,
} from './meetup-helpers';

const spot = spotsAt(-28);

let second: ServerProcess;
beforeAll(async () => {
  second = await startServerProcess({
    databaseUrl: inject('databaseUrl'),
    dataDir: inject('dataDir'),
    args: ['--role=web'],
    logName: 'server-meetup-races.log',
  });
}, 120_000);
afterAll(async () => second?.stop());

/** Alternates the two instances. */
const instance = (i: number) => (i % 2 === 0 ? baseUrl() : second.baseUrl);

describe('seats under races, across two instances', () => {
  it('30 people join the last 5 seats at once: exactly 5 confirmed, 25 waitlisted in commit order, each told their position', async () => {
    const at = spot();
    const [hostP, early1, early2] = await Promise.all([
      person('Hanna Host', at),
      person('Early One', at),
      person('Early Two', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 8 });
    await joined(early1, meetup.id);
    await joined(early2, meetup.id);
    const crowd = await people(30, 'Racer', at);

    const answers = await Promise.all(crowd.map((p, i) => join(p, meetup.id, instance(i))));
    for (const answer of answers) expect(answer.status).toBe(200);
    const mine = answers.map((a) => (a.ok ? a.data.meetup.me : null)!);
    expect(mine.filter((m) => m.role === 'confirmed')).toHaveLength(5);
    const waiting = mine.filter((m) => m.role === 'waitlisted');
    expect(waiting).toHaveLength(25);
    // Each told a different place, 1 to 25.
    expect(waiting.map((m) => m.waitlist_position).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );

    // Stored: the order of positions (taken under the row lock, so the order of commit) is the order of
    // the answers: the first five to commit got the seats, and each waitlisted answer names its rank.
    const rows = await attendees(meetup.id);
    const racers = rows.filter((r) => crowd.some((p) => p.id === r.user_id));
    expect(racers.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill('confirmed'));
    expect(racers.slice(5).map((r) => r.status)).toEqual(Array(25).fill('waitlisted'));
    const told = new Map(crowd.map((p, i) => [p.id, mine[i]!.waitlist_position]));
    expect(racers.slice(5).map((r) => told.get(r.user_id))).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(await storedMeetup(meetup.id)).toMatchObject({ confirmed_count: 7, waitlist_count: 25, offered_count: 0 });
    expect((await view(hostP, meetup.id)).seats_left).toBe(0);
  }, 120_000);

  it('join against cancel: a join either commits before the cancel (and is told of it) or is refused after it', async () => {
    const at = spot();
    const hostP = await person('Hanna Host', at);
    const { meetup } = await host(hostP, { capacity: 6 });
    const crowd = await people(12, 'Joiner', at);
    const [cancelled, ...answers] = await Promise.all([
      cancel(hostP, meetup.id, {}, instance(1)),
      ...crowd.map((p, i) => join(p, meetup.id, instance(i))),
    ]);
    expect(cancelled.status).toBe(200);
    const inBefore = crowd.filter((_, i) => answers[i]!.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    for (const answer of refused) expect(!answer.ok && answer.error.code).toBe('meetup_not_open');
    // Whoever got in before the cancel holds a place in a cancelled meetup and was told; nobody else joined.
    const rows = await attendees(meetup.id);
    expect(rows.map((r) => r.user_id).sort()).toEqual(inBefore.map((p) => p.id).sort());
    for (const p of inBefore) expect(await meetupPushes(p.id, meetup.id)).toEqual(['cancelled']);
    const stored = await storedMeetup(meetup.id);
    expect(stored.status).toBe('cancelled');
    expect(stored.confirmed_count + stored.waitlist_count).toBe(inBefore.length);
  }, 60_000);

  it('leave against join on a full meetup: the joiner ends up with the seat either way, once', async () => {
    const at = spot();
    for (let round = 0; round < 4; round++) {
      const [hostP, stay, leaver, joiner] = await Promise.all([
        person('Hanna Host', at),
        person('Stay Put', at),
        person('Lea Leaver', at),
        person('Jo Joiner', at),
      ]);
      const { meetup } = await host(hostP, { capacity: 3 });
      await joined(stay, meetup.id);
      await joined(leaver, meetup.id);
      const [left, came] = await Promise.all([
        leave(leaver, meetup.id, instance(round)),
        join(joiner, meetup.id, instance(round + 1)),
      ]);
      expect([left.status, came.status]).toEqual([200, 200]);
      expect((await view(joiner, meetup.id)).me.role).toBe('confirmed');
      expect(await storedMeetup(meetup.id)).toMatchObject({ confirmed_count: 2, waitlist_count: 0, offered_count: 0 });
      // Promoted (waitlisted first) or seated at once: never told twice.
      expect((await meetupPushes(joiner.id, meetup.id)).length).toBeLessThanOrEqual(1);
    }
  }, 120_000);

  it('two leaves at once: the two first waiting are promoted, each once, in order; the third waits first', async () => {
    const at = spot();
    const [hostP, a, b, c, d, e] = await Promise.all([
      person('Hanna Host', at),
      person('Ann Alpha', at),
      person('Ben Beta', at),
      person('Cy Gamma', at),
      person('Di Delta', at),
      person('Ed Epsilon', at),
    ]);
    const { meetup } = await host(hostP, { capacity: 3 });
    for (const p of [a, b, c, d, e] as Person[]) await joined(p, meetup.id);
    const [left1, left2] = await Promise.all([leave(a, meetup.id, instance(0)), leave(b, meetup.id, instance(1))]);
    expect([left1.status, left2.status]).toEqual([200, 200]);
    expect((await view(c, meetup.id)).me.role).toBe('confirmed');
    expect((await view(d, meetup.id)).me.role).toBe('confirmed');
    expect((await view(e, meetup.id)).me).toMatchObject({ role: 'waitlisted', waitlist_position: 1 });
    expect(await meetupPushes(c.id, meetup.id)).toEqual(['promoted']);
    expect(await meetupPushes(d.id, meetup.id)).toEqual(['promoted']);
    expect(await meetupPushes(e.id, meetup.id)).toEqual([]);
    expect(await storedMeetup(meetup.id)).toMatchObject({ confirmed_count: 2, waitlist_count: 1 });
  }, 60_000);
});
