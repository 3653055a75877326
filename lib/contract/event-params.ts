// Parsers for the events feed's query parameters. The contract validates with
// them and the directory reads values through them, so both agree on every form.

export interface BoundingBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export interface Point {
  latitude: number;
  longitude: number;
}

const NUMBER = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/;

function numbers(text: string, count: number): number[] | null {
  const parts = text.split(',');
  if (parts.length !== count || !parts.every((p) => NUMBER.test(p))) return null;
  return parts.map(Number);
}

const inLat = (v: number) => v >= -90 && v <= 90;
const inLon = (v: number) => v >= -180 && v <= 180;

/**
 * `minLon,minLat,maxLon,maxLat` in degrees. minLon > maxLon is a box across the
 * antimeridian (e.g. 170,-20,-170,20 around Fiji).
 */
export function parseBbox(text: string): BoundingBox | null {
  const values = numbers(text, 4);
  if (!values) return null;
  const [minLon, minLat, maxLon, maxLat] = values as [number, number, number, number];
  if (!inLon(minLon) || !inLon(maxLon) || !inLat(minLat) || !inLat(maxLat) || minLat > maxLat) return null;
  return { minLon, minLat, maxLon, maxLat };
}

/** `lat,lon` in degrees. */
export function parsePoint(text: string): Point | null {
  const values = numbers(text, 2);
  if (!values) return null;
  const [latitude, longitude] = values as [number, number];
  return inLat(latitude) && inLon(longitude) ? { latitude, longitude } : null;
}

export function bboxCenter(box: BoundingBox): Point {
  const width = box.minLon <= box.maxLon ? box.maxLon - box.minLon : 360 - box.minLon + box.maxLon;
  let longitude = box.minLon + width / 2;
  if (longitude > 180) longitude -= 360;
  return { latitude: (box.minLat + box.maxLat) / 2, longitude };
}

/** Comma-separated list: trimmed, empty entries dropped, duplicates removed. */
export function parseList(text: string | undefined): string[] {
  if (!text) return [];
  return [
    ...new Set(
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    ),
  ];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export type DateBound = { kind: 'date'; date: string } | { kind: 'instant'; at: Date };

/** A calendar date (YYYY-MM-DD, compared with the event's local date) or an ISO date-time with offset. */
export function parseDateBound(text: string): DateBound | null {
  const date = DATE.exec(text);
  if (date) {
    const [, y, m, d] = date.map(Number) as [number, number, number, number];
    const probe = new Date(Date.UTC(y, m - 1, d));
    return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d
      ? { kind: 'date', date: text }
      : null;
  }
  if (!DATE_TIME.test(text)) return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : { kind: 'instant', at };
}

/** The earliest instant a bound can denote, for comparing date_from with date_to. */
export function boundStart(bound: DateBound): number {
  return bound.kind === 'instant' ? bound.at.getTime() : Date.parse(`${bound.date}T00:00:00Z`) - 14 * 3600_000;
}

/** The latest instant a bound can denote. */
export function boundEnd(bound: DateBound): number {
  return bound.kind === 'instant' ? bound.at.getTime() : Date.parse(`${bound.date}T23:59:59.999Z`) + 12 * 3600_000;
}
