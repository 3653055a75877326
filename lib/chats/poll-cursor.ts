// The inbox's poll cursor (issue 30): the PostgreSQL snapshot an answer was read in.
//
// A row is new to the next poll exactly when its writing transaction was not visible in
// that snapshot (messages.xid, buddy_requests.state_xid; migration 0022). Unlike ids or
// timestamps, which are taken before commit and so commit out of order, this never
// repeats a row and never skips one, whatever commits while a poll runs.
import { sql, type SqlBool } from 'kysely';
import { ApiError } from '../core/errors';

/** What counts as new: after a time (`since`), or not yet visible in the snapshot a poll cursor carries (exact). */
export type NewAfter = { since: Date } | { snapshot: string };

/** The row's writing transaction (`xidColumn`, an xid8) was not visible in `snapshot`. */
export const unseenIn = (xidColumn: string, snapshot: string) =>
  sql<SqlBool>`not pg_visible_in_snapshot(${sql.ref(xidColumn)}, ${snapshot}::pg_snapshot)`;

/** The row is new after `after`: unseen in the cursor's snapshot, or, with only a time, written after it. */
export const changedAfter = (xidColumn: string, timeColumn: string, after: NewAfter) =>
  'snapshot' in after ? unseenIn(xidColumn, after.snapshot) : sql<SqlBool>`${sql.ref(timeColumn)} > ${after.since}`;

const PREFIX = 'i1:';
/** A snapshot lists the transactions running when it was taken: bounded by connections. */
const MAX_IN_PROGRESS = 2_000;

export function encodeInboxCursor(snapshot: string): string {
  return Buffer.from(PREFIX + snapshot, 'utf8').toString('base64url');
}

/** The snapshot text ("xmin:xmax:xip,...") in a cursor, or null when it is not one this API could have issued. */
export function decodeInboxCursor(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^i1:(\d{1,19}):(\d{1,19}):((?:\d{1,19})(?:,\d{1,19})*)?$/.exec(text);
  if (!match) return null;
  const xmin = BigInt(match[1]!);
  const xmax = BigInt(match[2]!);
  if (xmin === 0n || xmin > xmax || xmax > 2n ** 63n - 1n) return null;
  const running = match[3] ? match[3].split(',').map(BigInt) : [];
  if (running.length > MAX_IN_PROGRESS) return null;
  // PostgreSQL's own rule for a snapshot: in-progress ids ascending, within [xmin, xmax).
  let previous = xmin - 1n;
  for (const xid of running) {
    if (xid <= previous || xid >= xmax) return null;
    previous = xid;
  }
  return text.slice(PREFIX.length);
}

export function invalidInboxCursor(): ApiError {
  return new ApiError('validation_failed', 'That cursor is not one this API returned.', {
    hint: 'Copy poll_next_url (or the cursor field) exactly as the last answer returned it; the cursor is opaque.',
    fields: { cursor: 'not a cursor this API returned' },
  });
}

export function decodeInboxCursorOrThrow(cursor: string): string {
  const snapshot = decodeInboxCursor(cursor);
  if (snapshot === null) throw invalidInboxCursor();
  return snapshot;
}

/** chats.json's cursor: the inbox version its list was read at (any other version answers at once). */
export function encodeVersionCursor(version: string): string {
  return Buffer.from(`v1:${version}`, 'utf8').toString('base64url');
}

export function decodeVersionCursor(cursor: string): string {
  const match = /^v1:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw invalidInboxCursor();
  return match[1]!;
}
