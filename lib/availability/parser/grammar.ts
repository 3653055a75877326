// Grammar over items (recursive descent; the matcher turns words into items).
//
//   text       := sentence (HARD sentence)*          HARD = . ; ! ? newline "so" "because"
//   sentence   := part (SEP? part)*                  SEP = , ( ) & / "and" "or" "plus" "but"
//   part       := phrase                             a positive clause
//               | (EXCEPT | NEG) exceptList          after a clause: takes from it (right after
//                                                    it) or, after a separator, from every clause
//                                                    of the sentence so far
//               | (EXCEPT | NEG) phrase              with no clause before: busy times, taken from
//                                                    everything; alone they store nothing and ask
//   phrase     := (days | time)+                     items join while joinsDays/joinsTime allow, so
//                                                    a time range binds to the day phrase it follows
//   exceptList := piece (SEP piece)*                 a further piece that would take nothing away
//                                                    ends the list and starts a new phrase
//                                                    ("except Wednesdays and Sunday mornings")
//   piece      := (days | time)+ with no separator inside
import { DAYS, mapGrid, type Grid } from '../grid';
import {
  addToClause,
  clauseWeek,
  isEmptyClause,
  joinsDays,
  joinsTime,
  newClause,
  overlaps,
  type Clause,
  type Week,
} from './clause';
import type { Item, Spanned } from './items';
import { ALL_DAYS, WEEKDAYS } from './masks';
import type { SepLevel } from './tokens';

export class AvailabilityParser {
  private pos = 0;
  private readonly positives: Week[] = [];
  private readonly busy: Week[] = [];
  /** Text spans of busy parts ("not mondays"): a question when nothing positive is said. */
  private readonly busySpans: { start: number; end: number }[] = [];

  constructor(private readonly items: readonly Spanned[]) {}

  parse(): { grid: Grid; busyOnly: { start: number; end: number }[] } {
    while (this.pos < this.items.length) this.sentence();
    const on = Array.from({ length: DAYS }, (_, d) => this.positives.reduce((acc, w) => acc | (w[d] ?? 0), 0));
    const off = Array.from({ length: DAYS }, (_, d) => this.busy.reduce((acc, w) => acc | (w[d] ?? 0), 0));
    const grid = mapGrid((d, s) => ((on[d] ?? 0) & ~(off[d] ?? 0) & (1 << s)) !== 0);
    const anyPositive = this.positives.some((w) => w.some((slots) => slots !== 0));
    return { grid, busyOnly: anyPositive ? [] : this.busySpans };
  }

  private at(i: number): Item | undefined {
    return this.items[i]?.item;
  }

  /** Days some clause so far says are free ("other nights" are the rest). */
  private namedDays(): number {
    let days = 0;
    for (const week of this.positives) for (let d = 0; d < DAYS; d++) if (week[d]) days |= 1 << d;
    return days;
  }

  /** Skips separators (below sentence level) and unknown words from i; the combined separator level. */
  private skipGlue(i: number): { next: number; sep: SepLevel | null; comma: boolean } {
    let sep: SepLevel | null = null;
    let comma = false;
    let j = i;
    for (let item = this.at(j); item; item = this.at(++j)) {
      if (item.kind === 'unknown') continue;
      if (item.kind !== 'sep' || item.level === 'hard') break;
      if (item.level === 'soft' && !item.bracket) comma = true;
      sep = sep === 'conj' || item.level === 'conj' ? 'conj' : 'soft';
    }
    return { next: j, sep, comma };
  }

  private sentence(): void {
    const clauses: Week[] = [];
    let separated = false;
    let dangling = false;
    /** The last clause says "whenever" (unread words after it make it a condition). */
    let conditional = false;
    /** The last thing read was an exception list ("except Thursdays"). */
    let excepted = false;
    /** "and"/"or" since the last clause: what follows is a clause of its own ("weekends and when…"). */
    let conjoined = false;
    while (this.pos < this.items.length) {
      const item = this.at(this.pos);
      if (!item) break;
      if (item.kind === 'sep') {
        this.pos++;
        if (item.level === 'hard') return;
        separated = true;
        conjoined ||= item.level === 'conj';
        dangling = false;
      } else if (item.kind === 'unknown') {
        this.pos++;
        const last = clauses[clauses.length - 1];
        if (item.timeWord) {
          // "weeknights after xyz 8": a time we could not read would have narrowed its clause.
          if (last && !separated) last.fill(0);
          dangling = true;
        } else if (last && ((conditional && !separated) || (item.condition && !excepted && !conjoined))) {
          // "whenever the moon is blue", "saturdays if it is sunny": a condition we cannot read; its
          // clause stores nothing (never wider than offered). After "except" a condition only
          // explains the exception ("except Thursdays when I have choir"), which still holds.
          last.fill(0);
        }
      } else if (item.kind === 'neg') {
        this.negation(clauses, separated);
        separated = false;
        dangling = false;
        excepted = true;
        conjoined = false;
      } else {
        const phrase = this.phrase(true);
        if (dangling && !separated) phrase.broken = true;
        dangling = false;
        const week = clauseWeek(phrase);
        this.positives.push(week);
        clauses.push(week);
        conditional = phrase.condition === true;
        excepted = false;
        conjoined = false;
        separated = false;
      }
    }
  }

