// Nobody can find where a person lives (issue 12, section 1), tried as an attacker would,
// against the real server on the default limits (10 moves a day, 120 searches an hour).
//
// The attack: trilateration by bisection. The attacker moves its own coordinates with
// PATCH /api/v1/me.json and reads the victim's distance_km from Discover, bisecting along
// three directions for the places where it flips from n to n+1 km (there the distance is
// exactly n + 0.5 km), then solves for the centre of those circles. Before the public
// point, about 80 requests pinned a person to within a metre. Now every distance is
// between public points, so the attack finds the victim's public point (and this test
// asserts it does, to within metres: the attack works) while the victim's stored exact
// point stays at least 0.7 km from it (asserted: at least 500 m).
//
// Then the two-sighting attack (issue 28 §3): the victim was first seen at a known spot,
// goes home 3 km away, is located again, and home = spot + (second − first). With one
// displacement per person that found a home to 16-40 m; with one per place cell it misses.
//
// The attacker here is stronger than a real one: it knows its own seed and where its own
// public point is after each move (read from the database), so it aims every probe exactly. It is a botnet
// of accounts, each registered from its own address and used until its limits stop it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { EARTH_RADIUS_KM } from '@/lib/discover/cells';
import { displace, displacementOf, greatCircleKm, placeCellOf, type LatLng } from '@/lib/discover/public-point';
import { largestPlaces, nearestPlace } from '@/lib/geo';
import { discover } from '@/lib/contract/discover';
import { updateMe } from '@/lib/contract/profiles';
import { registerUser, testDb, uniqueEmail } from './client';
import { call, refused as refusedCall, type CallInput } from './contract-client';
import { WebClient } from './web-client';

const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;
/** The open South Pacific: nobody from other tests lives near. */
const SPOT: LatLng = { latitude: -30, longitude: -160 };
const COS_SPOT = Math.cos((SPOT.latitude * Math.PI) / 180);
const MOVES_PER_DAY = 10;
const SEARCHES_PER_HOUR = 120;

/** x km east and y km north of the spot (a local flat frame; distances themselves are great-circle). */
const at = (x: number, y: number): LatLng => ({
  latitude: SPOT.latitude + y / KM_PER_DEGREE,
  longitude: SPOT.longitude + x / (KM_PER_DEGREE * COS_SPOT),
});

