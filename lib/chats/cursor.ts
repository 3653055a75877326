// The opaque paging cursors of messages.json: the one in poll_next_url means "everything
// after message id N" in one chat, older_cursor means "the page before message id N".
// Message ids in a chat are committed in increasing order (inserts hold the chat row
// lock), so following cursors yields no gaps and no duplicates even when many messages
// share a millisecond.
import { ApiError } from '../core/errors';

const VERSION = 'm1';
const OLDER = 'o1';

export type MessageCursor = { after: number } | { before: number };

export function encodeCursor(afterMessageId: number): string {
  return Buffer.from(`${VERSION}:${afterMessageId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^m1:(\d{1,16})$/.exec(text);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

export function encodeOlderCursor(beforeMessageId: number): string {
  return Buffer.from(`${OLDER}:${beforeMessageId}`, 'utf8').toString('base64url');
}

export function decodeOlderCursor(cursor: string): number | null {
  const match = /^o1:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** A cursor that pages back (older_cursor): it never means "nothing new yet", so nothing waits on it. */
export const isOlderCursor = (cursor: string | undefined) => cursor !== undefined && decodeOlderCursor(cursor) !== null;

export function decodeCursorOrThrow(cursor: string): MessageCursor {
  const before = decodeOlderCursor(cursor);
  if (before !== null) return { before };
  const after = decodeCursor(cursor);
  if (after === null) {
    throw new ApiError('validation_failed', 'That cursor is not one this API returned.', {
      hint: 'Copy poll_next_url or older_cursor as it was returned; the cursor is opaque.',
      fields: { cursor: 'not a cursor this API returned' },
    });
  }
  return { after };
}

export function cursorAhead(): ApiError {
  return new ApiError('validation_failed', 'That cursor points past the last message of this chat.', {
    hint: 'Copy poll_next_url exactly as it was returned, or omit cursor to read the latest messages.',
    fields: { cursor: 'past the last message: not a cursor this API returned' },
  });
}