  /** A phrase from pos; `acrossSeparators` false reads one except-list piece. */
  private phrase(acrossSeparators: boolean): Clause {
    const c = newClause();
    let i = this.pos;
    for (;;) {
      const { next, sep, comma } = isEmptyClause(c) ? { next: i, sep: null, comma: false } : this.skipGlue(i);
      const found = this.at(next);
      if (!found || (found.kind !== 'days' && found.kind !== 'time')) break;
      const item = found.kind === 'days' && found.others ? { ...found, mask: ALL_DAYS & ~this.namedDays() } : found;
      if (!isEmptyClause(c)) {
        if (sep !== null && !acrossSeparators) break;
        // "all day saturday and sunday morning": a day with its own time after it is a clause of its own.
        const allDayList = c.first === 'time' && c.times.length > 0 && c.times.every((t) => t.allDay);
        if (item.kind === 'days' && sep !== null && allDayList && this.at(next + 1)?.kind === 'time') break;
        // "sundays, and whenever my kids are at school": a condition after a separator is its own clause.
        if (item.kind === 'time' && item.condition && sep !== null) break;
        // "saturdays, and thursdays from 5:30pm": a comma before "and" after a single day is two
        // clauses, and the time is Thursday's ("Mon, Wed and Fri after 6" is one list).
        if (item.kind === 'days' && sep === 'conj' && comma && c.dayItems === 1 && c.times.length === 0) break;
        const joins = item.kind === 'days' ? joinsDays(c, item, sep) : joinsTime(c, item, sep);
        if (!joins) break;
      }
      // A word we do not know between two times ("from 7 xyz to 9pm") may change how they combine.
      const clockTime = item.kind === 'time' && item.narrows !== undefined;
      if (clockTime && c.times.length > 0 && next > i && sep === null) c.broken = true;
      // "Sunday from xyz 7 to 9pm": a time we could not read sat between the parts.
      for (let k = i; k < next; k++) {
        const skipped = this.at(k);
        if (skipped?.kind === 'unknown' && skipped.lostTime && !isEmptyClause(c)) c.broken = true;
        // "whenever the moon is blue on Saturdays": the condition holds the days too.
        if (skipped?.kind === 'unknown' && c.condition) c.broken = true;
      }
      addToClause(c, item, sep);
      i = next + 1;
      this.pos = i;
    }
    return c;
  }

  private negation(clauses: Week[], separated: boolean): void {
    const start = this.items[this.pos]?.start ?? 0;
    const negAt = this.pos;
    const neg = this.at(negAt);
    const work = neg?.kind === 'neg' && neg.work === true;
    this.pos++;
    let next = this.pos;
    while (this.at(next)?.kind === 'unknown') next++;
    const negated = this.at(next);
    if (next > this.pos && negated?.kind !== 'days' && negated?.kind !== 'time') {
      // "whenever it is not raining": a condition we cannot read; its clause stores nothing.
      const last = clauses[clauses.length - 1];
      if (last && !separated) last.fill(0);
      return;
    }
    this.pos = next;
    if (clauses.length === 0) {
      const c = this.phrase(true);
      if (isEmptyClause(c)) return;
      if (work && !c.hasDays) c.defaultDays ??= WEEKDAYS;
      this.busy.push(clauseWeek(c));
      this.busySpans.push({ start, end: this.items[this.pos - 1]?.end ?? start });
      return;
    }
    const last = clauses[clauses.length - 1];
    this.exceptList(separated || !last ? clauses : [last]);
  }

  /** Takes each piece from the targets; a later piece that takes nothing is left for a new phrase. */
  private exceptList(targets: Week[]): void {
    for (let first = true; ; first = false) {
      const save = this.pos;
      const { next, sep } = this.skipGlue(this.pos);
      if (!first && sep === null) return;
      this.pos = first ? this.pos : next;
      const c = this.phrase(false);
      if (isEmptyClause(c)) {
        this.pos = save;
        return;
      }
      const taken = clauseWeek(c);
      if (!first && !targets.some((t) => overlaps(t, taken))) {
        this.pos = save;
        return;
      }
      for (const t of targets) for (let d = 0; d < DAYS; d++) t[d] = (t[d] ?? 0) & ~(taken[d] ?? 0);
    }
  }
}
