// Matching tokens into items
import { pointHour, rangeHours, type Endpoint } from './clock';
import { daysItem, timeItem, type Item, type Spanned } from './items';
import {
  APPROX_WORDS,
  DAY_WORDS,
  DAYPART_SUFFIXES,
  FILLERS,
  LEADS,
  MORNING,
  NAMED_ENDPOINTS,
  PHRASES,
  RANGE_CONNECTORS,
  RANGE_WORDS,
  TIME_LEAD_WORDS,
  TIME_SUFFIXES,
  type Lead,
  CONDITION_WORDS,
} from './lexicon';
import { dayRangeMask, hoursMask, reportRounded, roundedBy } from './masks';
import type { Token } from './tokens';

interface Match {
  items: readonly Item[];
  next: number;
}

export class ItemMatcher {
  readonly items: Item[] = [];
  readonly spanned: Spanned[] = [];

  constructor(private readonly toks: readonly Token[]) {}

  run(): Spanned[] {
    let i = 0;
    while (i < this.toks.length) {
      const m = this.matchAt(i);
      const first = this.toks[i];
      const last = this.toks[Math.max(i, m.next - 1)] ?? first;
      this.items.push(...m.items);
      for (const item of m.items) this.spanned.push({ item, start: first?.start ?? 0, end: last?.end ?? 0 });
      i = m.next;
    }
    return this.spanned;
  }

  private tok(i: number): Token | undefined {
    return this.toks[i];
  }

  private word(i: number): string | undefined {
    const t = this.toks[i];
    return t && (t.kind === 'word' || t.kind === 'num') ? t.norm : undefined;
  }

  private matchAt(i: number): Match {
    const t = this.toks[i];
    if (!t) return { items: [], next: i + 1 };
    if (t.kind === 'sep') {
      const bracket =
        t.norm === '(' || t.norm === '[' ? 'open' : t.norm === ')' || t.norm === ']' ? 'close' : undefined;
      return { items: [{ kind: 'sep', level: t.level, ...(bracket && { bracket }) }], next: i + 1 };
    }
    if (t.kind === 'dash') return { items: [], next: i + 1 };
    // "every other Monday": fortnightly does not fit a weekly grid, so "other" is reported, not read as days.
    const fortnightly = t.norm === 'other' && this.word(i - 1) === 'every';
    const matched = fortnightly
      ? null
      : (this.matchTime(i) ?? this.matchDays(i) ?? this.matchAmPm(i) ?? this.matchPhrase(i));
    if (matched) return matched;
    if (t.kind === 'word' && FILLERS.has(t.norm)) return { items: [], next: i + 1 };
    const timeWord = TIME_LEAD_WORDS.has(t.norm) || RANGE_WORDS.has(t.norm);
    const lostTime = timeWord || t.kind === 'num';
    const condition = t.kind === 'word' && CONDITION_WORDS.has(t.norm);
    return {
      items: [{ kind: 'unknown', start: t.start, end: t.end, timeWord, lostTime, ...(condition ? { condition } : {}) }],
      next: i + 1,
    };
  }

  /** Matches a phrase's words from i, allowing dashes between them ("all-day"). */
  private matchWords(i: number, spec: readonly (readonly string[])[]): number | null {
    let j = i;
    for (const [n, options] of spec.entries()) {
      if (n > 0 && this.tok(j)?.kind === 'dash') j++;
      const w = this.word(j);
      if (w === undefined || !options.includes(w)) return null;
      j++;
    }
    return j;
  }

  private matchPhrase(i: number): Match | null {
    for (const p of PHRASES) {
      const next = this.matchWords(i, p.words);
      if (next === null) continue;
      if (p.yieldsToTime && TIME_LEAD_WORDS.has(this.word(next) ?? '')) return { items: [], next };
      return { items: p.items, next };
    }
    return null;
  }

  /** "am" only means morning right after a day ("Saturday am"); otherwise it is "I am". */
  private matchAmPm(i: number): Match | null {
    if (this.word(i) !== 'am') return null;
    const prev = this.items[this.items.length - 1];
    return { items: prev?.kind === 'days' ? [timeItem(MORNING)] : [], next: i + 1 };
  }

  private dayAt(i: number): number | undefined {
    const w = this.word(i);
    return w === undefined ? undefined : DAY_WORDS.get(w);
  }

  /** A day name, or a day range "Mon-Fri" / "Monday to Friday" / "mon thru thurs". */
  private matchDays(i: number): Match | null {
    const from = this.dayAt(i);
    if (from === undefined) return null;
    const sep = this.tok(i + 1);
    const isRangeSep = sep?.kind === 'dash' || (sep?.kind === 'word' && RANGE_WORDS.has(sep.norm));
    const to = isRangeSep ? this.dayAt(i + 2) : undefined;
    if (to === undefined) return { items: [daysItem(1 << from, false)], next: i + 1 };
    return { items: [daysItem(dayRangeMask(from, to), false)], next: i + 3 };
  }

  private matchLead(i: number): { lead: Lead; next: number } {
    for (const lead of LEADS) {
      const next = this.matchWords(i, lead.words);
      if (next !== null) return { lead: lead.lead, next };
    }
    return { lead: 'none', next: i };
  }

