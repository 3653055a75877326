import { describe, expect, it } from 'vitest';
import { decodeInboxCursor, encodeInboxCursor } from './poll-cursor';

describe('inbox poll cursor', () => {
  it('round-trips a snapshot, with and without transactions in progress', () => {
    for (const snapshot of ['740:740:', '740:745:741,743', '3:3:']) {
      expect(decodeInboxCursor(encodeInboxCursor(snapshot))).toBe(snapshot);
    }
  });

  it('refuses what PostgreSQL would refuse, and anything else', () => {
    const bad = ['745:740:', '740:745:746', '740:745:743,741', '740:745:741,741', '0:0:', '1:2:x', '', 'm1:5'];
    for (const snapshot of bad) expect(decodeInboxCursor(encodeInboxCursor(snapshot))).toBeNull();
    expect(decodeInboxCursor('not base64 at all!')).toBeNull();
    expect(decodeInboxCursor(encodeInboxCursor(`1:99999999999999999999:`))).toBeNull();
  });
});
