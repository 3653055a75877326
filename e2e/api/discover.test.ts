// GET /api/v1/discover.json and GET /api/v1/users/{slug}/overlap.json against the real
// server, on small hand-made populations (each at its own spot in the open sea, so no
// other test's users are ever nearby) where the right answer is known.
//
// Every distance Discover uses is between public points (lib/discover/public-point.ts),
// each person's exact point moved 0.7-1.3 km by their own fixed secret displacement. The
// hand-made populations share one displacement at each spot (a test-only shortcut, set in
// the database), so the distances between their public points are the hand-made ones to
// within millimetres; the brute-force comparison at the end gives everyone their own.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { bitsToGrid, countSlots, intersectGrids, parseAvailabilityText } from '@/lib/availability';
import { register } from '@/lib/contract/accounts';
import { discover, getOverlap, type DiscoverResponse } from '@/lib/contract/discover';
import { getMe, updateMe } from '@/lib/contract/profiles';
import { blockUser } from '@/lib/contract/safety';
import { ageOn } from '@/lib/contract/schemas';
import { cellOf, EARTH_RADIUS_KM, fineCellOf } from '@/lib/discover/cells';
import { decodeCursor } from '@/lib/discover/cursor';
import { dayNumber, score, scoreSql } from '@/lib/discover/ranking';
import { mintAccessToken } from '@/lib/accounts/tokens';
import { publicPointOf } from '@/lib/discover/public-point';
import { distanceSql } from '@/lib/discover/search';
import { seededRandom } from '@/lib/seeded-random';
import { api, registerUser, testDb, uniqueEmail, updateTokens } from './client';
import { call, pathOf, refused, send, type CallInput } from './contract-client';

const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;

interface Spot {
  latitude: number;
  longitude: number;
}

interface PersonSpec {
  name: string;
  at: Spot;
  /** km north of the spot (fractions keep the rounded km away from .5). */
  km: number;
  activities: string[];
  availability: string;
  gender?: 'male' | 'female' | 'non_binary' | 'prefer_not_to_say';
  birthday?: string;
  showAgeByDecade?: boolean;
  daysAway?: number;
  complete?: boolean;
  /**
   * 'shared' (default): the spot's common displacement; 'own': the random one registration drew.
   * Shared means one seed and the gazetteer's kind of point, whose displacement does not depend
   * on the place cell (private points get one per ~1 km cell, migration 0018), so every
   * designed distance between these people holds between their public points too.
   */
  displacement?: 'shared' | 'own';
}

/** The one displacement the hand-made populations share (any fixed seed would do). */
const SHARED_SEED = '7e57c0de-0000-4000-8000-000000000001';

interface Person extends PersonSpec {
  id: string;
  slug: string;
  token: string;
}

async function person(spec: PersonSpec): Promise<Person> {
  const registered = await call(register, {
    body: {
      email: uniqueEmail(),
      displayName: spec.name,
      aboutMe: `I am ${spec.name}`,
      location: 'Open sea',
      coords: { latitude: spec.at.latitude + spec.km / KM_PER_DEGREE, longitude: spec.at.longitude },
      gender: spec.gender ?? 'female',
      birthday: spec.birthday ?? '1990-06-15',
      showAgeByDecade: spec.showAgeByDecade ?? false,
      activities: spec.activities,
      availability_text: spec.availability,
    },
  });
  const user = { ...registered.user, token: registered.auth.token };
  if (spec.displacement !== 'own') {
    await testDb()
      .updateTable('users')
      .set({ location_seed: SHARED_SEED, coords_source: 'gazetteer' })
      .where('id', '=', user.id)
      .execute();
  }
  if (spec.complete !== false) {
    // The photo upload lives in another module: set the URL, then let PATCH recompute completeness.
    await testDb()
      .updateTable('users')
      .set({ photo_url: `https://example.com/${user.slug}.jpg` })
      .where('id', '=', user.id)
      .execute();
    const patch = await call(updateMe, { token: user.token, body: { aboutMe: `I am ${spec.name}!` } });
    expect(patch.onboarding).toEqual({ complete: true, missing: [], awaiting_person_consent: false });
  }
  await sql`update users set last_active_at = now() - make_interval(days => ${spec.daysAway ?? 0}) - interval '1 hour'
    where id = ${user.id}::uuid`.execute(testDb());
  return { ...spec, id: user.id, slug: user.slug, token: user.token };
}

type SearchParams = NonNullable<CallInput<typeof discover>['query']>;

/** A search that must succeed (200), its answer parsed by the contract. */
async function search(caller: Pick<Person, 'token'>, query: SearchParams = {}) {
  return call(discover, { query, token: caller.token });
}

async function names(caller: Person, people: readonly Person[], params: SearchParams = {}): Promise<string[]> {
  const body = await search(caller, { limit: 50, ...params });
  return body.results.map((r) => people.find((p) => p.id === r.user.id)?.name ?? `stranger ${r.user.slug}`);
}

/** The public point PostgreSQL stored is the one lib/discover/public-point.ts computes. */
function expectMirrored(
  row: Parameters<typeof publicPointOf>[0] & { public_latitude: number | null; public_longitude: number | null },
) {
  const mirror = publicPointOf(row);
  if (!mirror) throw new Error('no public point for a row with coordinates');
  expect(row.public_latitude).toBeCloseTo(mirror.latitude, 9);
  expect(row.public_longitude).toBeCloseTo(mirror.longitude, 9);
}

const slots = (a: string, b: string) =>
  countSlots(intersectGrids(parseAvailabilityText(a).grid, parseAvailabilityText(b).grid));