  private matchEndpoint(i: number): { endpoint: Endpoint; next: number } | null {
    let j = i;
    while (APPROX_WORDS.has(this.word(j) ?? '')) j++;
    const t = this.tok(j);
    if (!t) return null;
    let endpoint: Endpoint | null = null;
    if (t.kind === 'num') endpoint = { kind: 'clock', clock: t.clock };
    else if (t.kind === 'word') {
      const named = NAMED_ENDPOINTS.get(t.norm);
      if (named) endpoint = { kind: 'named', ...named };
    }
    if (!endpoint) return null;
    j++;
    // "7ish", "7-ish", "7 o'clock"
    if (this.tok(j)?.kind === 'dash' && this.word(j + 1) === 'ish') j += 2;
    else if (TIME_SUFFIXES.has(this.word(j) ?? '')) j++;
    return this.withDaypart(endpoint, j);
  }

  /** "7 in the evening", "10 at night", "9 in the morning" give a bare hour its am/pm. */
  private withDaypart(endpoint: Endpoint, j: number): { endpoint: Endpoint; next: number } {
    if (endpoint.kind !== 'clock' || endpoint.clock.meridiem || endpoint.clock.clock24) return { endpoint, next: j };
    for (const { words: suffix, meridiem } of DAYPART_SUFFIXES) {
      const next = this.matchWords(j, suffix);
      if (next !== null) return { endpoint: { kind: 'clock', clock: { ...endpoint.clock, meridiem } }, next };
    }
    return { endpoint, next: j };
  }

  /** Where the end of a range starts after `i`: "-", "to", "and" after "between", "and ending at". */
  private matchRangeConnector(i: number): number | null {
    for (const spec of RANGE_CONNECTORS) {
      const next = this.matchWords(i, spec);
      if (next !== null) return next;
    }
    const t = this.tok(i);
    if (!t) return null;
    if (t.kind === 'dash') return i + 1;
    if (this.lastLead === 'between' && (t.norm === 'and' || t.norm === '&')) return i + 1;
    return t.kind === 'word' && RANGE_WORDS.has(t.norm) ? i + 1 : null;
  }

  /** "onwards", "or later": turns a point into an open-ended start. */
  private matchOnwards(i: number): number | null {
    const w = this.word(i);
    if (w === 'onwards' || w === 'onward') return i + 1;
    if ((w === 'or' || w === 'and') && this.word(i + 1) === 'later') return i + 2;
    return null;
  }

  /** The lead of the time being matched ("between" lets "and" join a range). */
  private lastLead: Lead = 'none';

  private matchTime(i: number): Match | null {
    const { lead, next: afterLead } = this.matchLead(i);
    this.lastLead = lead;
    const a = this.matchEndpoint(afterLead);
    if (!a) return null;
    let next = a.next;

    const connector = lead === 'before' ? null : this.matchRangeConnector(next);
    if (connector !== null) {
      const b = this.matchEndpoint(connector);
      if (b) {
        const [start, end] = rangeHours(a.endpoint, b.endpoint);
        return { items: [timeItem(hoursMask(start, end), { narrows: 'fixed', range: true })], next: b.next };
      }
    }

    const onwards = lead === 'before' ? null : this.matchOnwards(next);
    if (onwards !== null) next = onwards;
    const guessed = roundedBy(() => this.singleTimeMask(lead, a.endpoint, onwards !== null));
    const mask = guessed.value;
    if (mask === null) return null;
    reportRounded(guessed.rounded);
    const open = lead === 'after' || lead === 'before' || lead === 'from' || onwards;
    // A bare hour ("from 8") could be morning or evening: its other reading goes with it.
    const e = a.endpoint;
    const bare = e.kind === 'clock' && !e.clock.meridiem && !e.clock.clock24 && e.clock.hour >= 1 && e.clock.hour <= 11;
    const other = bare ? roundedBy(() => this.singleTimeMask(lead, e, onwards !== null, true)) : null;
    const readings =
      other?.value != null
        ? { otherReading: other.value, readingsRounded: { guessed: guessed.rounded, other: other.rounded } }
        : {};
    return { items: [timeItem(mask, { narrows: open ? 'open' : 'fixed', ...readings })], next };
  }

  /** `flip`: the bare hour read the other way (8 → 20, 9pm → 9am). */
  private singleTimeMask(lead: Lead, e: Endpoint, onwards: boolean, flip = false): number | null {
    const hour = (role: 'start' | 'end', bias: 'after' | 'default') => {
      const h = pointHour(e, role, bias);
      return flip ? (h >= 12 ? h - 12 : h + 12) : h;
    };
    if (lead === 'after' || lead === 'from' || onwards) {
      return hoursMask(hour('end', lead === 'after' ? 'after' : 'default'), 24);
    }
    if (lead === 'before') return hoursMask(0, hour('start', 'default'));
    if (lead === 'between') return null;
    // Named times alone ("noon", "late evening") are left to the phrase table.
    if (lead === 'none' && e.kind === 'named') return null;
    if (e.kind === 'named') {
      // "at lunch" covers lunch; "at noon" the slot starting then.
      return e.end > e.start ? hoursMask(e.start, e.end) : hoursMask(e.start, Math.floor(e.start) + 1);
    }
    // Without a preposition a bare number is not a time ("2 evenings a week").
    const c = e.clock;
    if (lead === 'none' && !c.meridiem && !c.clock24 && c.minute === 0) return null;
    const h = Math.floor(hour('start', 'default'));
    return hoursMask(h, h + 1);
  }
}
