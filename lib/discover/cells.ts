/**
 * The Discover search grid: the world cut into cells of roughly 20-30 km, so one index
 * keyed by (activity, cell) answers "who likes tennis or hiking near here" with only
 * the people who match both, however dense the city (discover_postings, 0007).
 *
 * Rows are 0.25° of latitude (720 rows). Within a row, cells are a fixed number of
 * degrees of longitude, wider towards the poles so they stay 20-30 km across; every
 * width divides 360, and the last row band (above 88°) is one cell. A cell id is
 * row * 1440 + column.
 *
 * PostgreSQL computes a person's cell (users.discover_cell, 0006_discover.ts); this module
 * computes the cells a search circle touches, generously (a margin, whole rows near
 * a pole), since the exact distance is checked afterwards on the matching rows.
 * The two must agree on the grid: lib/discover/cells.test.ts and the API tests check it.
 *
 * Each cell is cut again into fine cells of about 1 km (discover_fine_cell(), migration
 * 0037): 25 sub-rows of 0.01° latitude, and in each row of cells as many sub-columns as
 * the cells are km wide. A dense search reads its candidates fine cell by fine cell,
 * nearest first (ringCells; lib/discover/search.ts). Like the cells, the fine cells
 * are taken of public points only.
 */

import { distanceKm } from '../geo';

export const ROW_DEGREES = 0.25;
export const ROWS = 720;
export const CELLS_PER_ROW_ID = 1440;
/** The sphere of every Discover distance (the mean earth radius, as lib/geo's distanceKm). */
export const EARTH_RADIUS_KM = 6371.0088;

/** Longitude width of the cells by row: [first row, last row, width]; first match wins. */
const WIDTH_BANDS: readonly (readonly [firstRow: number, lastRow: number, widthDegrees: number])[] = [
  [200, 519, 0.25], // 40°S-40°N
  [120, 599, 0.4], // to 60°
  [80, 639, 0.6], // to 70°
  [48, 671, 1], // to 78°
  [24, 695, 2], // to 84°
  [8, 711, 5], // to 88°
];
const POLAR_WIDTH = 360;

export function rowOf(latitude: number): number {
  return Math.min(ROWS - 1, Math.max(0, Math.floor((latitude + 90) / ROW_DEGREES)));
}

export function lonWidthOfRow(row: number): number {
  return WIDTH_BANDS.find(([first, last]) => row >= first && row <= last)?.[2] ?? POLAR_WIDTH;
}

/** The cell of a point, exactly as discover_cell() computes it in PostgreSQL. */
export function cellOf(latitude: number, longitude: number): number {
  const row = rowOf(latitude);
  const width = lonWidthOfRow(row);
  const column = Math.min(Math.floor(360 / width) - 1, Math.max(0, Math.floor((longitude + 180) / width)));
  return row * CELLS_PER_ROW_ID + column;
}

/**
 * Every cell within `radiusKm` of the point (and a few more). The longitude half-width
 * is the widest the circle gets, asin(sin ρ / cos φ), or the whole row when the
 * circle reaches a pole.
 */
export function coveringCells(latitude: number, longitude: number, radiusKm: number): number[] {
  const angle = radiusKm / EARTH_RADIUS_KM; // radians
  const margin = 1.01;
  const dLat = ((angle * 180) / Math.PI) * margin + 1e-6;
  const reachesPole = Math.abs(latitude) + dLat >= 90;
  const sinRatio = Math.sin(angle) / Math.cos((latitude * Math.PI) / 180);
  const dLon = reachesPole || sinRatio >= 1 ? 180 : ((Math.asin(sinRatio) * 180) / Math.PI) * margin + 1e-6;

  const cells: number[] = [];
  for (let row = rowOf(latitude - dLat); row <= rowOf(latitude + dLat); row++) {
    const width = lonWidthOfRow(row);
    const columns = Math.round(360 / width);
    const first = Math.floor((longitude - dLon + 180) / width);
    const last = Math.floor((longitude + dLon + 180) / width);
    if (dLon >= 180 || last - first + 1 >= columns) {
      for (let column = 0; column < columns; column++) cells.push(row * CELLS_PER_ROW_ID + column);
      continue;
    }
    for (let column = first; column <= last; column++) {
      cells.push(row * CELLS_PER_ROW_ID + (((column % columns) + columns) % columns));
    }
  }
  return [...new Set(cells)];
}

/** Sub-rows of a row of cells: 0.01° of latitude (about 1.1 km) each. */
export const FINE_ROWS = 25;
/** A fine cell's id within its cell: sub-row * FINE_ROW_ID + sub-column. */
export const FINE_ROW_ID = 4096;
/** km per degree of latitude as the fine grid counts them (a grid constant, not a distance). */
const GRID_KM_PER_DEGREE = 111.32;

/**
 * Sub-columns of every cell of a row: about one per km of the cell's width at the row's
 * middle latitude (at least 1). discover_fine_columns() in PostgreSQL is the same expression.
 */
export function fineColumnsOfRow(row: number): number {
  const middle = (row + 0.5) * ROW_DEGREES - 90;
  return Math.max(1, Math.floor(lonWidthOfRow(row) * GRID_KM_PER_DEGREE * Math.cos((middle * Math.PI) / 180)));
}

