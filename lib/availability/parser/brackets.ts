// Brackets: asides read past, days in brackets naming which of a day set.
import type { Item, Spanned } from './items';

/**
 * Brackets that add nothing to the grid are asides: "most Mondays (apart from Bank holidays) 8-10pm"
 * reads on as "Mondays 8-10pm", the aside's words reported. Days in brackets after a day set name
 * which of them: "two 9:00 to 5:00 workdays (Sat, Sun)" are Saturday and Sunday.
 */
export function resolveBrackets(items: readonly Spanned[]): Spanned[] {
  const out: Spanned[] = [];
  for (let i = 0; i < items.length; i++) {
    const open = items[i];
    if (!open) continue;
    if (open.item.kind !== 'sep' || open.item.bracket !== 'open') {
      out.push(open);
      continue;
    }
    let close = i + 1;
    while (close < items.length && !isBracket(items[close]?.item, 'close') && !isBracket(items[close]?.item, 'open'))
      close++;
    const inside = items.slice(i + 1, close);
    if (!isBracket(items[close]?.item, 'close')) {
      out.push(open);
      continue;
    }
    const meaningful = inside.filter(({ item }) => item.kind === 'days' || item.kind === 'time');
    const before = out[out.length - 1];
    if (meaningful.length === 0) {
      // An aside: its unknown words stay (and are reported); its negation has nothing to negate.
      out.push(...inside.filter(({ item }) => item.kind === 'unknown'));
      i = close;
    } else if (
      before?.item.kind === 'days' &&
      before.item.collective &&
      !before.item.others &&
      inside.every(({ item }) => item.kind === 'days' || (item.kind === 'sep' && item.level !== 'hard'))
    ) {
      const named = meaningful.reduce((acc, { item }) => acc | (item.kind === 'days' ? item.mask : 0), 0);
      out[out.length - 1] = { ...before, item: { ...before.item, mask: named, collective: false } };
      i = close;
    } else out.push(open);
  }
  return out;
}

function isBracket(item: Item | undefined, side: 'open' | 'close'): boolean {
  return item?.kind === 'sep' && item.bracket === side;
}
