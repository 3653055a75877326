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
 */

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
