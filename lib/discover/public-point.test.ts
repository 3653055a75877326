import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random';
import {
  CELL_KM,
  DISPLACEMENT_MAX_KM,
  DISPLACEMENT_MIN_KM,
  displace,
  displacementOf,
  greatCircleKm,
  placeCellOf,
  publicPointOf,
  wrappedLongitude,
  type CoordsSource,
  type LatLng,
} from './public-point';

const RUNS = { seed: 20_260_112, numRuns: 2000 };
const point = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});
const source = fc.constantFrom<CoordsSource>('client', 'gazetteer', 'geocoder', null);

/** Initial great-circle bearing from a to b, radians in [0, 2π). */
function bearing(a: LatLng, b: LatLng): number {
  const r = Math.PI / 180;
  const y = Math.sin((b.longitude - a.longitude) * r) * Math.cos(b.latitude * r);
  const x =
    Math.cos(a.latitude * r) * Math.sin(b.latitude * r) -
    Math.sin(a.latitude * r) * Math.cos(b.latitude * r) * Math.cos((b.longitude - a.longitude) * r);
  return (Math.atan2(y, x) + 2 * Math.PI) % (2 * Math.PI);
}

/** Reproducible UUID-shaped seeds (the real ones come from gen_random_uuid()). */
function seeds(count: number, prngSeed = 7): string[] {
  const random = seededRandom(prngSeed);
  const hex = () => Math.floor(random() * 16).toString(16);
  return Array.from({ length: count }, () => {
    const s = Array.from({ length: 32 }, hex).join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  });
}

