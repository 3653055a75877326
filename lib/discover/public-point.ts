/**
 * A person's public point: where everyone else's view of them (Discover's distances,
 * radius filter, cells and ranking) is computed from. Their exact coordinates stay
 * private and are used for nothing others can observe.
 *
 * The public point is the exact point moved by a secret displacement fixed per person:
 * a uniform bearing and a distance uniform in [0.7, 1.3] km, both drawn from the
 * person's random seed (users.location_seed) with SHA-256. Why this method:
 *
 * - Fixed, not fresh per query: fresh noise averages out over repeated queries.
 * - Fixed even when the person moves: moving away and back home gives the very same
 *   public point again, never a second, independent sample of home to average.
 * - A displacement, not grid snapping: a person near the centre of a grid cell would be
 *   found within metres of that centre, and a move across a cell edge would reveal the
 *   edge. A displaced point is 0.7-1.3 km from the person, always.
 * - Points the gazetteer placed (the published centre of the city the person named,
 *   coords_source 'gazetteer') get their own, independent displacement: anyone can
 *   compare such a public point with the known centre, and a shared displacement would
 *   then unmask the person's private points.
 *
 * PostgreSQL computes the real thing (generated columns, db/migrations/0009); this is the
 * same arithmetic in TypeScript, for the unit tests and the attack tests. The two must
 * agree: e2e/api/location-privacy.test.ts checks stored rows against it.
 */
import { createHash } from 'node:crypto';
import { EARTH_RADIUS_KM } from './cells';

/** The displacement's distance range, km (uniform within it). */
export const DISPLACEMENT_MIN_KM = 0.7;
export const DISPLACEMENT_MAX_KM = 1.3;

export type CoordsSource = 'client' | 'gazetteer' | 'geocoder' | null;

export interface LatLng {
  latitude: number;
  longitude: number;
}

export interface Displacement {
  /** Radians clockwise from north, in [0, 2π). */
  bearing: number;
  /** Great-circle distance in km, in [DISPLACEMENT_MIN_KM, DISPLACEMENT_MAX_KM). */
  km: number;
}

const RADIANS_PER_DEGREE = Math.PI / 180;

/** The kind of point a displacement is for: gazetteer centres get their own. */
function kindByte(source: CoordsSource): number {
  return source === 'gazetteer' ? 1 : 0;
}

/** The person's displacement for a kind of point (public_point_bearing/angle in SQL). */
export function displacementOf(seed: string, source: CoordsSource): Displacement {
  const hash = createHash('sha256')
    .update(Buffer.from(seed.replace(/-/g, ''), 'hex'))
    .update(Buffer.from([kindByte(source)]))
    .digest();
  const fraction = (offset: number) => hash.readUInt32BE(offset) / 4294967296;
  return {
    bearing: 2 * Math.PI * fraction(0),
    km: DISPLACEMENT_MIN_KM + (DISPLACEMENT_MAX_KM - DISPLACEMENT_MIN_KM) * fraction(4),
  };
}

/** Longitude in [-180, 180). */
export function wrappedLongitude(longitude: number): number {
  return longitude - 360 * Math.floor((longitude + 180) / 360);
}

/** The point `km` away from `from` along the initial `bearing` (the great-circle destination). */
export function displace(from: LatLng, { bearing, km }: Displacement): LatLng {
  const angle = km / EARTH_RADIUS_KM;
  const lat1 = from.latitude * RADIANS_PER_DEGREE;
  const sinLat2 = Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(bearing);
  const latitude = Math.asin(Math.min(1, Math.max(-1, sinLat2))) / RADIANS_PER_DEGREE;
  const dLon = Math.atan2(
    Math.sin(bearing) * Math.sin(angle) * Math.cos(lat1),
    Math.cos(angle) - Math.sin(lat1) * Math.sin(latitude * RADIANS_PER_DEGREE),
  );
  return { latitude, longitude: wrappedLongitude(from.longitude + dLon / RADIANS_PER_DEGREE) };
}

/** A users row's public point, as PostgreSQL stores it in public_latitude/public_longitude. */
export function publicPointOf(row: {
  latitude: number | null;
  longitude: number | null;
  location_seed: string;
  coords_source: CoordsSource;
}): LatLng | null {
  if (row.latitude === null || row.longitude === null) return null;
  return displace(
    { latitude: row.latitude, longitude: row.longitude },
    displacementOf(row.location_seed, row.coords_source),
  );
}

/** Great-circle distance in km on the Discover sphere (the haversine the search uses). */
export function greatCircleKm(a: LatLng, b: LatLng): number {
  const h =
    Math.sin(((b.latitude - a.latitude) * RADIANS_PER_DEGREE) / 2) ** 2 +
    Math.cos(a.latitude * RADIANS_PER_DEGREE) *
      Math.cos(b.latitude * RADIANS_PER_DEGREE) *
      Math.sin(((b.longitude - a.longitude) * RADIANS_PER_DEGREE) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