describe('GET /api/v1/discover.json: ranking and filters', () => {
  const at: Spot = { latitude: -40, longitude: -130 };
  let caller: Person;
  let people: Person[];
  const byName = (name: string) => people.find((p) => p.name === name)!;

  beforeAll(async () => {
    caller = await person({ name: 'Caller', at, km: 0, activities: ['tennis', 'hiking'], availability: 'weekends' });
    people = await Promise.all(
      [
        // Expected order by score: Ada .9429, Dev .8229, Bo = Fay .7667 (a tie), Pat .6909, Nia .6889, Eve .6.
        {
          name: 'Ada',
          km: 2.2,
          activities: ['tennis', 'hiking', 'chess'],
          availability: 'weekends',
          birthday: '1990-01-10',
        },
        {
          name: 'Bo',
          km: 0.3,
          activities: ['tennis'],
          availability: 'weekends',
          gender: 'male',
          birthday: '2000-03-03',
        },
        {
          name: 'Fay',
          km: 0.3,
          activities: ['tennis'],
          availability: 'weekends',
          gender: 'male',
          birthday: '2001-04-04',
        },
        {
          name: 'Dev',
          km: 2.2,
          activities: ['hiking', 'tennis'],
          availability: 'Saturday mornings',
          gender: 'non_binary',
          birthday: '1984-02-02',
          showAgeByDecade: true,
        },
        {
          name: 'Eve',
          km: 10.2,
          activities: ['hiking'],
          availability: 'weekends',
          daysAway: 14,
          birthday: '1995-05-05',
        },
        { name: 'Nia', km: 4.2, activities: ['hiking'], availability: 'weekends', daysAway: 2, birthday: '1992-07-07' },
        {
          name: 'Pat',
          km: 6.2,
          activities: ['tennis'],
          availability: 'Sunday',
          gender: 'male',
          birthday: '1980-08-08',
        },
        // Left out by a filter or a rule:
        { name: 'Far', km: 30.2, activities: ['hiking'], availability: 'weekends' },
        { name: 'Cook', km: 1.2, activities: ['cooking'], availability: 'weekends' },
        { name: 'Weekday', km: 1.2, activities: ['tennis'], availability: 'weekday mornings' },
        { name: 'Half', km: 1.2, activities: ['tennis', 'hiking'], availability: 'weekends', complete: false },
        { name: 'Blocked', km: 1.2, activities: ['tennis', 'hiking'], availability: 'weekends' },
        { name: 'Blocker', km: 1.2, activities: ['tennis', 'hiking'], availability: 'weekends' },
        { name: 'Buddy', km: 1.2, activities: ['tennis', 'hiking'], availability: 'weekends' },
      ].map((spec) => person({ ...spec, at } as PersonSpec)),
    );
    const db = testDb();
    await db
      .insertInto('blocks')
      .values({ blocker_id: caller.id, blocked_id: byName('Blocked').id })
      .execute();
    await db
      .insertInto('blocks')
      .values({ blocker_id: byName('Blocker').id, blocked_id: caller.id })
      .execute();
    const [a, b] = [caller.id, byName('Buddy').id].sort();
    await db.insertInto('connections').values({ user_a: a!, user_b: b! }).execute();
    await db
      .insertInto('buddy_requests')
      .values({ sender_id: caller.id, recipient_id: byName('Nia').id })
      .execute();
    await db
      .insertInto('buddy_requests')
      .values({ sender_id: byName('Pat').id, recipient_id: caller.id })
      .execute();
    // A declined request is history, not a flag.
    await db
      .insertInto('buddy_requests')
      .values({ sender_id: caller.id, recipient_id: byName('Eve').id, state: 'declined', responded_at: new Date() })
      .execute();
  });

  it('ranks by the documented formula, breaks ties by nearness then id, and explains each result', async () => {
    const res = await send(discover, { token: caller.token });
    expect(res.headers.get('cache-control')).toBe('no-store');
    if (!res.ok) throw new Error(`discover failed: ${res.error.code}`);
    const body: DiscoverResponse = res.data;
    const [bo, fay] = [byName('Bo'), byName('Fay')].sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(body.results.map((r) => r.user.id)).toEqual(
      [byName('Ada'), byName('Dev'), bo!, fay!, byName('Pat'), byName('Nia'), byName('Eve')].map((p) => p.id),
    );
    expect(body.next_cursor).toBeNull();
    expect(body.search).toMatchObject({ radius_km: 25, activities: ['tennis', 'hiking'], available: 1, gender: null });

    for (const result of body.results) {
      const p = people.find((x) => x.id === result.user.id)!;
      const shared = ['tennis', 'hiking'].filter((a) => p.activities.includes(a));
      const overlap = slots(caller.availability, p.availability);
      const distance = Math.max(1, Math.round(p.km));
      expect(result.shared_activities).toEqual(shared);
      expect(result.overlap_hours).toBe(overlap);
      expect(result.distance_km).toBe(distance);
      expect(result.score).toBeCloseTo(
        score({
          sharedActivities: shared.length,
          searchedActivities: 2,
          overlapSlots: overlap,
          distanceKm: distance,
          daysInactive: p.daysAway ?? 0,
        }),
        4,
      );
      const parts = Object.values(result.score_breakdown).reduce((s, x) => s + x, 0);
      expect(parts).toBeCloseTo(result.score, 3);
      expect(result.user).toMatchObject({ slug: p.slug, displayName: p.name, location: expect.any(String) });
    }
    const ada = body.results[0]!;
    expect(ada.overlap_summary).toBe('Saturday and Sunday, all day');
    expect(ada.last_active).toBe('within_a_day');
    expect(body.results.find((r) => r.user.id === byName('Dev').id)?.overlap_summary).toMatch(/^Saturday morning/);
    expect(body.results.find((r) => r.user.id === byName('Eve').id)?.last_active).toBe('within_a_month');
  });

  it('never shows the caller, incomplete profiles, either side of a block or existing buddies', async () => {
    const shown = await names(caller, people, { radius_km: 200, available: 0 });
    for (const hidden of ['Caller', 'Half', 'Blocked', 'Blocker', 'Buddy']) expect(shown).not.toContain(hidden);
    // …and the blocked pair does not see the caller either.
    expect(await names(byName('Blocked'), [caller])).not.toContain('Caller');
    expect(await names(byName('Blocker'), [caller])).not.toContain('Caller');
    expect(await names(byName('Buddy'), [caller])).not.toContain('Caller');
    expect(await names(byName('Ada'), [caller])).toContain('Caller');
  });

  it('flags pending requests either way, and only pending ones', async () => {
    const body = await search(caller);
    const flag = (name: string) => body.results.find((r) => r.user.id === byName(name).id)?.pending_request;
    expect(flag('Nia')).toBe('sent');
    expect(flag('Pat')).toBe('received');
    expect(flag('Eve')).toBeNull();
    expect(flag('Ada')).toBeNull();
  });

  it.each([
    ['radius_km widens the circle', { radius_km: 50 }, ['Far'], []],
    ['radius_km narrows it', { radius_km: 3 }, [], ['Nia', 'Pat', 'Eve']],
    ['activities replaces the caller’s own', { activities: 'cooking' }, ['Cook'], ['Ada', 'Bo']],
    ['available=0 drops the availability filter', { available: 0 }, ['Weekday'], []],
    ['available=7 needs 7 shared hours', { available: 7 }, [], ['Dev']],
  ])('%s', async (_name, params, added, removed) => {
    const baseline = await names(caller, people);
    const filtered = await names(caller, people, params);
    for (const name of added) {
      expect(baseline).not.toContain(name);
      expect(filtered).toContain(name);
    }
    for (const name of removed) {
      expect(baseline).toContain(name);
      expect(filtered).not.toContain(name);
    }
  });

  it('filters by gender (one or several)', async () => {
    expect(await names(caller, people, { gender: 'male' })).toEqual(expect.arrayContaining(['Bo', 'Fay', 'Pat']));
    expect((await names(caller, people, { gender: 'male' })).sort()).toEqual(['Bo', 'Fay', 'Pat']);
    expect((await names(caller, people, { gender: 'non_binary,female' })).sort()).toEqual(['Ada', 'Dev', 'Eve', 'Nia']);
  });

  it('filters by age, matching people who show only a decade by their whole decade', async () => {
    const shown = await names(caller, people, { age_min: 25, age_max: 40 });
    const expected = people
      .filter((p) => ['Ada', 'Bo', 'Fay', 'Dev', 'Eve', 'Nia', 'Pat'].includes(p.name))
      .filter((p) => {
        const age = ageOn(p.birthday ?? '1990-06-15');
        if (!p.showAgeByDecade) return age >= 25 && age <= 40;
        const decade = Math.floor(age / 10) * 10;
        return decade <= 40 && decade + 9 >= 25;
      })
      .map((p) => p.name);
    expect(shown.sort()).toEqual(expected.sort());
    // Dev is 41 or 42 but shows "40s", so Dev matches up to 40 …
    expect(shown).toContain('Dev');
    // … while Pat, who shows an exact age over 40, does not.
    expect(shown).not.toContain('Pat');
  });

  it('shows distance only as whole km, at least 1, and never coordinates', async () => {
    // Raw: the text itself must hold no coordinates (parsing with the contract would drop unknown fields).
    const res = await api('GET', pathOf(discover, {}, { radius_km: 200, available: 0, limit: 50 }), {
      token: caller.token,
    });
    expect(res.status).toBe(200);
    const body = discover.response.parse(res.body);
    for (const result of body.results) {
      expect(Number.isInteger(result.distance_km)).toBe(true);
      expect(result.distance_km).toBeGreaterThanOrEqual(1);
    }
    expect(body.results.find((r) => r.user.id === byName('Bo').id)?.distance_km).toBe(1);
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/latitude|longitude|coords|birthday|email|seed/);
    const stored = await testDb()
      .selectFrom('users')
      .select(['latitude', 'public_latitude', 'location_seed'])
      .where(
        'id',
        'in',
        body.results.map((r) => r.user.id),
      )
      .execute();
    for (const row of stored) {
      for (const secret of [
        String(row.latitude).slice(0, 7),
        String(row.public_latitude).slice(0, 7),
        row.location_seed.slice(0, 8),
      ]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it('touches the caller’s last_active_at (the recent-activity signal)', async () => {
    await sql`update users set last_active_at = now() - interval '3 days' where id = ${caller.id}::uuid`.execute(
      testDb(),
    );
    // A token the server has not seen yet: a known one is touched at most once a minute,
    // and the server remembers its last touch (the token cache), whatever the table says.
    const fresh = await mintAccessToken(testDb(), caller.id);
    await search({ token: fresh.token });
    const row = await testDb()
      .selectFrom('users')
      .select('last_active_at')
      .where('id', '=', caller.id)
      .executeTakeFirstOrThrow();
    expect(Date.now() - new Date(row.last_active_at).getTime()).toBeLessThan(60_000);
  });
});

describe('GET /api/v1/discover.json: paging', () => {
  const at: Spot = { latitude: -40, longitude: -120 };
  let caller: Person;
  let people: Person[];

  beforeAll(async () => {
    caller = await person({ name: 'Pager', at, km: 0, activities: ['running'], availability: 'weekends' });
    // Few distinct scores among 23 people, so ties straddle page boundaries.
    people = await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        person({
          name: `Runner ${i}`,
          at,
          km: 1.2 + (i % 4) * 3,
          activities: ['running'],
          availability: i % 2 === 0 ? 'weekends' : 'Saturday mornings',
          daysAway: i % 3,
        }),
      ),
    );
  });

  it('pages through the whole result in rank order with no repeats or gaps', async () => {
    const all = await search(caller, { limit: 50 });
    expect(all.results).toHaveLength(people.length);
    expect(all.next_cursor).toBeNull();
    // Ranked by score (ties by nearness, then id: the brute-force comparison below checks those).
    const keys = all.results.map((r) => [r.score, r.user.id] as const);
    expect([...keys].sort((a, b) => b[0] - a[0])).toEqual(keys);
    expect(new Set(all.results.map((r) => r.score)).size).toBeLessThan(all.results.length);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await search(caller, { limit: 4, ...(cursor ? { cursor } : {}) });
      expect(page.results.length).toBeLessThanOrEqual(4);
      seen.push(...page.results.map((r) => r.user.id));
      cursor = page.next_cursor;
      if (cursor) expect(page.next_url).toContain(`cursor=${cursor}`);
      pages += 1;
    } while (cursor && pages < 20);
    expect(pages).toBe(6);
    expect(seen).toEqual(all.results.map((r) => r.user.id));
  });

  it('follows next_url as given', async () => {
    const first = await search(caller, { limit: 10, radius_km: 30 });
    const next = new URL(first.next_url ?? 'missing:');
    expect(next.pathname).toBe(discover.path);
    expect(next.searchParams.get('radius_km')).toBe('30');
    const second = await search(caller, Object.fromEntries(next.searchParams));
    const ids = second.results.map((r) => r.user.id);
    expect(ids).toHaveLength(10);
    expect(ids.some((id) => first.results.some((r) => r.user.id === id))).toBe(false);
  });

  it.each([
    ['a cursor that is not one', () => ({ cursor: 'not-a-cursor' }), /not a cursor/],
    [
      'a cursor from other filters',
      async () => ({ cursor: await firstCursor({ radius_km: 20 }), radius_km: 21 }),
      /different filters/,
    ],
  ])('refuses %s with 400 naming cursor', async (_name, params, message) => {
    const error = await refused(
      discover,
      { query: { limit: 4, ...(await params()) }, token: caller.token },
      'validation_failed',
    );
    expect(error.fields?.cursor).toMatch(message);
  });

  async function firstCursor(params: SearchParams): Promise<string> {
    const body = await search(caller, { limit: 4, ...params });
    if (!body.next_cursor) throw new Error('expected a next page');
    return body.next_cursor;
  }
});

