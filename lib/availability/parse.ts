/**
 * Parser for plain-English availability ("weekends and Tue evenings after 7").
 *
 * Pipeline: tokenize → correct typos → lexer (phrases into items: days, times, negation,
 * separators) → a recursive-descent grammar over the items (parser/grammar.ts) that gives
 * every clause an explicit scope → union of free clauses minus busy ones.
 *
 * Vocabulary follows the period contract in grid.ts (morning 6-12, afternoon 12-17,
 * evening/night 17-24). Extra rules worth knowing:
 *  - "weekends" alone is all day Saturday + Sunday; "weekdays" is Mon-Fri;
 *    "weeknights" is Mon-Fri evenings; "after work" is weekdays 17-24 and "before work"
 *    weekdays 6-9 unless days are named; "early" is 6-9, "late" 20-24, "lunchtime" 12-14.
 *  - Days without times mean all day; times without days mean every day.
 *  - A time binds to the day phrase it follows ("Tue and Thu evenings"), but a collective
 *    ("weekends", "every day") followed by "and"/"or" starts a new clause, so
 *    "weekends and evenings" is all weekend plus every evening.
 *  - "except" takes from the clause it follows; in its list "and"/commas join excluded items
 *    while they overlap that clause ("except Wed and Thu"); an item that would remove nothing
 *    is more free time ("weekday evenings except Wednesdays and Sunday mornings").
 *  - Busy times with no free time at all ("not mondays") store nothing and ask.
 *  - Times round inward to whole slots, never claiming time not offered (a start of 9:30
 *    counts from 10:00, an end of 9:30 up to 9:00), and clamp to 6am-midnight. A point
 *    ("at 7:30") is the hour it falls in.
 *  - Bare hours guess am/pm: 8-11 → am, 12 → noon, 1-7 → pm; "after N" reads 1-9 as pm;
 *    in a range the other end's am/pm wins ("7 to 10pm" = 19-22, "10-2" = 10am-2pm).
 *  - A bare number with no am/pm, minutes or preposition is not a time ("2 evenings"); numbers
 *    in words are times only with am/pm or o'clock ("two pm").
 *  - A clock range after a comma or in brackets states the hours of the period before it
 *    ("afternoons, 4:00 to 6:00"); a bracket with nothing placeable is an aside, reported,
 *    and the clause reads on past it ("Mondays (apart from Bank holidays) 8-10pm").
 *  - "other nights" are the days no clause so far named as free.
 * Anything not understood is reported in `unparsed`, and every time off the hour in
 * `rounded` (with the hour counted for it); the parser never throws.
 */
import { emptyGrid, type Grid } from './grid';
import { resolveBrackets } from './parser/brackets';
import { AvailabilityParser } from './parser/grammar';
import { collectRoundedTimes, stopCollectingRoundedTimes } from './parser/masks';
import { ItemMatcher } from './parser/matcher';
import { tokenize } from './parser/tokens';
import { correctTypos } from './parser/typos';
import { unknownFragments } from './parser/unparsed';

export const MAX_TEXT_LENGTH = 500;

export interface ParseResult {
  grid: Grid;
  /** Trimmed fragments of the input that were not understood. */
  unparsed: string[];
  /** Times between whole hours, each with how it was counted ("6:30pm falls in the hour 6pm–7pm, so free time is counted from 7pm …"). */
  rounded: string[];
  /** Misspelt words read as the word they were close to ('read "evnings" as "evenings"'). */
  corrected: string[];
}

function clockText(hour: number): string {
  const h = Math.floor(hour);
  const minutes = Math.round((hour - h) * 60);
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return `${twelve}:${String(minutes).padStart(2, '0')}${h >= 12 && h < 24 ? 'pm' : 'am'}`;
}

function hourText(hour: number): string {
  if (hour === 12) return 'noon';
  if (hour === 0 || hour === 24) return 'midnight';
  return hour < 12 ? `${hour}am` : `${hour - 12}pm`;
}

function parseUnchecked(text: string): ParseResult {
  const head = text.slice(0, MAX_TEXT_LENGTH);
  const roundedTimes = collectRoundedTimes();
  try {
    const tokens = tokenize(head);
    const corrected = correctTypos(tokens);
    const items = resolveBrackets(new ItemMatcher(tokens).run());
    const { grid, busyOnly } = new AvailabilityParser(items).parse();
    const unparsed = unknownFragments(head, items);
    for (const { start, end } of busyOnly) {
      unparsed.push(
        `"${head.slice(start, end).trim()}" says only when they are busy, so nothing was stored for it: ` +
          'ask which days and times they are free',
      );
    }
    const overflow = text.slice(MAX_TEXT_LENGTH).trim();
    if (overflow) unparsed.push(overflow.length > 60 ? `${overflow.slice(0, 60)}…` : overflow);
    const rounded = [...roundedTimes.values()]
      .sort((a, b) => a.time - b.time || (a.role === 'start' ? -1 : 1))
      .map(
        ({ time, role }) =>
          `${clockText(time)} falls in the hour ${hourText(Math.floor(time))}–${hourText(Math.floor(time) + 1)}, ` +
          `so free time is counted ${role === 'start' ? `from ${hourText(Math.ceil(time))}` : `until ${hourText(Math.floor(time))}`} ` +
          '(it is kept in whole hours, and an hour only partly free is left out)',
      );
    return { grid, unparsed, rounded, corrected };
  } finally {
    stopCollectingRoundedTimes();
  }
}

/**
 * Parses plain-English availability into the weekly grid. Reads at most
 * MAX_TEXT_LENGTH characters (the rest is reported as unparsed). Never throws.
 */
export function parseAvailabilityText(text: string): ParseResult {
  if (typeof text !== 'string') return { grid: emptyGrid(), unparsed: [], rounded: [], corrected: [] };
  try {
    return parseUnchecked(text);
  } catch {
    // Defensive only: a parser bug must not fail a profile save, so report it all as unparsed.
    const trimmed = text.slice(0, 60).trim();
    return { grid: emptyGrid(), unparsed: trimmed ? [trimmed] : [], rounded: [], corrected: [] };
  }
}
