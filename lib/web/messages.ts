// Merging polled chat messages into what a page already shows.
import type { MessageRecord } from '../contract/chats';

/**
 * Adds the messages not seen yet, in id order (ids grow within a chat). Polls overlap
 * on purpose, so repeats are expected and dropped; the same array comes back when
 * nothing is new, so React does not re-render.
 */
export function mergeMessages(
  known: readonly MessageRecord[],
  incoming: readonly MessageRecord[],
): readonly MessageRecord[] {
  const seen = new Set(known.map((m) => m.id));
  const fresh = incoming.filter((m) => !seen.has(m.id));
  if (fresh.length === 0) return known;
  return [...known, ...fresh].sort((a, b) => Number(a.id) - Number(b.id));
}
