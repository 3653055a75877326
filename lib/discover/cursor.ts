// The opaque Discover cursor: "after (score, nearness, id)" in the order score desc, nearness asc, id asc,
// plus the moment the search started (so the recent-activity term does not drift
// while paging) and a fingerprint of the filters (so a cursor cannot be replayed
// against a different search and silently skip people).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../core/errors';

export interface DiscoverCursor {
  /** Score of the last result returned, as the exact decimal string from SQL. */
  score: string;
  /** km between the public points of the caller and the last result, to the metre (ties of score, nearest first). */
  nearness?: string;
  /** Id of the last result returned. */
  id: string;
  /** When the first page was computed (ms since epoch). */
  asOf: number;
  /** filtersFingerprint() of the search. */
  filters: string;
  /** The radius the first page used (less than asked in a dense place), so every page reads the same people. */
  radiusKm?: number;
  /** And the radius within which it read people sharing two or more searched activities. */
  pairsRadiusKm?: number;
}

// 2: ties of score are broken by nearness (issue 42); a version 1 cursor is not one any more.
const VERSION = 2;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The moments a cursor may carry: from before this API existed up to a day ahead (clock
 * skew between instances). Anything else was not issued by us, and a time past year
 * 9999 breaks the SQL it feeds (`toISOString()` throws beyond ±8.64e15 ms).
 */
const EARLIEST_AS_OF = Date.UTC(2024, 0, 1);
const FUTURE_SKEW_MS = 24 * 3600_000;

const wireSchema = z.strictObject({
  v: z.literal(VERSION),
  s: z.string().regex(/^\d{1,3}(\.\d{1,8})?$/),
  i: z.string().regex(UUID),
  d: z
    .string()
    .regex(/^\d{1,5}(\.\d{1,3})?$/)
    .optional(),
  t: z.number().int().min(EARLIEST_AS_OF),
  f: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
  r: z.number().int().min(0).max(1000).optional(),
  p: z.number().int().min(0).max(1000).optional(),
});

export function encodeCursor(cursor: DiscoverCursor): string {
  const wire = {
    v: VERSION,
    s: cursor.score,
    d: cursor.nearness,
    i: cursor.id,
    t: cursor.asOf,
    f: cursor.filters,
    r: cursor.radiusKm,
    p: cursor.pairsRadiusKm,
  };
  return Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
}

/** The cursor, or null when the text is not one this API issued (any version, or values out of range). */
export function decodeCursor(text: string, now: number = Date.now()): DiscoverCursor | null {
  if (text.length > 400 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const result = wireSchema.safeParse(parsed);
  if (!result.success) return null;
  const { s, d, i, t, f, r, p } = result.data;
  if (t > now + FUTURE_SKEW_MS) return null;
  return {
    score: s,
    ...(d === undefined ? {} : { nearness: d }),
    id: i,
    asOf: t,
    filters: f,
    ...(r === undefined ? {} : { radiusKm: r }),
    ...(p === undefined ? {} : { pairsRadiusKm: p }),
  };
}

/** A short stable hash of the search's filters (everything but limit and cursor). */
export function filtersFingerprint(filters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(filters)
      .sort()
      .map((key) => [key, filters[key] ?? null]),
  );
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

const invalidCursor = (reason: string) =>
  new ApiError('validation_failed', 'That page marker (cursor) does not fit this search.', {
    hint: 'Pass next_cursor exactly as the previous page returned it, with the same filters; or omit cursor to start again.',
    fields: { cursor: reason },
  });

/** Decodes a cursor and checks it belongs to this search; 400 validation_failed otherwise. */
export function readCursorOrThrow(text: string, fingerprint: string): DiscoverCursor {
  const cursor = decodeCursor(text);
  if (!cursor) throw invalidCursor('not a cursor this API returned');
  if (cursor.filters !== fingerprint) throw invalidCursor('belongs to a search with different filters');
  return cursor;
}