// Issue 30 §3: an empty answer says why and what would find someone, with counts of the
// people the suggested search itself shows (blocks respected), and each suggestion's URL finds them.
describe('GET /api/v1/discover.json: an empty answer says why', () => {
  const at: Spot = { latitude: -50, longitude: -150 };
  let caller: Person;
  let people: Person[];

  beforeAll(async () => {
    caller = await person({ name: 'Fencer', at, km: 0, activities: ['fencing'], availability: 'weekends' });
    people = await Promise.all(
      [
        { name: 'Weekday1', km: 5.2, activities: ['fencing'], availability: 'weekday mornings' },
        { name: 'Weekday2', km: 10.2, activities: ['fencing'], availability: 'weekday mornings' },
        { name: 'Farther', km: 40.2, activities: ['fencing'], availability: 'weekends' },
      ].map((spec) => person({ ...spec, at } as PersonSpec)),
    );
  });

  it('names the free time and the radius as what stands in the way, with counts and ready URLs', async () => {
    const body = await search(caller);
    expect(body.results).toEqual([]);
    expect(body.empty_reason).toBe(
      '2 people within 25 km like fencing, but none is free when you are; 1 person within 50 km: ' +
        'try available=0, or radius_km=50.',
    );
    expect(body.suggestions?.map(({ change, matches }) => ({ change, matches }))).toEqual([
      { change: 'available=0', matches: 2 },
      { change: 'radius_km=50', matches: 1 },
    ]);
    // Each suggested search finds exactly the people it counted.
    for (const suggestion of body.suggestions ?? []) {
      const url = new URL(suggestion.url);
      const found = await api('GET', `${url.pathname}${url.search}`, { token: caller.token });
      expect(found.status).toBe(200);
      expect(found.body.results).toHaveLength(suggestion.matches);
      expect(found.body.empty_reason).toBeUndefined();
    }
  });

  it('names the gender or age filter when that is what stands in the way', async () => {
    const body = await search(caller, { available: 0, gender: 'male' });
    expect(body.results).toEqual([]);
    expect(body.empty_reason).toMatch(/^2 people within 25 km like fencing, but none of the gender or age asked for/);
    expect(body.suggestions?.[0]).toMatchObject({ change: 'leave out gender, age_min and age_max', matches: 2 });
  });

  it('says when nobody near or far likes the activity, and never counts more than Discover would show', async () => {
    const nobody = await search(caller, { activities: 'curling', radius_km: 200 });
    expect(nobody.empty_reason).toMatch(
      /^Nobody within 200 km likes curling and is free when you are: try other activities/,
    );
    expect(nobody.suggestions).toEqual([]);
    // Someone the caller blocked is not counted.
    await call(blockUser, { params: { slug: people[0]!.slug }, token: caller.token });
    const afterBlock = await search(caller);
    expect(afterBlock.suggestions?.[0]).toMatchObject({ change: 'available=0', matches: 1 });
    // A first page of a few (fewer than 5, no next page) carries no reason, only the
    // suggestions that find more than it shows (issue 43 §4): here the wider circle.
    const found = await search(caller, { available: 0 });
    expect(found.results).toHaveLength(1);
    expect(found).not.toHaveProperty('empty_reason');
    expect(found.suggestions?.map(({ change, matches }) => ({ change, matches }))).toEqual([
      { change: 'radius_km=50', matches: 2 },
    ]);
    const wider = new URL(found.suggestions![0]!.url);
    expect((await api('GET', `${wider.pathname}${wider.search}`, { token: caller.token })).body.results).toHaveLength(
      2,
    );
    // A first page that holds everyone there is to find suggests nothing; a full page carries neither field.
    expect((await search(caller, { available: 0, radius_km: 200 })).suggestions).toEqual([]);
    const full = await search(caller, { available: 0, radius_km: 200, limit: 1 });
    expect(full.next_cursor).not.toBeNull();
    expect(full).not.toHaveProperty('suggestions');
  });
});

