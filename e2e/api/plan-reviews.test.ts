// "Did you meet?" (issue 29, section 7) against the real server: each person answers
// privately after a confirmed plan ended; nothing the other person reads changes; "we met"
// offers to plan again; two people's no-show reports lower someone in Discover, unseen.
// A plan cannot be proposed in the past, so tests move a confirmed plan's times back in
// the database (what the hours in between would do), then ask as people would.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { register } from '@/lib/contract/accounts';
import { discover } from '@/lib/contract/discover';
import * as plans from '@/lib/contract/plans';
import { updateMe } from '@/lib/contract/profiles';
import { reviewPlan } from '@/lib/contract/web-app';
import { EARTH_RADIUS_KM } from '@/lib/discover/cells';
import { api, baseUrl, personSession, registerUser, testDb, uniqueEmail } from './client';
import { call, refused } from './contract-client';
import { makeBuddies, type TestUser } from './social-helpers';
import { WebClient } from './web-client';

const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

type Someone = Pick<TestUser, 'id' | 'token'>;

async function confirmedPlan(a: Someone, b: Someone, chatId: string) {
  const { plan } = await call(plans.proposePlan, {
    params: { chatId },
    token: a.token,
    body: { activity: 'Hiking', starts_at: inHours(30), place: { name: 'North trailhead' } },
  });
  await call(plans.acceptPlan, { params: { planId: plan.id }, token: b.token, body: {} });
  return plan.id;
}

/** The plan took place: it ended `hoursAgo` hours ago (the shared stack asks 2 hours after the end). */
async function endedAgo(planId: string, hoursAgo: number) {
  await sql`update plans set starts_at = now() - make_interval(hours => ${hoursAgo + 2}),
    ends_at = now() - make_interval(hours => ${hoursAgo}) where id = ${planId}::uuid`.execute(testDb());
}

// "Did you meet?" is the person's own: asked with their web session, never a token.
const answer = async (by: Someone, planId: string, outcome: 'met' | 'no_show' | 'cancelled') =>
  call(reviewPlan, { params: { planId }, headers: await personSession(by.id), body: { outcome } });

/** Everything B reads that concerns A or their plan, minus what moves on its own. */
async function whatBSees(b: TestUser, a: TestUser, planId: string) {
  const [plan, list, inbox, profile] = await Promise.all([
    api('GET', `/api/v1/plans/${planId}.json`, { token: b.token }),
    api('GET', '/api/v1/plans.json?view=past', { token: b.token }),
    api('GET', '/api/v1/inbox.json', { token: b.token }),
    api('GET', `/api/v1/users/${a.slug}/profile.json`, { token: b.token }),
  ]);
  for (const res of [plan, list, inbox, profile]) expect(res.status, JSON.stringify(res.body)).toBe(200);
  // The poll position and clock move on their own (the minute sweep wakes inboxes when a plan ends).
  const { cursor, next_poll_url, poll_next_url, server_time, since, ...inboxContent } = inbox.body;
  return { plan: plan.body, list: list.body, inbox: inboxContent, profile: profile.body };
}

