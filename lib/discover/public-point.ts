/**
 * A person's public point: where everyone else's view of them (Discover's distances,
 * radius filter, cells and ranking) is computed from. Their exact coordinates stay
 * private and are used for nothing others can observe.
 *
 * The public point is the exact point moved by a secret displacement: a uniform bearing
 * and a distance uniform in [0.7, 1.3] km, drawn with SHA-256 from the person's random
 * seed (users.location_seed) and the place cell the exact point lies in. Why this method:
 *
 * - Fixed, not fresh per query: fresh noise averages out over repeated queries.
 * - Fixed per place: returning to a place yields the very same public point again, never
 *   a second, independent sample of it to average.
 * - Independent between places (issue 28): with one displacement for every point a person
 *   sends, the difference of two public points was the difference of the two exact
 *   points, so one sighting at a known spot (a cafe they mentioned) and one at home gave
 *   home = spot + (second − first). Points in different place cells now get independent
 *   displacements, and that estimate misses home by the difference of two independent
 *   displacements (0-2.6 km, median about 1.3 km).
 * - Stable for small moves: the place cell is about CELL_KM across, so moving within a
 *   room, a street or a neighbourhood keeps the displacement, and GPS jitter gives nothing
 *   to average. What a move within a cell shows is the move itself: two public points in
 *   one cell differ exactly as the exact points do, so a known spot reveals any other point
 *   of its cell, which is never farther from the spot than the cell's size (about 1.4 km
 *   corner to corner, tested): no more than the displacement hides anyway.
 * - Cell edges: the grid is shifted by a secret offset per person, so an attacker does not
 *   know where a person's edges are, and a jump of the public point while they barely
 *   moved tells nothing about where they are. Whatever the number of crossings, the points
 *   within a few hundred metres of a place fall in at most 4 cells (tested), so at most 4
 *   independent displacements of about the same place ever exist: repeated crossings give
 *   back the same public points, and there is nothing to average towards the place.
 * - A displacement, not grid snapping: a person near the centre of a grid cell would be
 *   found within metres of that centre, and a move across a cell edge would reveal the
 *   edge. A displaced point is 0.7-1.3 km from the person, always.
 * - Points the gazetteer placed (the published centre of the city the person named,
 *   coords_source 'gazetteer') get their own displacement, independent of the cells:
 *   anyone can compare such a public point with the known centre, so it must share
 *   nothing with the person's private points.
 *
 * PostgreSQL computes the real thing (generated columns, db/migrations/0009 and 0018);
 * this is the same arithmetic in TypeScript, for the unit tests and the attack tests. The
 * two must agree: e2e/api/discover.test.ts checks stored rows against it.
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

/** The place cells' side, km: rows this tall, columns about this wide. */
export const CELL_KM = 1;
/** CELL_KM in degrees of latitude on the Discover sphere (0.00899320363724538, as 0018 writes it). */
const CELL_DEGREES = CELL_KM / ((EARTH_RADIUS_KM * Math.PI) / 180);

/** A person's place cell: a row of latitude and a column within it, on their own shifted grid. */
export interface PlaceCell {
  row: number;
  column: number;
}

const seedBytes = (seed: string) => Buffer.from(seed.replace(/-/g, ''), 'hex');
const fractionOf = (hash: Buffer, offset: number) => hash.readUInt32BE(offset) / 4294967296;

/** The person's secret grid shift, as fractions of a row and of a column (public_point_grid_hash in SQL). */
function gridShiftOf(seed: string): { row: number; column: number } {
  const hash = createHash('sha256')
    .update(seedBytes(seed))
    .update(Buffer.from([2]))
    .digest();
  return { row: fractionOf(hash, 0), column: fractionOf(hash, 4) };
}

/** Columns in a row: as many whole cells of at least CELL_KM as its centre's circle holds (one near a pole). */
function columnsOfRow(row: number, rowShift: number): number {
  const centre = (row + 0.5 - rowShift) * CELL_DEGREES;
  return Math.max(1, Math.floor((360 * Math.cos(centre * RADIANS_PER_DEGREE)) / CELL_DEGREES));
}

/** The place cell an exact point lies in, on the person's grid (public_point_row/column in SQL). */
export function placeCellOf(seed: string, exact: LatLng): PlaceCell {
  const shift = gridShiftOf(seed);
  const row = Math.floor(exact.latitude / CELL_DEGREES + shift.row);
  const columns = columnsOfRow(row, shift.row);
  const column = Math.floor(((wrappedLongitude(exact.longitude) + 180) * columns) / 360 + shift.column) % columns;
  return { row, column };
}

/**
 * The person's displacement for a point (public_point_place_hash in SQL): one per place
 * cell for private points, one for all gazetteer centres.
 */
export function displacementOf(seed: string, source: CoordsSource, exact: LatLng): Displacement {
  const hash = createHash('sha256').update(seedBytes(seed));
  if (source === 'gazetteer') hash.update(Buffer.from([1]));
  else {
    const { row, column } = placeCellOf(seed, exact);
    const cell = Buffer.alloc(9);
    cell.writeInt32BE(row, 1);
    cell.writeInt32BE(column, 5);
    hash.update(cell);
  }
  const digest = hash.digest();
  return {
    bearing: 2 * Math.PI * fractionOf(digest, 0),
    km: DISPLACEMENT_MIN_KM + (DISPLACEMENT_MAX_KM - DISPLACEMENT_MIN_KM) * fractionOf(digest, 4),
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
  const exact = { latitude: row.latitude, longitude: row.longitude };
  return displace(exact, displacementOf(row.location_seed, row.coords_source, exact));
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
