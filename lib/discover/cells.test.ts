import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random';
import {
  cellDistanceKm,
  cellOf,
  coveringCells,
  EARTH_RADIUS_KM,
  FINE_ROW_ID,
  FINE_ROWS,
  fineCellOf,
  fineColumnsOfRow,
  lonWidthOfRow,
  ringCells,
  rowOf,
  ROWS,
} from './cells';

/** Great-circle distance on the grid's sphere. */
function km(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const r = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * r) / 2) ** 2 +
    Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lon - a.lon) * r) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point `distance` km from `from` in direction `bearing` (radians). */
function destination(from: { lat: number; lon: number }, distance: number, bearing: number) {
  const r = Math.PI / 180;
  const d = distance / EARTH_RADIUS_KM;
  const lat1 = from.lat * r;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lon2 =
    from.lon * r +
    Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: lat2 / r, lon: ((((lon2 / r + 540) % 360) + 360) % 360) - 180 };
}

describe('the Discover grid', () => {
  it('has rows of 0.25° and cells that divide each row evenly', () => {
    expect(rowOf(-90)).toBe(0);
    expect(rowOf(90)).toBe(ROWS - 1);
    expect(rowOf(0)).toBe(360);
    for (let row = 0; row < ROWS; row++) expect(Number.isInteger(360 / lonWidthOfRow(row))).toBe(true);
    expect(lonWidthOfRow(rowOf(10))).toBe(0.25);
    expect(lonWidthOfRow(rowOf(89.9))).toBe(360);
  });

  it('keeps cells roughly 20-30 km wide up to 88°', () => {
    for (let row = 8; row < ROWS - 8; row++) {
      const maxAbs = Math.max(Math.abs(-90 + row * 0.25), Math.abs(-90 + (row + 1) * 0.25));
      const widthKm = (lonWidthOfRow(row) * Math.PI * EARTH_RADIUS_KM * Math.cos((maxAbs * Math.PI) / 180)) / 180;
      expect(widthKm).toBeGreaterThan(15);
      expect(widthKm).toBeLessThan(60);
    }
  });

  it('puts the antimeridian and the poles in valid cells', () => {
    expect(cellOf(0, 180)).toBe(cellOf(0, 179.99));
    expect(cellOf(0, -180)).toBe(360 * 1440);
    expect(cellOf(90, 0)).toBe(cellOf(89.99, -170));
  });

  it.each([
    ['a city', 31.2222, 121.4581, 25],
    ['the equator', 0, 0, 25],
    ['the antimeridian', -17.7, 179.9, 25],
    ['the far north', 78.22, 15.65, 25],
    ['next to the pole', 89.8, 45, 50],
    ['a wide radius', 52.52, 13.405, 200],
    ['a tiny radius', 40.7, -74, 1],
  ])('covers every point of a circle around %s', (_name, lat, lon, radius) => {
    const cells = new Set(coveringCells(lat, lon, radius));
    const random = seededRandom(Math.round(lat * 1000 + lon));
    for (let i = 0; i < 2000; i++) {
      const point = destination({ lat, lon }, radius * Math.sqrt(random()), random() * 2 * Math.PI);
      expect(km({ lat, lon }, point)).toBeLessThanOrEqual(radius + 1e-6);
      expect(cells.has(cellOf(point.lat, point.lon))).toBe(true);
    }
  });

  it('needs few cells for a 25 km search and a bounded number for 200 km', () => {
    expect(coveringCells(31.2222, 121.4581, 25).length).toBeLessThanOrEqual(16);
    expect(coveringCells(0, 0, 200).length).toBeLessThanOrEqual(300);
    expect(coveringCells(60, 10, 200).length).toBeLessThanOrEqual(300);
  });
});

describe('the fine cells (about 1 km, inside each cell)', () => {
  it('are about 1 km on each side up to 88°, and their ids fit their cell', () => {
    for (let row = 8; row < ROWS - 8; row++) {
      const middle = (row + 0.5) * 0.25 - 90;
      const widthKm =
        ((lonWidthOfRow(row) / fineColumnsOfRow(row)) *
          Math.PI *
          EARTH_RADIUS_KM *
          Math.cos((middle * Math.PI) / 180)) /
        180;
      expect(widthKm).toBeGreaterThan(0.9);
      expect(widthKm).toBeLessThan(2);
      expect(fineColumnsOfRow(row)).toBeLessThan(FINE_ROW_ID);
    }
    for (let row = 0; row < ROWS; row++) expect(fineColumnsOfRow(row)).toBeLessThan(FINE_ROW_ID);
    const random = seededRandom(3);
    for (let i = 0; i < 5000; i++) {
      const lat = random() * 180 - 90;
      const lon = random() * 360 - 180;
      const fine = fineCellOf(lat, lon);
      const subRow = Math.floor(fine / FINE_ROW_ID);
      expect(subRow).toBeGreaterThanOrEqual(0);
      expect(subRow).toBeLessThan(FINE_ROWS);
      expect(fine % FINE_ROW_ID).toBeLessThan(fineColumnsOfRow(rowOf(lat)));
      // A point 100 m away is in the same fine cell or a neighbouring one.
      const near = destination({ lat, lon }, 0.1, random() * 2 * Math.PI);
      if (cellOf(near.lat, near.lon) === cellOf(lat, lon) && Math.abs(lat) < 85) {
        const other = fineCellOf(near.lat, near.lon);
        expect(Math.abs(Math.floor(other / FINE_ROW_ID) - subRow)).toBeLessThanOrEqual(1);
        expect(Math.abs((other % FINE_ROW_ID) - (fine % FINE_ROW_ID))).toBeLessThanOrEqual(1);
      }
    }
  });

  it.each([
    ['a city', 31.2222, 121.4581, 25],
    ['the antimeridian', -17.7, 179.9, 10],
    ['the far north', 78.22, 15.65, 25],
    ['a tiny radius', 40.7, -74, 1],
  ])(
    'lists every fine cell of a circle around %s, nearest first, each no farther than its points',
    (_name, lat, lon, radius) => {
      const rings = ringCells(lat, lon, radius, 100_000);
      const byCell = new Map(rings.map((r) => [`${r.cell}:${r.fine}`, r.km]));
      for (let i = 1; i < rings.length; i++) expect(rings[i]!.km).toBeGreaterThanOrEqual(rings[i - 1]!.km);
      const random = seededRandom(Math.round(lat * 1000 + lon));
      for (let i = 0; i < 2000; i++) {
        const point = destination({ lat, lon }, radius * Math.sqrt(random()), random() * 2 * Math.PI);
        const listed = byCell.get(`${cellOf(point.lat, point.lon)}:${fineCellOf(point.lat, point.lon)}`);
        expect(listed).toBeDefined();
        expect(listed!).toBeLessThanOrEqual(km({ lat, lon }, point) + 1e-9);
        expect(cellDistanceKm(lat, lon, cellOf(point.lat, point.lon))).toBeLessThanOrEqual(
          km({ lat, lon }, point) + 1e-9,
        );
      }
    },
  );

  it('gives the nearest fine cells first, at most as many as asked, however wide the radius', () => {
    const all = ringCells(31.2222, 121.4581, 25, 100_000);
    expect(all.length).toBeGreaterThan(1500);
    expect(ringCells(31.2222, 121.4581, 25, 400)).toEqual(all.slice(0, 400));
    const wide = ringCells(31.2222, 121.4581, 200, 400);
    expect(wide).toEqual(all.slice(0, 400));
    expect(wide[wide.length - 1]!.km).toBeLessThan(13);
  });
});