// Thousands of SHA-256 draws per test: generous time on a busy machine.
describe('the public point', { timeout: 30_000 }, () => {
  it('is always 0.7-1.3 km from the exact point, anywhere on earth (poles and antimeridian included)', () => {
    fc.assert(
      fc.property(point, fc.uuid(), source, (exact, seed, kind) => {
        const pub = publicPointOf({ ...exact, location_seed: seed, coords_source: kind })!;
        const km = greatCircleKm(exact, pub);
        expect(km).toBeGreaterThanOrEqual(DISPLACEMENT_MIN_KM - 1e-9);
        expect(km).toBeLessThan(DISPLACEMENT_MAX_KM + 1e-9);
        expect(pub.latitude).toBeGreaterThanOrEqual(-90);
        expect(pub.latitude).toBeLessThanOrEqual(90);
        expect(pub.longitude).toBeGreaterThanOrEqual(-180);
        expect(pub.longitude).toBeLessThan(180);
      }),
      RUNS,
    );
  });

  it('lies along the drawn bearing at the drawn distance', () => {
    fc.assert(
      fc.property(
        fc.record({
          latitude: fc.double({ min: -80, max: 80, noNaN: true }),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
        fc.uuid(),
        (exact, seed) => {
          const drawn = displacementOf(seed, 'client', exact);
          const pub = displace(exact, drawn);
          expect(greatCircleKm(exact, pub)).toBeCloseTo(drawn.km, 9);
          const off = Math.abs(bearing(exact, pub) - drawn.bearing);
          expect(Math.min(off, 2 * Math.PI - off)).toBeLessThan(1e-6);
        },
      ),
      RUNS,
    );
  });

  it('is fixed per person: the same place always gives the same public point, whatever happened in between', () => {
    const seed = '0eeb5c7c-b491-4459-85cd-7f8cd6ca1def';
    const home = { latitude: 52.52, longitude: 13.405 };
    const first = publicPointOf({ ...home, location_seed: seed, coords_source: 'client' });
    for (const elsewhere of [
      { latitude: 48.85, longitude: 2.35 },
      { latitude: -33.9, longitude: 151.2 },
    ]) {
      publicPointOf({ ...elsewhere, location_seed: seed, coords_source: 'client' });
    }
    expect(publicPointOf({ ...home, location_seed: seed, coords_source: 'client' })).toEqual(first);
    // The geocoder's answer for a typed address is private too: the same displacement.
    expect(publicPointOf({ ...home, location_seed: seed, coords_source: 'geocoder' })).toEqual(first);
  });

  it('displaces two points by the same vector when they share a displacement, to millimetres over 30 km', () => {
    fc.assert(
      fc.property(
        fc.record({
          latitude: fc.double({ min: -70, max: 70, noNaN: true }),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 30, noNaN: true }),
        fc.uuid(),
        (a, direction, km, seed) => {
          const b = displace(a, { bearing: direction, km });
          const drawn = displacementOf(seed, 'client', a);
          // Within metres: the sphere bends the displacement only a little over 30 km.
          expect(Math.abs(greatCircleKm(displace(a, drawn), displace(b, drawn)) - km)).toBeLessThan(0.01);
        },
      ),
      RUNS,
    );
  });

  it('gives gazetteer centres an independent displacement from private points', () => {
    const all = seeds(4000);
    let sameSide = 0;
    const place = { latitude: 48.85, longitude: 2.35 };
    for (const seed of all) {
      const own = displacementOf(seed, 'client', place);
      const centre = displacementOf(seed, 'gazetteer', place);
      expect(centre).not.toEqual(own);
      // Independent bearings agree in half-plane about half of the time.
      if (Math.cos(own.bearing - centre.bearing) > 0) sameSide += 1;
    }
    expect(sameSide / all.length).toBeGreaterThan(0.46);
    expect(sameSide / all.length).toBeLessThan(0.54);
  });

  it('draws bearings uniformly around the circle and distances uniformly in 0.7-1.3 km', () => {
    const all = seeds(24_000, 11).map((seed) => displacementOf(seed, 'client', { latitude: 52.52, longitude: 13.405 }));
    const bins = 12;
    const bearingCounts = new Array<number>(bins).fill(0);
    const distanceCounts = new Array<number>(bins).fill(0);
    for (const { bearing: b, km } of all) {
      bearingCounts[Math.floor((b / (2 * Math.PI)) * bins)]! += 1;
      distanceCounts[Math.floor(((km - DISPLACEMENT_MIN_KM) / (DISPLACEMENT_MAX_KM - DISPLACEMENT_MIN_KM)) * bins)]! +=
        1;
    }
    // Chi-square with 11 degrees of freedom: 31.3 is its 0.1% critical value.
    const chiSquare = (counts: number[]) =>
      counts.reduce((sum, n) => sum + (n - all.length / bins) ** 2 / (all.length / bins), 0);
    expect(chiSquare(bearingCounts)).toBeLessThan(31.3);
    expect(chiSquare(distanceCounts)).toBeLessThan(31.3);
  });

  it('has none without coordinates', () => {
    expect(
      publicPointOf({ latitude: null, longitude: null, location_seed: seeds(1)[0]!, coords_source: null }),
    ).toBeNull();
  });

  it('wraps longitudes into [-180, 180)', () => {
    expect(wrappedLongitude(180)).toBe(-180);
    expect(wrappedLongitude(-180)).toBe(-180);
    expect(wrappedLongitude(181.5)).toBeCloseTo(-178.5, 12);
    expect(wrappedLongitude(-181.5)).toBeCloseTo(178.5, 12);
    expect(wrappedLongitude(13.4)).toBe(13.4);
    const east = displace({ latitude: 0, longitude: 179.999 }, { bearing: Math.PI / 2, km: 1 });
    expect(east.longitude).toBeLessThan(-179.99);
  });
});

/** Issue 28 §3: the two-sighting attack, home = spot + (second public point − first). */
function twoSightingEstimate(seed: string, spot: LatLng, home: LatLng): LatLng {
  const pointOf = (exact: LatLng) => publicPointOf({ ...exact, location_seed: seed, coords_source: 'client' })!;
  const [first, second] = [pointOf(spot), pointOf(home)];
  return {
    latitude: spot.latitude + (second.latitude - first.latitude),
    longitude: wrappedLongitude(spot.longitude + (second.longitude - first.longitude)),
  };
}

const sameCell = (seed: string, a: LatLng, b: LatLng) =>
  JSON.stringify(placeCellOf(seed, a)) === JSON.stringify(placeCellOf(seed, b));

describe('place cells: one displacement per place, independent between places', { timeout: 30_000 }, () => {
  it('a move within a cell shows as itself (the two-sighting attack recovers it), and is never longer than the cell', () => {
    let within = 0;
    let across = 0;
    fc.assert(
      fc.property(
        fc.record({
          latitude: fc.double({ min: -80, max: 80, noNaN: true }),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.integer({ min: 0, max: 3000 }).map((metres) => metres / 1000),
        fc.uuid(),
        (spot, direction, km, seed) => {
          const home = displace(spot, { bearing: direction, km });
          const miss = greatCircleKm(twoSightingEstimate(seed, spot, home), home);
          if (sameCell(seed, spot, home)) {
            within += 1;
            // The leak: the move itself, to the metre…
            expect(miss).toBeLessThan(0.001);
            // …which is at most the cell's size: 1 km rows, columns 1-1.03 km wide below 80°.
            expect(km).toBeLessThan(Math.hypot(CELL_KM, 1.03 * CELL_KM));
          } else {
            across += 1;
            expect(displacementOf(seed, 'client', home)).not.toEqual(displacementOf(seed, 'client', spot));
          }
        },
      ),
      RUNS,
    );
    // Both kinds of move were tried, plenty of each.
    expect(within).toBeGreaterThan(200);
    expect(across).toBeGreaterThan(200);
  });

  it('keeps every cell within 2.3 km corner to corner near the poles too', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 80, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.boolean(),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.double({ min: 0, max: 4, noNaN: true }),
        fc.uuid(),
        (latitude, longitude, south, direction, km, seed) => {
          const a = { latitude: south ? -latitude : latitude, longitude };
          const b = displace(a, { bearing: direction, km });
          if (sameCell(seed, a, b)) expect(greatCircleKm(a, b)).toBeLessThan(2.3);
        },
      ),
      RUNS,
    );
  });

  it('misses home by the difference of two independent displacements once the move leaves the cell', () => {
    // Spot and home 3 km apart: always different cells (below 80°, a cell is under 1.5 km across).
    const spot = { latitude: 47.37, longitude: 8.54 };
    const home = displace(spot, { bearing: 1, km: 3 });
    const misses = seeds(4000, 28).map((seed) => greatCircleKm(twoSightingEstimate(seed, spot, home), home));
    misses.sort((a, b) => a - b);
    const median = misses[misses.length / 2]!;
    const under500m = misses.filter((m) => m < 0.5).length / misses.length;
    // Two independent draws from the 0.7-1.3 km ring differ by 1.39 km at the median and by
    // less than 500 m 13.9% of the time (simulated, 200,000 pairs): luck the attacker
    // cannot tell from a miss. With one displacement per person every miss was 0.
    expect(median).toBeGreaterThan(1.3);
    expect(median).toBeLessThan(1.5);
    expect(under500m).toBeGreaterThan(0.11);
    expect(under500m).toBeLessThan(0.17);
    expect(misses.at(-1)!).toBeLessThan(2 * DISPLACEMENT_MAX_KM + 0.01);
  });

  it('gives the places within 200 m of any point at most 4 displacements, however often the person crosses an edge', () => {
    fc.assert(
      fc.property(
        fc.record({
          latitude: fc.double({ min: -85, max: 85, noNaN: true }),
          longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
        fc.uuid(),
        fc.integer({ min: 0, max: 1_000_000 }),
        (centre, seed, prng) => {
          const random = seededRandom(prng);
          const cells = new Set<string>();
          // Jitter of up to 200 m, 200 times: edges crossed back and forth.
          for (let i = 0; i < 200; i++) {
            const spot = displace(centre, { bearing: 2 * Math.PI * random(), km: 0.2 * Math.sqrt(random()) });
            cells.add(JSON.stringify(placeCellOf(seed, spot)));
          }
          expect(cells.size).toBeLessThanOrEqual(4);
        },
      ),
      { ...RUNS, numRuns: 300 },
    );
  });

  it('shifts each person’s grid by a secret of their own, so where their edges lie tells nothing', () => {
    // The same point falls at a different position within its cell for different people:
    // the fraction of a row above it is uniform over seeds.
    const point = { latitude: 40.4168, longitude: -3.7038 };
    const bins = new Array<number>(10).fill(0);
    const all = seeds(5000, 3);
    for (const seed of all) {
      const probe = { ...point };
      // How far south the row's edge lies, to 1/10 of a row: step south until the row changes.
      const row = placeCellOf(seed, point).row;
      let step = 0;
      while (step < 10 && placeCellOf(seed, probe).row === row) {
        step += 1;
        probe.latitude = point.latitude - (step * CELL_KM) / 10 / 111.195;
      }
      bins[step - 1]! += 1;
    }
    for (const n of bins) {
      expect(n / all.length).toBeGreaterThan(0.07);
      expect(n / all.length).toBeLessThan(0.13);
    }
  });
});