describe('did you meet?', () => {
  it('is asked after the end, answered privately (the other person reads exactly what they read before), and can change', async () => {
    const [a, b] = await Promise.all([
      registerUser({ displayName: 'Ada Review' }),
      registerUser({ displayName: 'Bo Review' }),
    ]);
    const chatId = await makeBuddies(a, b);
    const planId = await confirmedPlan(a, b, chatId);

    // Before it took place there is nothing to answer.
    const early = await refused(
      reviewPlan,
      { params: { planId }, headers: await personSession(a.id), body: { outcome: 'met' } },
      'plan_not_open',
    );
    expect(early.status).toBe(409);

    await endedAgo(planId, 3);
    const before = await whatBSees(b, a, planId);
    expect(await answer(a, planId, 'no_show')).toEqual({ success: true, planId, outcome: 'no_show' });
    const after = await whatBSees(b, a, planId);
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toMatch(/no_show|didn.t come|outcome/i);
    // Nor does A's own plan record carry it (agents and the other person read the same shape).
    const own = await api('GET', `/api/v1/plans/${planId}.json`, { token: a.token });
    expect(JSON.stringify(own.body)).not.toMatch(/no_show|outcome/);

    // A misclick can be corrected; the answer is stored once per person.
    expect((await answer(a, planId, 'met')).outcome).toBe('met');
    const rows = await testDb().selectFrom('plan_reviews').selectAll().where('plan_id', '=', planId).execute();
    expect(rows.map((r) => [r.user_id, r.about_id, r.outcome])).toEqual([[a.id, b.id, 'met']]);

    // Outsiders, bad answers and plans that never became confirmed are refused.
    const stranger = await registerUser({ displayName: 'Cy Stranger' });
    await refused(
      reviewPlan,
      { params: { planId }, headers: await personSession(stranger.id), body: { outcome: 'no_show' } },
      'not_found',
    );
    const bad = await api('POST', `/api/v1/plans/${planId}/review.json`, {
      headers: await personSession(b.id),
      body: { outcome: 'ghosted' },
    });
    expect(bad.status).toBe(400);
    const { plan: unanswered } = await call(plans.proposePlan, {
      params: { chatId },
      token: b.token,
      body: { activity: 'Climbing', starts_at: inHours(40), place: { name: 'Gym' } },
    });
    await endedAgo(unanswered.id, 3);
    await refused(
      reviewPlan,
      { params: { planId: unanswered.id }, headers: await personSession(a.id), body: { outcome: 'met' } },
      'plan_not_open',
    );
  });

  it('the web app asks on the plan page and at home, offers "Plan again?" after "we met", and links the plan’s .ics', async () => {
    const [a, b] = await Promise.all([
      registerUser({ displayName: 'Dee Webreview' }),
      registerUser({ displayName: 'Eli Webreview' }),
    ]);
    const chatId = await makeBuddies(a, b);
    const planId = await confirmedPlan(a, b, chatId);
    const web = new WebClient();
    await web.signInWithPassword(a.user.email, a.auth.generated_password);
    expect(web.sessionCookie()).toBeTruthy();

    // Upcoming: Add to calendar links the plan's own .ics, which the session may fetch.
    const upcoming = await web.request('GET', `/account/plans/${planId}`);
    expect(upcoming.status).toBe(200);
    expect(upcoming.text).toContain(`href="/api/v1/plans/${planId}.ics"`);
    expect(upcoming.text).toContain('Add to calendar');
    expect(upcoming.text).not.toContain('Did you meet');
    const ics = await web.request('GET', `/api/v1/plans/${planId}.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);

    // An hour after the end: not yet asked (PLAN_REVIEW_DELAY_MIN is two hours on this stack).
    await endedAgo(planId, 1);
    expect((await web.request('GET', `/account/plans/${planId}`)).text).not.toContain('Did you meet');
    expect((await web.request('GET', '/account')).text).not.toContain('Did you meet');

    await endedAgo(planId, 3);
    const home = await web.request('GET', '/account');
    expect(home.text).toContain('Did you meet Eli?');
    const page = await web.request('GET', `/account/plans/${planId}`);
    expect(page.text).toContain('Did you meet Eli?');
    expect(page.text).not.toContain('Add to calendar');

    // The page's buttons post with the session (same-origin), as the browser does.
    const posted = await web.request('POST', `/api/v1/plans/${planId}/review.json`, {
      json: { outcome: 'met' },
      headers: { origin: new URL(baseUrl()).origin },
    });
    expect(posted.status, posted.text).toBe(200);
    const answered = await web.request('GET', `/account/plans/${planId}`);
    expect(answered.text).toContain('You said you met');
    expect(answered.text).toContain('Plan again?');
    // Answered: home asks no more.
    expect((await web.request('GET', '/account')).text).not.toContain('Did you meet Eli?');
  });
});

// ---------------------------------------------------------------------------
// Discover: two otherwise equal candidates; the one two people reported absent ranks lower.

const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;
const SPOT = { latitude: -55, longitude: -100 + (Date.now() % 1000) / 10_000 };
const SHARED_SEED = '7e57c0de-0000-4000-8000-000000000029';

async function seaPerson(name: string, km: number) {
  const registered = await call(register, {
    body: {
      email: uniqueEmail('noshow'),
      displayName: name,
      aboutMe: `I am ${name}`,
      location: 'Open sea',
      coords: { latitude: SPOT.latitude + km / KM_PER_DEGREE, longitude: SPOT.longitude },
      gender: 'female',
      birthday: '1990-06-15',
      activities: ['hiking'],
      availability_text: 'Saturdays 9-17',
    },
  });
  const person = { id: registered.user.id, slug: registered.user.slug, token: registered.auth.token };
  await testDb()
    .updateTable('users')
    .set({
      location_seed: SHARED_SEED,
      coords_source: 'gazetteer',
      photo_url: `https://example.com/${person.slug}.jpg`,
    })
    .where('id', '=', person.id)
    .execute();
  await call(updateMe, { token: person.token, body: { aboutMe: `I am ${name}!` } });
  return person;
}

/** Everyone equally active: acting through the API (accepting plans) must not be what moves anyone. */
async function sameRecency(ids: string[]) {
  await sql`update users set last_active_at = now() - interval '1 hour' where id = any(${ids}::uuid[])`.execute(
    testDb(),
  );
}

describe('no-shows in Discover', () => {
  it('two people’s no-show reports lower a candidate below an equal one; one report does not; nothing in the answer says so', async () => {
    const [searcher, first, second] = await Promise.all([
      seaPerson('Fay Searcher', 0.2),
      seaPerson('Gus Candidate', 3.2),
      seaPerson('Hal Candidate', 3.2),
    ]);
    // Equal scores tie by id: make the one who sorts first the one reported, so the penalty has to move them.
    const [reported, other] = [first, second].sort((x, y) => x.id.localeCompare(y.id)) as [typeof first, typeof first];
    const order = async () => {
      await sameRecency([reported.id, other.id]);
      const body = await call(discover, { query: { activities: 'hiking', radius_km: 10 }, token: searcher.token });
      return body.results.filter((r) => [reported.id, other.id].includes(r.user.id));
    };
    const start = await order();
    expect(start.map((r) => r.user.id)).toEqual([reported.id, other.id]);
    expect(start[0]!.score).toBe(start[1]!.score);

    const reporters = await Promise.all([
      registerUser({ displayName: 'Ivy Reporter' }),
      registerUser({ displayName: 'Jo Reporter' }),
    ]);
    const planIds: string[] = [];
    for (const reporter of reporters) {
      const chatId = await makeBuddies(reporter, { ...reported, slug: reported.slug } as unknown as TestUser);
      const planId = await confirmedPlan(reporter, reported, chatId);
      await endedAgo(planId, 3);
      planIds.push(planId);
    }
    // One person's report is not enough.
    await answer(reporters[0], planIds[0]!, 'no_show');
    const one = await order();
    expect(one.map((r) => r.user.id)).toEqual([reported.id, other.id]);
    expect(one[0]!.score).toBe(one[1]!.score);

    await answer(reporters[1], planIds[1]!, 'no_show');
    const two = await order();
    expect(two.map((r) => r.user.id)).toEqual([other.id, reported.id]);
    expect(two[1]!.score).toBeLessThan(two[0]!.score);
    // Unseen: the same fields, the same labels, no word of it.
    expect(Object.keys(two[1]!).sort()).toEqual(Object.keys(two[0]!).sort());
    expect(two[1]!.last_active).toBe(two[0]!.last_active);
    expect(JSON.stringify(two)).not.toMatch(/no.?show|reliab|penalt/i);
    const profile = await api('GET', `/api/v1/users/${reported.slug}/profile.json`, { token: searcher.token });
    expect(JSON.stringify(profile.body)).not.toMatch(/no.?show|reliab|penalt/i);

    // A reporter who takes it back ("we met" after all) lifts it.
    await answer(reporters[1], planIds[1]!, 'met');
    expect((await order()).map((r) => r.user.id)).toEqual([reported.id, other.id]);
    await testDb().deleteFrom('plan_reviews').where('plan_id', 'in', planIds).execute();
  });
});