describe('GET /api/v1/discover.json: callers and bad input', () => {
  it('tells a caller with an incomplete profile what is missing (422)', async () => {
    const half = await registerUser({ aboutMe: 'Hi', activities: ['tennis'] });
    const error = await refused(discover, { token: half.token }, 'onboarding_incomplete');
    expect(Object.keys(error.fields ?? {})).toEqual(expect.arrayContaining(['coords', 'schedule', 'photo']));
    expect(error.hint).toMatch(/PATCH \/api\/v1\/me\.json/);
  });

  it('needs a bearer token with profile:read', async () => {
    await refused(discover, {}, 'unauthorized');
    const user = await registerUser();
    await updateTokens(user.id, { scopes: ['buddy:read'] });
    await refused(discover, { token: user.token }, 'insufficient_scope');
  });

  it.each([
    ['radius_km over 200', 'radius_km=201', 'radius_km'],
    ['radius_km not a number', 'radius_km=far', 'radius_km'],
    ['limit over 50', 'limit=51', 'limit'],
    ['limit 0', 'limit=0', 'limit'],
    ['an unknown activity', 'activities=tennis,underwater-basket-weaving', 'activities'],
    ['an empty activity list', 'activities=', 'activities'],
    ['available over 126', 'available=127', 'available'],
    ['an unknown gender', 'gender=robot', 'gender.0'],
    ['age_min over age_max', 'age_min=40&age_max=30', 'age_min'],
    ['age under 13', 'age_min=12', 'age_min'],
    ['an unknown parameter', 'radius=10', 'radius'],
  ])('rejects %s with 400 naming the parameter', async (_name, query, field) => {
    const user = await registerUser();
    // Raw: literal query strings, some outside the contract's parameters (radius=10).
    const res = await api('GET', `${discover.path}?${query}`, { token: user.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields).toHaveProperty([field]);
  });
});

describe('GET /api/v1/users/{slug}/overlap.json', () => {
  const at: Spot = { latitude: -40, longitude: -110 };
  let me: Person;
  let weekender: Person;
  let morning: Person;
  let nobody: Person;

  beforeAll(async () => {
    me = await person({
      name: 'Me',
      at,
      km: 0,
      activities: ['tennis'],
      availability: 'weekends and Wednesday evenings',
    });
    weekender = await person({
      name: 'Weekender',
      at,
      km: 1,
      activities: ['tennis'],
      availability: 'Saturday mornings, Wednesday 6pm to 9pm, Friday',
    });
    morning = await person({ name: 'Morning', at, km: 1, activities: ['tennis'], availability: 'weekday mornings' });
    nobody = await person({
      name: 'Nobody',
      at,
      km: 1,
      activities: ['tennis'],
      availability: 'weekends',
      complete: false,
    });
    await testDb().updateTable('users').set({ schedule: null }).where('id', '=', nobody.id).execute();
  });

  it('returns the shared slots as grid, plain English and windows, by slug or id', async () => {
    for (const key of [weekender.slug, weekender.id]) {
      // Raw: the text itself must hold no coordinates (parsing with the contract would drop unknown fields).
      const res = await api('GET', pathOf(getOverlap, { slug: key }), { token: me.token });
      expect(res.status).toBe(200);
      const body = getOverlap.response.parse(res.body);
      expect(body.user).toMatchObject({ id: weekender.id, slug: weekender.slug, displayName: 'Weekender' });
      expect(body.overlap.windows).toEqual([
        { day: 'wed', start: '18:00', end: '21:00', hours: 3 },
        { day: 'sat', start: '06:00', end: '12:00', hours: 6 },
      ]);
      expect(body.overlap.hours_per_week).toBe(9);
      expect(body.overlap.summary).toBe('Wednesday 6pm–9pm; Saturday morning');
      const rows = await testDb()
        .selectFrom('users')
        .select(['id', 'schedule'])
        .where('id', 'in', [me.id, weekender.id])
        .execute();
      const [mine, theirs] = rows.map((r) => bitsToGrid(r.schedule ?? ''));
      expect(mine && theirs).toBeTruthy();
      if (mine && theirs) expect(body.overlap.grid).toEqual(intersectGrids(mine, theirs));
      expect(JSON.stringify(res.body)).not.toMatch(/latitude|longitude|birthday|email/);
    }
  });

  it('says plainly when there is no shared time, and why when a grid is missing', async () => {
    const none = await call(getOverlap, { params: { slug: morning.slug }, token: me.token });
    expect(none.overlap).toMatchObject({ hours_per_week: 0, summary: 'No shared free time', windows: [] });
    const missing = await call(getOverlap, { params: { slug: nobody.slug }, token: me.token });
    expect(missing.overlap.summary).toMatch(/has not set their availability/);
  });

  it.each([
    ['no token', () => ({ slug: weekender.slug, token: undefined }), 401, 'unauthorized'],
    ['an unknown slug', () => ({ slug: 'no-such-person-x', token: me.token }), 404, 'not_found'],
    ['the caller', () => ({ slug: me.slug, token: me.token }), 400, 'cannot_target_self'],
  ] as const)('answers %s with %s', async (_name, request, status, code) => {
    const { slug, token } = request();
    const error = await refused(getOverlap, { params: { slug }, token }, code);
    expect(error.status).toBe(status);
  });

  it('hides a blocked pair behind 404, whichever side blocked', async () => {
    const blocked = await person({
      name: 'Blocked Overlap',
      at,
      km: 1,
      activities: ['tennis'],
      availability: 'weekends',
    });
    const blocker = await person({
      name: 'Blocker Overlap',
      at,
      km: 1,
      activities: ['tennis'],
      availability: 'weekends',
    });
    await testDb()
      .insertInto('blocks')
      .values([
        { blocker_id: me.id, blocked_id: blocked.id },
        { blocker_id: blocker.id, blocked_id: me.id },
      ])
      .execute();
    for (const other of [blocked, blocker]) {
      await refused(getOverlap, { params: { slug: other.slug }, token: me.token }, 'not_found');
      await refused(getOverlap, { params: { slug: me.slug }, token: other.token }, 'not_found');
    }
  });
});

describe('the search grid', () => {
  it('is the same in PostgreSQL (the postings) and in TypeScript (the search)', async () => {
    const random = seededRandom(99);
    const points = Array.from({ length: 500 }, () => ({ lat: random() * 180 - 90, lon: random() * 360 - 180 }));
    // Edges: cell and row boundaries, the antimeridian, the poles.
    points.push(
      { lat: 0, lon: 0 },
      { lat: 40, lon: 0.25 },
      { lat: -60, lon: 179.999 },
      { lat: 90, lon: 180 },
      { lat: -90, lon: -180 },
      { lat: 88, lon: 5 },
    );
    const { rows } = await sql<{ cell: number; fine: number }>`select discover_cell(p.lat, p.lon) as cell,
        discover_fine_cell(p.lat, p.lon) as fine
      from unnest(${points.map((p) => p.lat)}::float8[], ${points.map((p) => p.lon)}::float8[]) with ordinality as p(lat, lon, n)
      order by p.n`.execute(testDb());
    expect(rows.map((r) => r.cell)).toEqual(points.map((p) => cellOf(p.lat, p.lon)));
    // The fine cells (0037) too: the dense search lists them in TypeScript and reads them in SQL.
    expect(rows.map((r) => r.fine)).toEqual(points.map((p) => fineCellOf(p.lat, p.lon)));
    // users.discover_cell follows the public point (never the exact one), which follows the coordinates.
    const user = await person({
      name: 'Mover',
      at: { latitude: -40, longitude: -100 },
      km: 0,
      activities: ['chess'],
      availability: 'weekends',
      displacement: 'own',
    });
    const stored = () => testDb().selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const before = await stored();
    expect(before.discover_cell).toBe(cellOf(before.public_latitude!, before.public_longitude!));
    expectMirrored(before);
    await call(updateMe, { token: user.token, body: { coords: { latitude: -45.5, longitude: -95.25 } } });
    const after = await stored();
    expect(after.location_seed).toBe(before.location_seed);
    expectMirrored(after);
    expect(after.discover_cell).toBe(cellOf(after.public_latitude!, after.public_longitude!));
  });
});

describe('demo population (npm run seed:demo)', () => {
  it('seeds complete, discoverable profiles with working generated avatars', async () => {
    const tag = `t${process.pid.toString(36)}`;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/seed-demo.ts', '--users', '60', '--seed', '5'],
      {
        cwd: path.resolve(import.meta.dirname, '../..'),
        env: { ...process.env, DATABASE_URL: inject('databaseUrl'), PUBLIC_BASE_URL: inject('baseUrl') },
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Seeded 60 demo users/);
    const seeded = await testDb()
      .selectFrom('users')
      .selectAll()
      .where('agent_name', '=', 'seed-demo')
      .where('email', 'like', 'demo-%')
      .execute();
    try {
      expect(seeded.length).toBeGreaterThanOrEqual(60);
      for (const row of seeded) {
        expect(row.onboarding_complete).toBe(true);
        // The seed (plain SQL) gets public points too: PostgreSQL computes them for every writer.
        expectMirrored(row);
        expect(row.discover_cell).toBe(cellOf(row.public_latitude!, row.public_longitude!));
      }
      // A caller standing where a demo user lives, liking the same things, finds them.
      const target = seeded[0]!;
      const caller = await person({
        name: `Finder ${tag}`,
        at: { latitude: target.latitude!, longitude: target.longitude! },
        km: 0,
        activities: target.activities.slice(0, 2),
        availability: target.availability_text!,
      });
      const found = await search(caller, { available: 1, limit: 50 });
      expect(found.results.map((r) => r.user.id)).toContain(target.id);

      const avatar = await fetch(new URL(target.photo_url!, inject('baseUrl')));
      expect(avatar.status).toBe(200);
      expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
      expect(await avatar.text()).toContain(`>${target.display_name[0]}`);
      expect((await fetch(`${inject('baseUrl')}/demo-avatars/not-an-avatar.svg`)).status).toBe(404);
    } finally {
      await testDb()
        .deleteFrom('users')
        .where(
          'id',
          'in',
          seeded.map((row) => row.id),
        )
        .execute();
    }
  });
});

/** A person's discover_postings rows, and the rows their users row says they should have. */
async function postingsInStep(userId: string) {
  const { rows } = await sql<{ actual: unknown; expected: unknown }>`
    select
      (select coalesce(jsonb_agg(to_jsonb(p) order by p.activity), '[]') from discover_postings p where p.user_id = u.id) as actual,
      (select coalesce(jsonb_agg(jsonb_build_object('activity', a, 'cell', u.discover_cell,
                'fine_cell', discover_fine_cell(u.public_latitude, u.public_longitude), 'user_id', u.id,
                'public_latitude', u.public_latitude, 'public_longitude', u.public_longitude, 'schedule', u.schedule, 'gender', u.gender,
                'birthday', u.birthday, 'show_age_by_decade', u.show_age_by_decade,
                'active_day', floor(extract(epoch from u.last_active_at) / 86400), 'timezone', u.timezone) order by a), '[]')
         from unnest(u.activities || discover_activity_pairs(u.activities)) a where u.onboarding_complete) as expected
    from users u where u.id = ${userId}::uuid`.execute(testDb());
  return rows[0] ?? { actual: [], expected: [] };
}

describe('discover_postings (the narrow table a search reads) follow every profile change', () => {
  const at: Spot = { latitude: -35, longitude: -130 };
  let finder: Person;
  let subject: Person;

  beforeAll(async () => {
    finder = await person({ name: 'Finder', at, km: 0, activities: ['tennis', 'chess'], availability: 'weekends' });
    subject = await person({
      name: 'Subject',
      at,
      km: 3.2,
      activities: ['tennis'],
      availability: 'weekends',
      gender: 'male',
    });
  });

  const expectInStep = async (userId: string) => {
    const { actual, expected } = await postingsInStep(userId);
    expect(actual).toEqual(expected);
    return actual as { activity: string }[];
  };
  const found = async (params: SearchParams = {}) => (await names(finder, [subject], params)).includes('Subject');
  const patch = async (body: CallInput<typeof updateMe>['body']) => {
    await call(updateMe, { token: subject.token, body });
    await expectInStep(subject.id);
  };

  it('holds one row per activity of a complete profile, with what the search filters and ranks on', async () => {
    const rows = await expectInStep(subject.id);
    expect(rows.map((r) => r.activity)).toEqual(['tennis']);
    expect(await found()).toBe(true);
  });

  it('follows activities, place, schedule, gender, age and time zone as they are edited', async () => {
    await patch({ activities: ['chess'] });
    expect(await found({ activities: 'tennis' })).toBe(false);
    expect(await found({ activities: 'chess' })).toBe(true);

    // Moved 60 km away (another cell), then back.
    await patch({ coords: { latitude: at.latitude + 60 / KM_PER_DEGREE, longitude: at.longitude } });
    expect(await found()).toBe(false);
    expect(await found({ radius_km: 100 })).toBe(true);
    await patch({ coords: { latitude: at.latitude + 3.2 / KM_PER_DEGREE, longitude: at.longitude } });
    expect(await found()).toBe(true);

    await patch({ availability_text: 'weekday mornings' });
    expect(await found()).toBe(false);
    expect(await found({ available: 0 })).toBe(true);
    await patch({ availability_text: 'weekends' });
    expect(await found()).toBe(true);

    await patch({ gender: 'female' });
    expect(await found({ gender: 'male' })).toBe(false);
    expect(await found({ gender: 'female' })).toBe(true);

    await patch({ birthday: '1960-01-01', showAgeByDecade: false });
    expect(await found({ age_max: 40 })).toBe(false);
    await patch({ birthday: '1990-01-01' });
    expect(await found({ age_max: 40 })).toBe(true);

    // Weekends on Tokyo's clock, 18 hours ahead of the finder's (Etc/GMT+9, at sea): of the 36 shared
    // hours only Saturday noon to midnight is left (Tokyo's Sunday 6am-midnight).
    const before = (await search(finder, { limit: 50 })).results.find((r) => r.user.id === subject.id);
    await patch({ timezone: 'Asia/Tokyo' });
    const after = (await search(finder, { limit: 50 })).results.find((r) => r.user.id === subject.id);
    expect([before?.overlap_hours, after?.overlap_hours]).toEqual([36, 12]);
    await patch({ timezone: null });
  });

  it('moves the stored day only when the day of the last call changes (touches within a day write nothing)', async () => {
    const db = testDb();
    const xmins = async () =>
      (
        await sql<{
          xmin: string;
        }>`select xmin::text from discover_postings where user_id = ${subject.id}::uuid`.execute(db)
      ).rows;
    await sql`update users set last_active_at = date_trunc('day', now(), 'UTC') + interval '1 hour' where id = ${subject.id}::uuid`.execute(
      db,
    );
    const before = await xmins();
    await sql`update users set last_active_at = date_trunc('day', now(), 'UTC') + interval '2 hours' where id = ${subject.id}::uuid`.execute(
      db,
    );
    expect(await xmins()).toEqual(before);
    await expectInStep(subject.id);
    await sql`update users set last_active_at = now() - interval '3 days' where id = ${subject.id}::uuid`.execute(db);
    expect(await xmins()).not.toEqual(before);
    await expectInStep(subject.id);
    const body = await search(finder, { limit: 50 });
    expect(body.results.find((r) => r.user.id === subject.id)?.last_active).toBe('within_a_week');
  });

  it('drops a profile that becomes incomplete, and takes it back when it is complete again', async () => {
    await patch({ activities: [] });
    expect(await postingsInStep(subject.id)).toEqual({ actual: [], expected: [] });
    expect(await found({ radius_km: 200, available: 0 })).toBe(false);
    await patch({ activities: ['chess', 'tennis'] });
    // Each activity, and the pair of them (a dense search reads people who share both further out).
    expect((await expectInStep(subject.id)).map((r) => r.activity)).toEqual(['chess', 'chess+tennis', 'tennis']);
    expect(await found()).toBe(true);
  });

  it('hides a person the finder blocks (through the block endpoint)', async () => {
    const blocked = await person({
      name: 'Blocked Later',
      at,
      km: 2.2,
      activities: ['tennis'],
      availability: 'weekends',
    });
    expect(await names(finder, [blocked])).toContain('Blocked Later');
    await call(blockUser, { params: { slug: blocked.slug }, token: finder.token });
    expect(await names(finder, [blocked])).not.toContain('Blocked Later');
  });

  it('removes a deleted person’s rows (one at a time and in bulk)', async () => {
    const gone = await person({ name: 'Gone', at, km: 2.2, activities: ['tennis', 'chess'], availability: 'weekends' });
    const bulk = await Promise.all(
      ['Bulk A', 'Bulk B'].map((name) =>
        person({ name, at, km: 2.2, activities: ['tennis'], availability: 'weekends' }),
      ),
    );
    expect((await expectInStep(gone.id)).length).toBe(3);
    await testDb().deleteFrom('users').where('id', '=', gone.id).execute();
    await testDb()
      .deleteFrom('users')
      .where(
        'id',
        'in',
        bulk.map((p) => p.id),
      )
      .execute();
    const left = await testDb()
      .selectFrom('discover_postings')
      .select('user_id')
      .where('user_id', 'in', [gone.id, ...bulk.map((p) => p.id)])
      .execute();
    expect(left).toEqual([]);
  });

  it('matches the users table exactly for everyone in the database', async () => {
    // Every profile any test made, in one snapshot: no missing, extra or stale rows.
    const { rows } = await sql<{ missing: number; extra: number }>`
      with expected as (
        select a as activity, u.discover_cell as cell, discover_fine_cell(u.public_latitude, u.public_longitude) as fine_cell,
               u.id as user_id, u.public_latitude, u.public_longitude, u.schedule, u.gender,
               u.birthday, u.show_age_by_decade, discover_active_day(u.last_active_at) as active_day, u.timezone
        from users u cross join lateral unnest(u.activities || discover_activity_pairs(u.activities)) a
        where u.onboarding_complete and not u.awaiting_person_consent
      ), actual as (
        select activity, cell, fine_cell, user_id, public_latitude, public_longitude, schedule, gender, birthday, show_age_by_decade,
               active_day, timezone
        from discover_postings
      )
      select (select count(*) from (select * from expected except select * from actual) m)::int as missing,
             (select count(*) from (select * from actual except select * from expected) x)::int as extra`.execute(
      testDb(),
    );
    expect(rows[0]).toEqual({ missing: 0, extra: 0 });
  });
});

describe('GET /api/v1/discover.json: the same ranking as scoring everyone exactly', () => {
  const at: Spot = { latitude: -35, longitude: -120 };
  let caller: Person;
  let people: Person[];

  beforeAll(async () => {
    // Everyone with their own displacement, as in real life.
    caller = await person({
      name: 'Ranker',
      at,
      km: 0,
      activities: ['tennis', 'hiking'],
      availability: 'weekends',
      displacement: 'own',
    });
    const random = seededRandom(2026);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    // Few distinct values, so many people tie or nearly tie and the recency bounds matter.
    people = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        person({
          name: `Ranked ${i}`,
          at,
          km: pick([0.2, 1.2, 2.2, 4.2, 8.2]),
          activities: pick([['tennis'], ['hiking'], ['tennis', 'hiking'], ['hiking', 'chess']]),
          availability: pick(['weekends', 'Saturday mornings', 'Sunday']),
          displacement: 'own',
        }),
      ),
    );
    // Last seen at any moment of the last ten days: whole days away then depend on the time of day.
    await sql`update users set last_active_at = now() - make_interval(secs => 10 * 86400 * p.r)
      from unnest(${people.map((p) => p.id)}::uuid[], ${people.map(() => random())}::float8[]) as p(id, r)
      where users.id = p.id`.execute(testDb());
  });

  it('pages through exactly the order a full exact scoring gives', async () => {
    const pages: DiscoverResponse[] = [];
    let cursor: string | null = null;
    do {
      const page: DiscoverResponse = await search(caller, { limit: 3, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.next_cursor;
    } while (cursor && pages.length < 30);
    const asOf = new Date(decodeCursor(pages[0]?.next_cursor ?? '')?.asOf ?? NaN);
    expect(asOf.getTime()).not.toBeNaN();
    const paged = pages.flatMap((page) => page.results.map((r) => `${r.user.id} ${r.score.toFixed(4)}`));

    // The old way: every candidate in users scored exactly, ranked, no cut-offs, with the
    // distance between the caller's and each candidate's public point.
    const { rows: caller_ } = await sql<{
      schedule: string;
      public_latitude: number;
      public_longitude: number;
      latitude: number;
      longitude: number;
    }>`
      select schedule::text, public_latitude, public_longitude, latitude, longitude from users where id = ${caller.id}::uuid`.execute(
      testDb(),
    );
    const me = caller_[0]!;
    const bruteForce = async (distance: ReturnType<typeof distanceSql>) => {
      const inputs = {
        sharedActivities: sql<number>`((u.activities @> array['tennis'])::int + (u.activities @> array['hiking'])::int)`,
        overlapSlots: sql<number>`bit_count(u.schedule & ${me.schedule}::bit(126))::int`,
        distanceKm: sql<number>`greatest(1, round(${distance}))::int`,
        daysInactive: sql<number>`greatest(0, floor(extract(epoch from (${asOf.toISOString()}::timestamptz - u.last_active_at)) / 86400))::int`,
      };
      const { rows } = await sql<{ id: string; score: string }>`
        select u.id, ${scoreSql(inputs, 2)}::text as score from users u
        where u.id = any(${people.map((p) => p.id)}::uuid[]) and u.activities && array['tennis', 'hiking']
          and ${inputs.overlapSlots} >= 1 and ${inputs.distanceKm} <= 25
        order by 2 desc, round((${distance})::numeric, 3) asc, 1 asc`.execute(testDb());
      return rows.map((r) => `${r.id} ${Number(r.score).toFixed(4)}`);
    };
    const expected = await bruteForce(distanceSql(me.public_latitude, me.public_longitude));
    expect(expected.length).toBeGreaterThan(20);
    expect(paged).toEqual(expected);
    // …and not what the exact points would give: the test tells the two apart.
    const exactKm = sql<number>`2 * 6371.0088 * asin(least(1, sqrt(power(sin(radians(u.latitude - ${me.latitude}::float8) / 2), 2)
      + cos(radians(u.latitude)) * cos(radians(${me.latitude}::float8)) * power(sin(radians(u.longitude - ${me.longitude}::float8) / 2), 2))))`;
    expect(await bruteForce(exactKm)).not.toEqual(expected);
    // Some people's whole days away were really undecided by their day alone.
    const undecided = await sql<{
      n: number;
    }>`select count(*)::int as n from users u where u.id = any(${people.map((p) => p.id)}::uuid[])
      and floor(extract(epoch from (${asOf.toISOString()}::timestamptz - u.last_active_at)) / 86400)
        <> ${dayNumber(asOf)} - discover_active_day(u.last_active_at)`.execute(testDb());
    expect(undecided.rows[0]!.n).toBeGreaterThan(0);
  });
});

describe('free together across a border: each person on their own clock', () => {
  // Elvas (Portugal, Europe/Lisbon) and Badajoz (Spain, Europe/Madrid), 16 km apart and an
  // hour apart all year. Both are free Saturday 9am-12pm on their own clocks.
  const elvas: Spot = { latitude: 38.88, longitude: -7.16 };
  const badajoz: Spot = { latitude: 38.88, longitude: -6.97 };
  let portuguese: Person;
  let spanish: Person;
  let neighbour: Person;

  beforeAll(async () => {
    const spec = { km: 0, activities: ['petanque'], availability: 'Saturday 9am to 12pm' };
    portuguese = await person({ name: 'Inês', at: elvas, ...spec });
    spanish = await person({ name: 'Lucía', at: badajoz, ...spec });
    neighbour = await person({ name: 'Rui', at: elvas, ...spec, km: 0.5 });
  });

  it('gives each a zone from their coordinates, shown on me.json', async () => {
    expect((await call(getMe, { token: portuguese.token })).profile).toMatchObject({
      timezone: 'Europe/Lisbon',
      timezone_source: 'coords',
    });
    expect((await call(getMe, { token: spanish.token })).profile).toMatchObject({
      timezone: 'Europe/Madrid',
      timezone_source: 'coords',
    });
  });

  it('shares only the hours both are free, in the reader’s local time (overlap.json)', async () => {
    const fromLisbon = await call(getOverlap, { params: { slug: spanish.slug }, token: portuguese.token });
    expect(fromLisbon.overlap.windows).toEqual([{ day: 'sat', start: '09:00', end: '11:00', hours: 2 }]);
    const fromMadrid = await call(getOverlap, { params: { slug: portuguese.slug }, token: spanish.token });
    expect(fromMadrid.overlap.windows).toEqual([{ day: 'sat', start: '10:00', end: '12:00', hours: 2 }]);
    // Same zone, same grid: all three hours.
    const sameZone = await call(getOverlap, { params: { slug: neighbour.slug }, token: portuguese.token });
    expect(sameZone.overlap.hours_per_week).toBe(3);
  });

  it('counts and filters the same hours in Discover', async () => {
    const results = (await search(portuguese, { activities: 'petanque', limit: 50 })).results;
    const across = results.find((r) => r.user.id === spanish.id);
    const beside = results.find((r) => r.user.id === neighbour.id);
    expect(across).toMatchObject({ overlap_hours: 2, overlap_summary: 'Saturday 9am–11am' });
    expect(beside).toMatchObject({ overlap_hours: 3 });
    // The SQL filter shifts too: three shared hours leave out the person across the border.
    const threeHours = await names(portuguese, [spanish, neighbour], { activities: 'petanque', available: 3 });
    expect(threeHours).toContain('Rui');
    expect(threeHours).not.toContain('Lucía');
  });

  it('keeps a zone the person sets until they clear it, and refuses an unknown one with the closest names', async () => {
    const set = await call(updateMe, { token: spanish.token, body: { timezone: 'europe/lisbon' } });
    expect(set.profile).toMatchObject({ timezone: 'Europe/Lisbon', timezone_source: 'person' });
    expect(set.warnings.normalized).toEqual(['timezone: "europe/lisbon" was read as Europe/Lisbon']);
    const overlap = await call(getOverlap, { params: { slug: spanish.slug }, token: portuguese.token });
    expect(overlap.overlap.hours_per_week).toBe(3);
    const discovered = (await search(portuguese, { activities: 'petanque', available: 3 })).results;
    expect(discovered.map((r) => r.user.id)).toContain(spanish.id);

    // A move keeps the zone the person named…
    const moved = await call(updateMe, {
      token: spanish.token,
      body: { coords: { latitude: badajoz.latitude + 0.01, longitude: badajoz.longitude } },
    });
    expect(moved.profile.timezone).toBe('Europe/Lisbon');
    // …and null goes back to the zone of the coordinates.
    const cleared = await call(updateMe, { token: spanish.token, body: { timezone: null } });
    expect(cleared.profile).toMatchObject({ timezone: 'Europe/Madrid', timezone_source: 'coords' });

    const error = await refused(
      updateMe,
      { token: spanish.token, body: { timezone: 'Europe/Madird' } },
      'validation_failed',
    );
    expect(error.fields?.timezone).toMatch(/unknown time zone "Europe\/Madird": did you mean Europe\/Madrid/);
    const offset = await refused(updateMe, { token: spanish.token, body: { timezone: '+01:00' } }, 'validation_failed');
    expect(offset.fields?.timezone).toMatch(/IANA time zone name/);
  });

  it('takes a zone at registration', async () => {
    const registered = await call(register, {
      body: { email: uniqueEmail(), displayName: 'Asha', location: 'Open sea', timezone: 'Asia/Kolkata' },
    });
    const me = await call(getMe, { token: registered.auth.token });
    expect(me.profile).toMatchObject({ timezone: 'Asia/Kolkata', timezone_source: 'person' });
  });
});