async function pointsOf(userId: string) {
  return testDb()
    .selectFrom('users')
    .select(['latitude', 'longitude', 'public_latitude', 'public_longitude', 'location', 'public_location'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** A complete profile (the photo set directly; PATCH then recomputes completeness without moving anyone). */
async function completeProfile(overrides: Record<string, unknown>) {
  const user = await registerUser({
    aboutMe: 'Hello',
    location: 'Open sea',
    gender: 'female',
    birthday: '1990-01-01',
    availability_text: 'weekends',
    ...overrides,
  });
  await testDb()
    .updateTable('users')
    .set({ photo_url: `https://example.com/${user.slug}.jpg` })
    .where('id', '=', user.id)
    .execute();
  const patch = await call(updateMe, { token: user.token, body: { aboutMe: 'Hello!' } });
  expect(patch.onboarding.complete).toBe(true);
  return user;
}

type Move = CallInput<typeof updateMe>['body'];
const move = (token: string, body: Move) => call(updateMe, { token, body });

/** Expects the refusal of a move: 429, Retry-After, the field named, the time to wait said. */
async function expectMoveRefused(token: string, body: Move, field: 'coords' | 'location') {
  const error = await refusedCall(updateMe, { token, body }, 'rate_limited');
  const retryAfter = Number(error.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
  expect(error).toMatchObject({
    code: 'rate_limited',
    message: expect.stringMatching(
      /^Too many changes of your location: at most 10 per day\. Try again in \d+ (hours?|minutes?|seconds?)\.$/,
    ),
    hint: expect.stringMatching(/at most 10 times a day/),
  });
  expect(Object.keys(error.fields ?? {})).toEqual([field]);
  expect(error.fields?.[field]).toMatch(
    /^not changed: at most 10 changes a day; try again in \d+ (hours?|minutes?|seconds?)$/,
  );
}

interface Attacker {
  id: string;
  token: string;
  /** Its own location seed, read from the database: how to aim its public point at a chosen place. */
  seed: string;
  moves: number;
}

/**
 * Where an attacker must stand for its public point to land exactly on `target`, or null
 * when no spot does: each ~1 km place cell has its own displacement (migration 0018), so
 * the attacker tries every cell whose displaced image could reach the target and keeps a
 * spot that lies in the cell it assumed. About a third of targets are out of reach for
 * one account; the botnet then uses another.
 */
function aimFor(seed: string, target: LatLng): LatLng | null {
  const tried = new Set<string>();
  for (let dx = -1.5; dx <= 1.5; dx += 0.25) {
    for (let dy = -1.5; dy <= 1.5; dy += 0.25) {
      const inCell = {
        latitude: target.latitude + dy / KM_PER_DEGREE,
        longitude: target.longitude + dx / (KM_PER_DEGREE * COS_SPOT),
      };
      const cell = JSON.stringify(placeCellOf(seed, inCell));
      if (tried.has(cell)) continue;
      tried.add(cell);
      const drawn = displacementOf(seed, 'client', inCell);
      // Start from the target displaced backwards, then correct for the sphere.
      let exact = displace(target, { bearing: drawn.bearing + Math.PI, km: drawn.km });
      for (let i = 0; i < 4; i++) {
        const landed = displace(exact, drawn);
        exact = {
          latitude: exact.latitude + (target.latitude - landed.latitude),
          longitude: exact.longitude + (target.longitude - landed.longitude),
        };
      }
      if (JSON.stringify(placeCellOf(seed, exact)) === cell) return exact;
    }
  }
  return null;
}

interface Probe {
  /** Position along the current ray, km. */
  t: number;
  /** Where the attacker's public point really was. */
  at: LatLng;
  /** The victim's distance_km as Discover showed it. */
  km: number;
}

interface Flip {
  at: LatLng;
  /** The distance there: half-way between the two whole km shown either side. */
  radiusKm: number;
}

/**
 * Accounts registered on demand, each from its own address, each used until refused. A few
 * are active at once: each probe goes to one that can land its public point on the target.
 */
class Botnet {
  readonly retired: Attacker[] = [];
  probes = 0;
  private readonly active: Attacker[] = [];

  async probe(target: LatLng): Promise<Omit<Probe, 't'>> {
    let aimed: { attacker: Attacker; exact: LatLng } | null = null;
    // A third of targets are out of reach for one account, independently per account
    // (measured: 34% of 20,000 random seeds and targets). With 8 accounts a run of ~600
    // probes still met a target none could reach about once in ten runs; 32 make it
    // about 1e-15 a probe. Accounts are recruited only when the active ones cannot aim.
    for (let i = 0; !aimed && i < 32; i++) {
      if (this.active.length <= i) this.active.push(await this.recruit());
      const attacker = this.active[i]!;
      const exact = aimFor(attacker.seed, target);
      if (exact) aimed = { attacker, exact };
    }
    if (!aimed) throw new Error('no account of the botnet can reach the target');
    const { attacker, exact } = aimed;
    await move(attacker.token, { coords: exact });
    attacker.moves += 1;
    const stored = await pointsOf(attacker.id);
    const search = await call(discover, {
      query: { activities: 'archery', available: 0, radius_km: 50, limit: 50 },
      token: attacker.token,
    });
    this.probes += 1;
    if (attacker.moves >= MOVES_PER_DAY) await this.retire(attacker);
    const seen = search.results.find((r) => r.user.id === victimId);
    if (!seen) throw new Error('the victim left the results');
    return { at: { latitude: stored.public_latitude!, longitude: stored.public_longitude! }, km: seen.distance_km };
  }

  /** Uses up the active accounts' moves (as an attacker would), then sees each refused. */
  async finish(): Promise<void> {
    for (const attacker of [...this.active]) {
      while (attacker.moves < MOVES_PER_DAY) {
        await move(attacker.token, { coords: at(-10, -10 - attacker.moves) });
        attacker.moves += 1;
      }
      await this.retire(attacker);
    }
  }

  /** The move after the last allowed one is refused, and nothing is stored. */
  private async retire(attacker: Attacker): Promise<void> {
    const before = await pointsOf(attacker.id);
    await expectMoveRefused(attacker.token, { coords: at(20, 20) }, 'coords');
    expect(await pointsOf(attacker.id)).toEqual(before);
    this.retired.push(attacker);
    this.active.splice(this.active.indexOf(attacker), 1);
  }

  private async recruit(): Promise<Attacker> {
    // Attackers like something else, so they never show up in each other's searches.
    const user = await completeProfile({
      displayName: 'Prober',
      coords: at(-3, -4),
      activities: ['fencing'],
      gender: 'male',
    });
    const { location_seed: seed } = await testDb()
      .selectFrom('users')
      .select('location_seed')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { id: user.id, token: user.token, seed, moves: 0 };
  }
}

let victimId = '';

/**
 * Walks from `base` along `bearing` in 1 km steps; wherever the shown distance changes
 * between two steps, bisects 11 times (to about half a metre) for the point where it flips.
 */
async function flipsAlong(
  botnet: Botnet,
  base: { x: number; y: number },
  bearing: number,
  budget: number,
): Promise<Flip[]> {
  const along = (t: number) => at(base.x + t * Math.sin(bearing), base.y + t * Math.cos(bearing));
  const probe = async (t: number): Promise<Probe> => ({ t, ...(await botnet.probe(along(t))) });
  const start = botnet.probes;
  const flips: Flip[] = [];
  let last = await probe(0);
  while (botnet.probes - start < budget) {
    const next = await probe(last.t + 1);
    if (next.km !== last.km) {
      let [a, b] = [last, next];
      for (let i = 0; i < 11; i++) {
        const mid = await probe((a.t + b.t) / 2);
        if (mid.km === a.km) a = mid;
        else b = mid;
      }
      if (Math.abs(a.km - b.km) === 1) {
        flips.push({
          at: { latitude: (a.at.latitude + b.at.latitude) / 2, longitude: (a.at.longitude + b.at.longitude) / 2 },
          radiusKm: (a.km + b.km) / 2,
        });
      }
    }
    last = next;
  }
  return flips;
}

/** The point whose great-circle distances best match the flips: a grid search, then Gauss-Newton. */
function trilaterate(flips: readonly Flip[]): LatLng {
  const cost = (x: number, y: number) =>
    flips.reduce((sum, f) => sum + (greatCircleKm(at(x, y), f.at) - f.radiusKm) ** 2, 0);
  let best = { x: 0, y: 0, cost: Infinity };
  for (let x = -15; x <= 15; x += 0.25) {
    for (let y = -15; y <= 15; y += 0.25) {
      const c = cost(x, y);
      if (c < best.cost) best = { x, y, cost: c };
    }
  }
  let { x, y } = best;
  const h = 1e-5;
  for (let iteration = 0; iteration < 50; iteration++) {
    // Normal equations of the residuals r_i = |p − f_i| − radius_i.
    let [a11, a12, a22, b1, b2] = [0, 0, 0, 0, 0];
    for (const f of flips) {
      const r = greatCircleKm(at(x, y), f.at) - f.radiusKm;
      const jx = (greatCircleKm(at(x + h, y), f.at) - greatCircleKm(at(x - h, y), f.at)) / (2 * h);
      const jy = (greatCircleKm(at(x, y + h), f.at) - greatCircleKm(at(x, y - h), f.at)) / (2 * h);
      [a11, a12, a22, b1, b2] = [a11 + jx * jx, a12 + jx * jy, a22 + jy * jy, b1 + jx * r, b2 + jy * r];
    }
    const det = a11 * a22 - a12 * a12;
    const dx = (a22 * b1 - a12 * b2) / det;
    const dy = (a11 * b2 - a12 * b1) / det;
    x -= dx;
    y -= dy;
    if (Math.hypot(dx, dy) < 1e-7) break;
  }
  return at(x, y);
}

interface Sighting {
  estimate: LatLng;
  flips: number;
  probes: number;
  accounts: number;
  fit: number;
}

/**
 * One sighting: three parts of a fresh botnet walk three directions from `base` (about 5 km
 * from the victim, 120° apart) at the same time, and least squares finds the point the
 * victim's distances come from.
 */
async function sight(base: { x: number; y: number }): Promise<Sighting> {
  const botnets = [0, 1, 2].map(() => new Botnet());
  const flips = (
    await Promise.all(
      botnets.map(async (botnet, i) => {
        const found = await flipsAlong(botnet, base, (i * 2 * Math.PI) / 3, 101);
        await botnet.finish();
        return found;
      }),
    )
  ).flat();
  const estimate = trilaterate(flips);
  const fit = Math.sqrt(
    flips.reduce((s, f) => s + (greatCircleKm(estimate, f.at) - f.radiusKm) ** 2, 0) / flips.length,
  );
  return {
    estimate,
    flips: flips.length,
    probes: botnets.reduce((sum, b) => sum + b.probes, 0),
    accounts: botnets.reduce((sum, b) => sum + b.retired.length, 0),
    fit,
  };
}

/**
 * The victim's seed, fixed so the two-sighting test is deterministic: with a random seed,
 * spot + (second − first) lands within 500 m of home by luck about one time in seven (two
 * independent displacements that happen to nearly agree; lib/discover/public-point.test.ts),
 * a luck the attacker cannot tell from a miss. This is the first seed of a fixed sequence
 * tried; with one displacement per person, as before issue 28, every seed missed by metres.
 */
const VICTIM_SEED = '28a5e1f0-0000-4000-8000-000000000001';
/** Where the victim is first seen: a known spot (a cafe they mentioned). */
const KNOWN_SPOT = at(0.137, -0.211);
let firstSighting: Sighting | null = null;
let victimToken = '';

describe('trilateration by bisection: a botnet moving itself to locate a person', () => {
  it('finds only the public point, never within 500 m of where the person is', async () => {
    const started = Date.now();
    const victim = await completeProfile({ displayName: 'Victim', coords: KNOWN_SPOT, activities: ['archery'] });
    victimId = victim.id;
    victimToken = victim.token;
    await testDb().updateTable('users').set({ location_seed: VICTIM_SEED }).where('id', '=', victim.id).execute();

    const sighting = await sight({ x: -3, y: -4 });
    firstSighting = sighting;
    const { estimate, probes, accounts, fit } = sighting;

    const stored = await pointsOf(victim.id);
    const exact = { latitude: stored.latitude!, longitude: stored.longitude! };
    const publicPoint = { latitude: stored.public_latitude!, longitude: stored.public_longitude! };
    const toExact = greatCircleKm(estimate, exact);
    const toPublic = greatCircleKm(estimate, publicPoint);
    console.log(
      `trilateration: ${probes} probes from ${accounts} accounts, ${sighting.flips} flip points, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s; estimate ${(toPublic * 1000).toFixed(2)} m from the public point, ` +
        `${(toExact * 1000).toFixed(0)} m from the stored exact point (public point ${(greatCircleKm(exact, publicPoint) * 1000).toFixed(0)} m from it); ` +
        `rms misfit ${(fit * 1000).toFixed(2)} m`,
    );

    expect(probes).toBeGreaterThanOrEqual(300);
    expect(sighting.flips).toBeGreaterThanOrEqual(15);
    // The attack works: it recovers the point the distances come from, to within metres…
    expect(toPublic).toBeLessThan(0.15);
    expect(fit).toBeLessThan(0.01);
    // …which is not where the person is.
    expect(toExact).toBeGreaterThanOrEqual(0.5);
    // Every account was stopped by its limit after its 10 moves (checked in retire()).
    expect(accounts).toBeGreaterThanOrEqual(Math.ceil(probes / MOVES_PER_DAY));
  }, 180_000);

  it('cannot find home from two sightings, one at a known spot: spot + (second − first) misses by ≥ 500 m (issue 28 §3)', async () => {
    if (!firstSighting) throw new Error('needs the first sighting (the test above)');
    // The victim goes home, 3 km from the spot: beyond any place cell (under 1.5 km across).
    const home = at(2.537, 1.589);
    expect(greatCircleKm(KNOWN_SPOT, home)).toBeGreaterThan(2.9);
    await move(victimToken, { coords: home });

    const second = await sight({ x: 2.537 - 3, y: 1.589 - 4 });
    const first = firstSighting.estimate;
    const estimate = {
      latitude: KNOWN_SPOT.latitude + (second.estimate.latitude - first.latitude),
      longitude: KNOWN_SPOT.longitude + (second.estimate.longitude - first.longitude),
    };
    const stored = await pointsOf(victimId);
    const exactHome = { latitude: stored.latitude!, longitude: stored.longitude! };
    const publicHome = { latitude: stored.public_latitude!, longitude: stored.public_longitude! };
    const miss = greatCircleKm(estimate, exactHome);
    console.log(
      `two sightings: ${second.probes} more probes; second public point found to ${(greatCircleKm(second.estimate, publicHome) * 1000).toFixed(2)} m; ` +
        `spot + (second − first) is ${(miss * 1000).toFixed(0)} m from home`,
    );
    expect(exactHome).toEqual(home);
    // Both sightings worked: each found its public point to within metres…
    expect(greatCircleKm(second.estimate, publicHome)).toBeLessThan(0.15);
    expect(second.fit).toBeLessThan(0.01);
    // …yet the difference between them is not the move: home stays hidden.
    expect(miss).toBeGreaterThanOrEqual(0.5);
  }, 240_000);
});

/** Initial great-circle bearing from one point to another, radians. */
function initialBearing(from: LatLng, to: LatLng): number {
  const r = Math.PI / 180;
  const y = Math.sin((to.longitude - from.longitude) * r) * Math.cos(to.latitude * r);
  const x =
    Math.cos(from.latitude * r) * Math.sin(to.latitude * r) -
    Math.sin(from.latitude * r) * Math.cos(to.latitude * r) * Math.cos((to.longitude - from.longitude) * r);
  return Math.atan2(y, x);
}

describe('the city others see', () => {
  it('is the one nearest the public point, not the one nearest where the person is', async () => {
    // A point 20 m on A's side of the boundary between two neighbouring cities: the city
    // nearest the exact point is A, while each public point falls on either side.
    const places = largestPlaces(3000);
    let found: { a: string; x: LatLng } | null = null;
    for (const a of places) {
      const b = places.find((p) => p !== a && greatCircleKm(a, p) > 5 && greatCircleKm(a, p) < 12);
      if (!b) continue;
      const half = greatCircleKm(a, b) / 2;
      const bearingToA = initialBearing(b, a);
      const x = displace(b, { bearing: bearingToA, km: half + 0.02 });
      const towardsB = displace(x, { bearing: bearingToA + Math.PI, km: 1 });
      if (
        nearestPlace(x.latitude, x.longitude)?.label === a.label &&
        nearestPlace(towardsB.latitude, towardsB.longitude)?.label === b.label
      ) {
        found = { a: a.label, x };
        break;
      }
    }
    expect(found).not.toBeNull();
    const { a, x } = found!;
    const labels: string[] = [];
    for (let i = 0; i < 12; i++) {
      // Half registered there, half moved there.
      const user = await registerUser(i % 2 === 0 ? { coords: x } : { coords: at(70, 70) });
      if (i % 2 === 1) await move(user.token, { coords: x });
      const row = await pointsOf(user.id);
      expect(row.latitude).toBe(x.latitude);
      expect(row.public_location).toBe(nearestPlace(row.public_latitude!, row.public_longitude!)!.label);
      labels.push(row.public_location!);
    }
    // Not A every time (all twelve public points on A's side: about one chance in 4,000).
    expect(labels.some((label) => label !== a)).toBe(true);
  });
});

describe('labels written before public points (scripts/relabel-public-locations.ts)', () => {
  it('relabels people placed by coordinates from their public point, and leaves gazetteer-placed people alone', async () => {
    const byPoint = await registerUser({ coords: { latitude: 48.8566, longitude: 2.3522 } });
    const byName = await registerUser({ location: 'Lyon, France' });
    // What the old code could have written: a label from the exact point (here, a wrong one to see it change).
    await testDb()
      .updateTable('users')
      .set({ public_location: 'Stale, XX' })
      .where('id', 'in', [byPoint.id, byName.id])
      .execute();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/relabel-public-locations.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Relabelled [1-9]\d* public locations? from public points/);
    const point = await pointsOf(byPoint.id);
    expect(point.public_location).toBe(nearestPlace(point.public_latitude!, point.public_longitude!)!.label);
    expect((await pointsOf(byName.id)).public_location).toBe('Stale, XX');
  });
});

describe('the per-person limits a trilateration runs into', () => {
  const moveTo = (token: string, i: number) => move(token, { coords: at(40 + i, 40) });

  type Before = (token: string, home: LatLng) => Promise<void>;
  it.each<[string, Before]>([
    ['nothing else', async () => {}],
    [
      'sending the same coordinates again, 12 times',
      async (token: string, home: LatLng) => {
        for (let i = 0; i < 12; i++) await move(token, { coords: home });
      },
    ],
    [
      'clearing the coordinates and other fields, 12 times',
      async (token: string) => {
        for (let i = 0; i < 12; i++) {
          await move(token, i % 2 === 0 ? { coords: null } : { aboutMe: `Edit ${i}` });
        }
      },
    ],
  ])(
    'allows 10 moves a day after registering with coordinates and %s, then refuses the 11th and stores nothing',
    async (_name, before) => {
      const home = at(40, 41);
      const user = await registerUser({ coords: home, location: 'Open sea' });
      await before(user.token, home);
      for (let i = 0; i < MOVES_PER_DAY; i++) {
        const res = await moveTo(user.token, i);
        expect(res.profile.coords).toEqual(at(40 + i, 40));
      }
      const stored = await pointsOf(user.id);
      await expectMoveRefused(user.token, { coords: at(40 + 99, 40) }, 'coords');
      expect(await pointsOf(user.id)).toEqual(stored);
      // Only moves are limited: other edits, and the unchanged point, still go through.
      await move(user.token, { aboutMe: 'Still here', coords: at(40 + MOVES_PER_DAY - 1, 40) });
      expect((await pointsOf(user.id)).latitude).toBe(stored.latitude);
    },
  );

  it('counts a new location that places the person elsewhere, names location in the refusal, and lets a new name for the same place through', async () => {
    const user = await registerUser({ location: 'Berlin' });
    const cities = ['Paris', 'London', 'Madrid', 'Rome', 'Vienna', 'Prague', 'Warsaw', 'Lisbon', 'Dublin', 'Oslo'];
    for (const city of cities) {
      const res = await move(user.token, { location: city });
      expect(res.profile.coords_source).toBe('gazetteer');
    }
    const stored = await pointsOf(user.id);
    expect(stored.location).toBe('Oslo');
    await expectMoveRefused(user.token, { location: 'Athens' }, 'location');
    expect(await pointsOf(user.id)).toEqual(stored);
    await move(user.token, { location: 'Oslo, Norway' });
    expect(await pointsOf(user.id)).toMatchObject({
      location: 'Oslo, Norway',
      latitude: stored.latitude,
      longitude: stored.longitude,
    });
  });

  it('refuses the 121st Discover search in an hour with 429 and Retry-After, counting the web page’s searches too', async () => {
    const password = 'correct horse battery staple';
    const email = uniqueEmail('searcher');
    const user = await completeProfile({
      email,
      password,
      displayName: 'Searcher',
      coords: at(60, 60),
      activities: ['archery'],
    });
    const searchInput = { query: { activities: 'archery' }, token: user.token };
    const browser = new WebClient();
    expect((await browser.signInWithPassword(email, password)).status).toBeLessThan(400);

    for (let i = 0; i < SEARCHES_PER_HOUR - 1; i++) await call(discover, searchInput);
    // The 120th: the page runs the search on the server and shows the search form.
    const page = await browser.request('GET', '/account/discover');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Search filters');

    const refused = await refusedCall(discover, searchInput, 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Too many Discover searches: at most 120 per hour\. Try again in \d+ (minutes?|seconds?)\.$/,
      ),
    });
    const pageRefused = await browser.request('GET', '/account/discover');
    expect(pageRefused.status).toBe(200);
    expect(pageRefused.text).toMatch(/Too many Discover searches: at most 120 per hour\. Try again in \d+/);
    expect(pageRefused.text).not.toContain('Search filters');
  });
});
