// What was not understood: the fragments reported back, each with the clause it sat in.
import type { Spanned } from './items';

/** The separator-bounded clause around [start, end), or null when nothing else in it was understood. */
function clauseAround(text: string, items: readonly Spanned[], start: number, end: number): string | null {
  let from = 0;
  let to = text.length;
  for (const { item, start: s, end: e } of items) {
    if (item.kind !== 'sep') continue;
    if (e <= start) from = Math.max(from, e);
    else if (s >= end) to = Math.min(to, s);
  }
  const understood = items.some(
    ({ item, start: s }) => item.kind !== 'sep' && item.kind !== 'unknown' && s >= from && s < to,
  );
  return understood ? text.slice(from, to).trim() : null;
}

/** Joins adjacent unknown tokens (fillers between them included) into fragments, each with its clause. */
export function unknownFragments(text: string, items: readonly Spanned[]): string[] {
  const fragments: string[] = [];
  let span: { start: number; end: number } | null = null;
  const flush = (): void => {
    if (span) {
      const fragment = text.slice(span.start, span.end).trim();
      const clause = clauseAround(text, items, span.start, span.end);
      if (fragment) fragments.push(clause === null ? fragment : `${fragment} (in "${clause}")`);
    }
    span = null;
  };
  for (const { item, start, end } of items) {
    if (item.kind !== 'unknown') flush();
    else if (span) span.end = end;
    else span = { start, end };
  }
  flush();
  return fragments;
}
