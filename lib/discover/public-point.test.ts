import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random';
import {
  DISPLACEMENT_MAX_KM,
  DISPLACEMENT_MIN_KM,
  displace,
  displacementOf,
  greatCircleKm,
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

describe('the public point', () => {
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
          const drawn = displacementOf(seed, 'client');
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

  it('moves with the person: nearby places keep their distances, so a move does not reshuffle the neighbourhood', () => {
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
          const drawn = displacementOf(seed, 'client');
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
    for (const seed of all) {
      const own = displacementOf(seed, 'client');
      const centre = displacementOf(seed, 'gazetteer');
      expect(centre).not.toEqual(own);
      // Independent bearings agree in half-plane about half of the time.
      if (Math.cos(own.bearing - centre.bearing) > 0) sameSide += 1;
    }
    expect(sameSide / all.length).toBeGreaterThan(0.46);
    expect(sameSide / all.length).toBeLessThan(0.54);
  });

  it('draws bearings uniformly around the circle and distances uniformly in 0.7-1.3 km', () => {
    const all = seeds(24_000, 11).map((seed) => displacementOf(seed, 'client'));
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