/** The fine cell of a point within its cell (cellOf), exactly as discover_fine_cell() computes it. */
export function fineCellOf(latitude: number, longitude: number): number {
  const row = rowOf(latitude);
  const columns = fineColumnsOfRow(row);
  const subRow = Math.min(FINE_ROWS - 1, Math.max(0, Math.floor((latitude + 90) * 100) - row * FINE_ROWS));
  const column = cellOf(latitude, longitude) - row * CELLS_PER_ROW_ID;
  const subColumn = Math.min(
    columns - 1,
    Math.max(0, Math.floor(((longitude + 180) / lonWidthOfRow(row)) * columns) - columns * column),
  );
  return subRow * FINE_ROW_ID + subColumn;
}

export interface RingCell {
  /** The cell (cellOf) and the fine cell within it (fineCellOf). */
  cell: number;
  fine: number;
  /** The least distance in km from the search's point to any point of the fine cell. */
  km: number;
}

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** The least distance in km from a point to any point of a cell (cellOf). */
export function cellDistanceKm(latitude: number, longitude: number, cell: number): number {
  const row = Math.floor(cell / CELLS_PER_ROW_ID);
  const width = lonWidthOfRow(row);
  const south = row * ROW_DEGREES - 90;
  const west = -180 + (cell - row * CELLS_PER_ROW_ID) * width;
  return distanceToBoxKm(latitude, longitude, south, south + ROW_DEGREES, west, width);
}

/** The least distance from a point to a box of latitudes [south, north] and longitudes [west, west + width]. */
function distanceToBoxKm(
  latitude: number,
  longitude: number,
  south: number,
  north: number,
  west: number,
  width: number,
) {
  const nearestLatitude = Math.min(north, Math.max(south, latitude));
  // The box's nearest longitude to the point (across the antimeridian if that is nearer).
  const centre = west + width / 2;
  const offset = ((((longitude - centre + 540) % 360) + 360) % 360) - 180;
  const nearestLongitude =
    Math.abs(offset) <= width / 2 ? longitude : longitude - offset + Math.sign(offset) * (width / 2);
  return distanceKm({ latitude, longitude }, { latitude: nearestLatitude, longitude: nearestLongitude });
}

/** Every fine cell within `radiusKm` of the point, with its least distance, in no order. */
export function fineCellsWithin(latitude: number, longitude: number, radiusKm: number): RingCell[] {
  const angle = radiusKm / EARTH_RADIUS_KM;
  const dLat = ((angle * 180) / Math.PI) * 1.01 + 1e-6;
  const widest = Math.min(89.999, Math.abs(latitude) + dLat);
  const sinRatio = Math.sin(angle) / Math.cos(toRadians(widest));
  const dLon =
    Math.abs(latitude) + dLat >= 90 || sinRatio >= 1 ? 180 : ((Math.asin(sinRatio) * 180) / Math.PI) * 1.01 + 1e-6;
  const cells: RingCell[] = [];
  const first = Math.max(0, Math.floor((latitude - dLat + 90) * 100));
  const last = Math.min(ROWS * FINE_ROWS - 1, Math.floor((latitude + dLat + 90) * 100));
  for (let subRowIndex = first; subRowIndex <= last; subRowIndex++) {
    const row = Math.floor(subRowIndex / FINE_ROWS);
    const subRow = subRowIndex - row * FINE_ROWS;
    const south = subRowIndex / 100 - 90;
    const columns = fineColumnsOfRow(row);
    const fineWidth = lonWidthOfRow(row) / columns;
    const total = Math.round(360 / lonWidthOfRow(row)) * columns;
    let from = Math.floor((longitude - dLon + 180) / fineWidth);
    let to = Math.floor((longitude + dLon + 180) / fineWidth);
    if (to - from + 1 >= total) [from, to] = [0, total - 1];
    for (let index = from; index <= to; index++) {
      const wrapped = ((index % total) + total) % total;
      const column = Math.floor(wrapped / columns);
      const km = distanceToBoxKm(latitude, longitude, south, south + 0.01, -180 + wrapped * fineWidth, fineWidth);
      if (km <= radiusKm)
        cells.push({
          cell: row * CELLS_PER_ROW_ID + column,
          fine: subRow * FINE_ROW_ID + (wrapped - column * columns),
          km,
        });
    }
  }
  return cells;
}

/**
 * The fine cells within `radiusKm` of the point, nearest first (ties by cell, then fine
 * cell): at most `limit` of them, found in widening circles so a wide radius costs no more
 * than the cells it returns.
 */
export function ringCells(latitude: number, longitude: number, radiusKm: number, limit: number): RingCell[] {
  // A fine cell is about 1 km²: `limit` cells fill a circle of about this radius.
  let reach = Math.min(radiusKm, Math.sqrt(limit / Math.PI) * 1.5 + 1);
  for (;;) {
    const cells = fineCellsWithin(latitude, longitude, reach);
    if (cells.length >= limit || reach >= radiusKm) {
      // Every cell within `reach` is listed, so the nearest `limit` of them are the nearest of all.
      cells.sort((a, b) => a.km - b.km || a.cell - b.cell || a.fine - b.fine);
      return cells.slice(0, limit);
    }
    reach = Math.min(radiusKm, reach * 2);
  }
}
