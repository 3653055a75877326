// The opaque paging cursor in poll_next_url: "everything after message id N" in
// one chat. Message ids in a chat are committed in increasing order (inserts hold
// the chat row lock), so following cursors yields no gaps and no duplicates even
// when many messages share a millisecond.
import { ApiError } from '../http/errors';

const VERSION = 'm1';

export function encodeCursor(afterMessageId: number): string {
  return Buffer.from(`${VERSION}:${afterMessageId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^m1:(\d{1,16})$/.exec(text);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

export function decodeCursorOrThrow(cursor: string): number {
  const after = decodeCursor(cursor);
  if (after === null) {
    throw new ApiError('validation_failed', 'That cursor is not one this API returned.', {
      hint: 'Copy poll_next_url as it was returned; the cursor is opaque.',
      fields: { cursor: 'not a cursor this API returned' },
    });
  }
  return after;
}

export function cursorAhead(): ApiError {
  return new ApiError('validation_failed', 'That cursor points past the last message of this chat.', {
    hint: 'Copy poll_next_url exactly as it was returned, or omit cursor to read the latest messages.',
    fields: { cursor: 'past the last message: not a cursor this API returned' },
  });
}
