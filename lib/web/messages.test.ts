import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../contract/chats';
import { mergeMessages } from './messages';

const message = (id: number): MessageRecord => ({
  id: String(id),
  chatId: 'c',
  sender_id: 'u',
  from_me: false,
  text: `m${id}`,
  created_at: new Date(1_700_000_000_000 + id).toISOString(),
  created_at_ms: 1_700_000_000_000 + id,
  agent_name: null,
});

describe('mergeMessages', () => {
  it('appends new messages and drops the overlap a poll re-reads', () => {
    const merged = mergeMessages([message(1), message(2)], [message(2), message(3)]);
    expect(merged.map((m) => m.id)).toEqual(['1', '2', '3']);
  });

  it('orders by id numerically, whatever order they came in', () => {
    expect(mergeMessages([message(9)], [message(11), message(10)]).map((m) => m.id)).toEqual(['9', '10', '11']);
  });

  it('returns the same array when nothing is new', () => {
    const known = [message(1)];
    expect(mergeMessages(known, [message(1)])).toBe(known);
    expect(mergeMessages(known, [])).toBe(known);
  });
});
