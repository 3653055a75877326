/**
 * Parser for plain-English availability ("weekends and Tue evenings after 7").
 *
 * Pipeline: tokenize → correct typos → lexer (phrases into items: days, times, negation,
 * separators) → a recursive-descent grammar over the items (see "Grammar" below) that gives
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
 *  - Times round outward to whole slots (a start of 9:30 uses the 9:00 slot, an end of
 *    9:30 includes it) and clamp to 6am-midnight.
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
import { DAYS, emptyGrid, FIRST_HOUR, mapGrid, PERIODS, SLOTS, type Grid, type Period } from './grid';

export const MAX_TEXT_LENGTH = 500;

export interface ParseResult {
  grid: Grid;
  /** Trimmed fragments of the input that were not understood. */
  unparsed: string[];
  /** Times between whole hours, each with the hour counted for it ("6:30pm falls in the hour 6pm–7pm, …"). */
  rounded: string[];
  /** Misspelt words read as the word they were close to ('read "evnings" as "evenings"'). */
  corrected: string[];
}

/** Times off the hour met while parsing one text (the parser is synchronous: one text at a time). */
let roundedTimes: Set<number> | null = null;

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

// ---------------------------------------------------------------------------
// Bit masks: days as 7 bits (bit 0 = Monday), slots as 18 bits (bit 0 = 6am).

const ALL_DAYS = (1 << DAYS) - 1;
const WEEKDAYS = 0b0011111;
const WEEKEND = 0b1100000;
const ALL_SLOTS = (1 << SLOTS) - 1;

/** Slots touched by the half-open hour range [start, end), rounded outward, clamped. */
function hoursMask(start: number, end: number): number {
  for (const point of [start, end]) if (point % 1 !== 0 && point > FIRST_HOUR && point < 24) roundedTimes?.add(point);
  const from = Math.max(0, Math.floor(start) - FIRST_HOUR);
  const to = Math.min(SLOTS, Math.ceil(end) - FIRST_HOUR);
  let mask = 0;
  for (let s = from; s < to; s++) mask |= 1 << s;
  return mask;
}

function periodMask(period: Period): number {
  const [from, to] = PERIODS[period];
  return hoursMask(from + FIRST_HOUR, to + 1 + FIRST_HOUR);
}

function dayRangeMask(from: number, to: number): number {
  let mask = 0;
  // Wraps past Sunday, so "Fri-Mon" is Fri, Sat, Sun, Mon.
  for (let d = from; ; d = (d + 1) % DAYS) {
    mask |= 1 << d;
    if (d === to) return mask;
  }
}

// ---------------------------------------------------------------------------
// Tokens

type SepLevel = 'hard' | 'soft' | 'conj';

interface Clock {
  hour: number;
  minute: number;
  meridiem: 'am' | 'pm' | null;
  /** Unambiguous 24-hour reading ("18:00", "06", "0:30"). */
  clock24: boolean;
}

interface TokBase {
  /** Lowercased text ("'s" stripped from words). */
  norm: string;
  start: number;
  end: number;
}

type Token =
  | (TokBase & { kind: 'word' })
  | (TokBase & { kind: 'num'; clock: Clock })
  | (TokBase & { kind: 'dash' })
  | (TokBase & { kind: 'sep'; level: SepLevel });

const TOKEN_RE =
  /(24\s*\/\s*7)|(\d+)(?:[:.](\d{2})(?!\d))?(?:\s*([ap])(?:\.\s?m\b\.?|\s?m\b))?|(\p{L}+(?:['’]\p{L}+)*)|([-–—‒―−]+)|([;.!?\n\r])|([,:()[\]])|([&+/|])|(\S)/giu;

/** A period right after these is an abbreviation dot ("Sat. mornings"), not a full stop. */
const ABBREVIATIONS = new Set([
  'mon',
  'tue',
  'tues',
  'wed',
  'weds',
  'thu',
  'thur',
  'thurs',
  'fri',
  'sat',
  'sun',
  'approx',
  'etc',
]);

function numberToken(
  raw: string,
  digits: string,
  minutes: string | undefined,
  mer: string | undefined,
  start: number,
  end: number,
): Token {
  // "0900", "1830": military time, read as 24-hour hours and minutes.
  const military = digits.length === 4 && minutes === undefined && mer === undefined;
  const hour = military ? Number(digits.slice(0, 2)) : Number(digits);
  const minute = military ? Number(digits.slice(2)) : minutes === undefined ? 0 : Number(minutes);
  const meridiem = mer === undefined ? null : mer.toLowerCase() === 'a' ? 'am' : 'pm';
  const valid =
    (digits.length <= 2 || military) &&
    minute <= 59 &&
    (meridiem ? hour >= 1 && hour <= 12 : hour <= 24 && !(hour === 24 && minute > 0));
  const norm = raw.toLowerCase().replace(/\s+/g, '');
  if (!valid) return { kind: 'word', norm, start, end };
  const clock24 =
    !meridiem && (military || hour >= 13 || hour === 0 || (digits.length === 2 && digits.startsWith('0')));
  return { kind: 'num', norm, start, end, clock: { hour, minute, meridiem, clock24 } };
}

const NUMBER_WORDS = new Map(
  'one two three four five six seven eight nine ten eleven twelve'
    .split(' ')
    .map((w, i): [string, number] => [w, i + 1]),
);

/** "two pm", "eight o'clock": a number in words is a time only with am/pm or o'clock after it. */
function numberWordToken(word: Token, next: Token | undefined): (TokBase & { kind: 'num'; clock: Clock }) | null {
  const hour = NUMBER_WORDS.get(word.norm);
  if (hour === undefined || next?.kind !== 'word') return null;
  const meridiem = next.norm === 'am' ? 'am' : next.norm === 'pm' ? 'pm' : null;
  if (!meridiem && next.norm !== "o'clock" && next.norm !== 'oclock') return null;
  return {
    kind: 'num',
    norm: `${word.norm} ${next.norm}`,
    start: word.start,
    end: meridiem ? next.end : word.end,
    clock: { hour, minute: 0, meridiem, clock24: false },
  };
}

function tokenize(text: string): Token[] {
  const tokens = tokenizeRaw(text);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const merged = t?.kind === 'word' ? numberWordToken(t, tokens[i + 1]) : null;
    if (merged) tokens.splice(i, merged.clock.meridiem ? 2 : 1, merged);
  }
  return tokens;
}

function tokenizeRaw(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN_RE)) {
    const raw = m[0];
    const start = m.index;
    const end = start + raw.length;
    const prev = tokens[tokens.length - 1];
    if (m[1] !== undefined) tokens.push({ kind: 'word', norm: '24/7', start, end });
    else if (m[2] !== undefined) tokens.push(numberToken(raw, m[2], m[3], m[4], start, end));
    else if (m[5] !== undefined) {
      const norm = m[5].toLowerCase().replace(/’/g, "'").replace(/'s$/, '');
      tokens.push({ kind: 'word', norm, start, end });
    } else if (m[6] !== undefined) tokens.push({ kind: 'dash', norm: '-', start, end });
    else if (m[7] !== undefined) {
      if (raw === '.' && prev?.kind === 'word' && ABBREVIATIONS.has(prev.norm)) continue;
      tokens.push({ kind: 'sep', level: 'hard', norm: raw, start, end });
    } else if (m[8] !== undefined) tokens.push({ kind: 'sep', level: 'soft', norm: raw, start, end });
    else if (m[9] !== undefined) tokens.push({ kind: 'sep', level: 'conj', norm: raw, start, end });
    // Anything else (emoji, stray symbols) carries no meaning and is dropped.
  }
  return tokens;
}

// ---------------------------------------------------------------------------
// Items: what the matchers produce and the grouper consumes.

interface DaysItem {
  kind: 'days';
  mask: number;
  /** "weekends", "every day"…: a complete day set that should not absorb later days. */
  collective: boolean;
  /** "other nights": every day the text has not already named as free. */
  others?: boolean;
}
interface TimeItem {
  kind: 'time';
  mask: number;
  allDay?: boolean;
  /**
   * Set on clock times. Right after a period they narrow it instead of adding to it
   * ("evenings after 7" = 19-24, "mornings 9-11"); two open-ended ones narrow each
   * other ("after 6pm before 9pm").
   */
  narrows?: 'open' | 'fixed';
  /** A clock range ("4:00 to 6:00"), which states a period's hours, unlike a point ("like 5 p.m."). */
  range?: boolean;
  /** Days implied when the clause names none ("after work" → weekdays). */
  defaultDays?: number;
}
type Item =
  | DaysItem
  | TimeItem
  /** `work`: "I work 9-5" — busy hours without days mean weekdays. */
  | { kind: 'neg'; except: boolean; work?: boolean }
  | { kind: 'sep'; level: SepLevel; bracket?: 'open' | 'close' }
  /**
   * `timeWord`: a time preposition left without its time ("after" in "after church");
   * `lostTime`: that, or a number that could not be read as a time.
   */
  | { kind: 'unknown'; start: number; end: number; timeWord: boolean; lostTime: boolean };

const daysItem = (mask: number, collective = true): DaysItem => ({ kind: 'days', mask, collective });
const timeItem = (mask: number, extra: Omit<TimeItem, 'kind' | 'mask'> = {}): TimeItem => ({
  kind: 'time',
  mask,
  ...extra,
});
/** "not", "can't", "I work": says when the person is busy. */
const NEG: Item = { kind: 'neg', except: false };
/** "except", "other than": takes something out of the clause it follows. */
const EXCEPT: Item = { kind: 'neg', except: true };
const WORK: Item = { kind: 'neg', except: false, work: true };
const ALL_DAY = timeItem(ALL_SLOTS, { allDay: true });
/** "busy other nights": the days not named free so far (resolved by the grammar). */
const OTHER_DAYS: DaysItem = { kind: 'days', mask: ALL_DAYS, collective: true, others: true };

// ---------------------------------------------------------------------------
// Vocabulary

const DAY_FORMS: readonly (readonly string[])[] = [
  ['mon', 'mons', 'monday', 'mondays'],
  ['tue', 'tues', 'tuesday', 'tuesdays', 'tusday', 'tuseday', 'teusday'],
  ['wed', 'weds', 'wednesday', 'wednesdays', 'wednsday', 'wensday', 'wendsday', 'wedsday'],
  ['thu', 'thur', 'thurs', 'thursday', 'thursdays', 'thurday', 'thursdy', 'thirsday', 'thrusday'],
  ['fri', 'fris', 'friday', 'fridays'],
  ['sat', 'sats', 'saturday', 'saturdays', 'saterday', 'satuday'],
  ['sun', 'suns', 'sunday', 'sundays'],
];
const DAY_WORDS = new Map<string, number>(
  DAY_FORMS.flatMap((forms, day) => forms.map((f): [string, number] => [f, day])),
);

const RANGE_WORDS = new Set(['to', 'till', 'til', 'until', 'through', 'thru']);
const APPROX_WORDS = new Set(['around', 'about', 'approximately', 'approx', 'roughly', 'like']);
/** "starting at two pm and ending at eight pm": the words that lead to a range's end. */
const RANGE_CONNECTORS = [
  'and ending|finishing at',
  'ending|finishing at',
  'and ending|finishing',
  'and going until|till|to',
].map((spec) => spec.split(' ').map((w) => w.split('|')));
const TIME_SUFFIXES = new Set(['ish', "o'clock", 'oclock', 'h', 'hr', 'hrs']);

/** Words that carry no scheduling meaning; skipped silently rather than reported. */
const FILLERS = new Set(
  (
    "i i'm im i'd i'll me my we we're us you it it's its this that these those is are am be being been was were " +
    'free available availability avail usually generally normally typically mostly often sometimes always ' +
    'only just mainly probably possibly maybe hopefully ideally preferably prefer preferred best better ' +
    'good great fine ok okay works can could would will do does should on in at of for the a an ' +
    'during each every any all either both most some from to by with around about then too as well like ' +
    'day days week weeks weekly per time times hour hours usual really pretty much please thanks hi hey hello ' +
    "etc anyway meet meeting up out open reach reachable h hr hrs ish o'clock oclock onwards onward"
  ).split(/\s+/),
);

interface Phrase {
  words: readonly (readonly string[])[];
  items: readonly Item[];
  /** "anytime after 6": the phrase defers to the time expression that follows. */
  yieldsToTime?: boolean;
}

/** "all day|night" → [['all'], ['day', 'night']]: one list of alternatives per word. */
function words(spec: string): readonly (readonly string[])[] {
  return spec.split(' ').map((w) => w.split('|'));
}

function phrase(spec: string, items: readonly Item[], yieldsToTime = false): Phrase {
  return { words: words(spec), items, yieldsToTime };
}

const MORNING = periodMask('morning');
const AFTERNOON = periodMask('afternoon');
const EVENING = periodMask('evening');

const PHRASES: readonly Phrase[] = [
  // Day sets
  phrase('every|each day', [daysItem(ALL_DAYS)]),
  phrase('every day of the week', [daysItem(ALL_DAYS)]),
  phrase('every single day', [daysItem(ALL_DAYS)]),
  phrase('everyday|daily', [daysItem(ALL_DAYS)]),
  phrase('nightly', [daysItem(ALL_DAYS), timeItem(EVENING)]),
  phrase('any day|days', [daysItem(ALL_DAYS)]),
  phrase('all days', [daysItem(ALL_DAYS)]),
  phrase('all week', [daysItem(ALL_DAYS)]),
  phrase('all week long', [daysItem(ALL_DAYS)]),
  phrase('7|seven days a|per week', [daysItem(ALL_DAYS)]),
  phrase('weekend|weekends|wkend|wkends|wknd|wknds', [daysItem(WEEKEND)]),
  phrase('other', [OTHER_DAYS]),
  phrase('all other', [OTHER_DAYS]),
  phrase('week end|ends', [daysItem(WEEKEND)]),
  phrase('weekday|weekdays|wkday|wkdays|workday|workdays', [daysItem(WEEKDAYS)]),
  phrase('m f', [daysItem(WEEKDAYS)]), // "M-F"; the dash is skipped by matchWords
  phrase('week|work|working|business day|days', [daysItem(WEEKDAYS)]),
  phrase('during|in the week', [daysItem(WEEKDAYS)]),
  phrase('weeknight|weeknights|weeknite|weeknites', [daysItem(WEEKDAYS), timeItem(EVENING)]),
  phrase('week|work night|nights', [daysItem(WEEKDAYS), timeItem(EVENING)]),
  // Whole days
  phrase('all day', [ALL_DAY]),
  phrase('all night', [timeItem(EVENING)]),
  phrase('all day long', [ALL_DAY]),
  phrase('whole|full|entire day', [ALL_DAY]),
  phrase('the whole|full|entire day', [ALL_DAY]),
  phrase('anytime|whenever', [ALL_DAY], true),
  phrase('any time|hour', [ALL_DAY], true),
  phrase('at any time', [ALL_DAY], true),
  phrase('all the time', [ALL_DAY]),
  phrase('all hours', [ALL_DAY]),
  phrase('24/7', [ALL_DAY]),
  phrase('around|round the clock', [ALL_DAY]),
  phrase('day and|or night', [ALL_DAY]),
  phrase('night and|or day', [ALL_DAY]),
  // Periods
  phrase('morning|mornings|morn|mornin', [timeItem(MORNING)]),
  phrase('afternoon|afternoons|arvo|arvos', [timeItem(AFTERNOON)]),
  phrase('evening|evenings|eve|eves|night|nights|nite|nites|nighttime|nighttimes|evenin', [timeItem(EVENING)]),
  phrase('after dark', [timeItem(EVENING)]),
  phrase('early morning|mornings', [timeItem(hoursMask(6, 9))]),
  // "early each morning", "late at night": the modifier still narrows the period across a filler.
  phrase('early each|every|most morning|mornings', [timeItem(hoursMask(6, 9))]),
  phrase('early in the morning|mornings', [timeItem(hoursMask(6, 9))]),
  phrase('late each|every|most evening|evenings|night|nights', [timeItem(hoursMask(20, 24))]),
  phrase('late in the evening|evenings|night', [timeItem(hoursMask(20, 24))]),
  phrase('late at night', [timeItem(hoursMask(20, 24))]),
  phrase('late morning|mornings', [timeItem(hoursMask(9, 12))]),
  phrase('early afternoon|afternoons', [timeItem(hoursMask(12, 14))]),
  phrase('late afternoon|afternoons', [timeItem(hoursMask(15, 17))]),
  phrase('early evening|evenings', [timeItem(hoursMask(17, 20))]),
  phrase('late evening|evenings|night|nights', [timeItem(hoursMask(20, 24))]),
  phrase('daytime|daytimes', [timeItem(MORNING | AFTERNOON)]),
  phrase('during the day', [timeItem(MORNING | AFTERNOON)]),
  phrase('lunch|lunchtime|lunchtimes|lunches', [timeItem(hoursMask(12, 14))]),
  phrase('lunch time|hour|break', [timeItem(hoursMask(12, 14))]),
  phrase('dinner|dinnertime', [timeItem(hoursMask(18, 20))]),
  phrase('noon|midday', [timeItem(hoursMask(12, 13))]),
  phrase('mid day', [timeItem(hoursMask(12, 13))]),
  phrase('midnight', [timeItem(0)]), // understood, but outside the grid
  phrase('no availability set', []), // the summary of an empty grid reads back as empty
  phrase('pm', [timeItem(AFTERNOON | EVENING)]),
  // Work-relative times default to weekdays.
  // They narrow a period ("mornings before work" = 6-9am on weekdays).
  phrase('after work', [timeItem(EVENING, { defaultDays: WEEKDAYS, narrows: 'fixed' })]),
  phrase('before work', [timeItem(hoursMask(6, 9), { defaultDays: WEEKDAYS, narrows: 'fixed' })]),
  phrase('early', [timeItem(hoursMask(6, 9))]),
  phrase('late', [timeItem(hoursMask(20, 24))]),
  phrase('after school', [timeItem(hoursMask(15, 24), { defaultDays: WEEKDAYS })]),
  phrase('work|working|business|office hours', [timeItem(hoursMask(9, 17), { defaultDays: WEEKDAYS })]),
  // Negation
  phrase('except|excluding|exclude|excl|besides', [EXCEPT]),
  phrase('except for', [EXCEPT]),
  phrase('other than', [EXCEPT]),
  phrase('apart|aside from', [EXCEPT]),
  phrase("not|no|never|unavailable|busy|closed|cannot|cant|can't|don't|dont|won't|isn't|aren't", [NEG]),
  phrase('can not', [NEG]),
  // "I work nights": the person names when they are busy.
  phrase('i work|working', [WORK]),
  phrase("i'm|im at work", [WORK]),
  // Separators spelled as words
  phrase('and|or|plus|also|nor', [{ kind: 'sep', level: 'conj' }]),
  phrase('as well as', [{ kind: 'sep', level: 'conj' }]),
  phrase('but|though|although|however', [{ kind: 'sep', level: 'soft' }]),
  // "I work nights so mornings are best": what follows is a separate statement.
  phrase('so|because|since|cause|coz', [{ kind: 'sep', level: 'hard' }]),
].sort((a, b) => b.words.length - a.words.length);

type Lead = 'after' | 'before' | 'from' | 'between' | 'at' | 'none';

const LEADS: readonly { words: readonly (readonly string[])[]; lead: Lead }[] = [
  { words: words('no later than'), lead: 'before' },
  { words: words('no earlier than'), lead: 'after' },
  { words: words('up to|until'), lead: 'before' },
  { words: words('starting at|from'), lead: 'from' },
  { words: words('starts|start|begins|commencing|commences at|from'), lead: 'from' },
  { words: words('after|since|past'), lead: 'after' },
  { words: words('from|starting'), lead: 'from' },
  { words: words('between'), lead: 'between' },
  { words: words('before|until|till|til|by'), lead: 'before' },
  { words: words('at|around|about'), lead: 'at' },
];
const DAYPART_SUFFIXES: readonly { words: readonly (readonly string[])[]; meridiem: 'am' | 'pm' }[] = [
  { words: words('in the morning'), meridiem: 'am' },
  { words: words('in the afternoon|evening'), meridiem: 'pm' },
  { words: words('at night'), meridiem: 'pm' },
];
const TIME_LEAD_WORDS = new Set([
  'after',
  'before',
  'from',
  'between',
  'until',
  'till',
  'til',
  'since',
  'past',
  'starting',
]);

/** A time-of-day endpoint: a clock reading or a named time ("noon", "lunch"). */
type Endpoint = { kind: 'clock'; clock: Clock } | { kind: 'named'; start: number; end: number };

const NAMED_ENDPOINTS = new Map<string, { start: number; end: number }>([
  ['noon', { start: 12, end: 12 }],
  ['midday', { start: 12, end: 12 }],
  ['midnight', { start: 24, end: 24 }],
  ['lunch', { start: 12, end: 14 }],
  ['lunchtime', { start: 12, end: 14 }],
  ['dinner', { start: 18, end: 20 }],
  ['dinnertime', { start: 18, end: 20 }],
  ['late', { start: 24, end: 24 }],
]);

// ---------------------------------------------------------------------------
// Clock arithmetic (hours as decimals, 0-24)

/** The hour if the endpoint says am/pm or is 24-hour or named; null if a bare hour. */
function explicitHour(e: Endpoint, role: 'start' | 'end'): number | null {
  if (e.kind === 'named') return role === 'start' ? e.start : e.end;
  const { hour, minute, meridiem, clock24 } = e.clock;
  if (clock24) return hour + minute / 60;
  if (meridiem) return (hour % 12) + (meridiem === 'pm' ? 12 : 0) + minute / 60;
  return null;
}

/**
 * Guesses a lone bare hour: 8-11 am, 12 noon, 1-7 pm; after "after", 1-9 pm. Seven is evening:
 * people arranging to meet write "at 7:30" for the evening and "7am" when they mean the morning.
 */
function guessHour(clock: Clock, bias: 'after' | 'default'): number {
  const { hour, minute } = clock;
  if (hour === 12) return 12 + minute / 60;
  const pm = bias === 'after' ? hour <= 9 : hour <= 7;
  return hour + (pm ? 12 : 0) + minute / 60;
}

function pointHour(e: Endpoint, role: 'start' | 'end', bias: 'after' | 'default'): number {
  const explicit = explicitHour(e, role);
  if (explicit !== null) return explicit;
  return e.kind === 'clock' ? guessHour(e.clock, bias) : 0;
}

/** The two readings of a bare hour, preferred one first. */
function readings(clock: Clock, pmFirst: boolean): [number, number] {
  const base = (clock.hour % 12) + clock.minute / 60;
  return pmFirst ? [base + 12, base] : [base, base + 12];
}

/** Resolves "A-B" to [start, end) hours; an end past midnight is clamped to 24. */
function rangeHours(a: Endpoint, b: Endpoint): [number, number] {
  const aHour = explicitHour(a, 'start');
  let bHour = explicitHour(b, 'end');
  if (bHour === 0) bHour = 24; // "12am" / "00:00" as an end is midnight
  if (aHour !== null && bHour !== null) return [aHour, bHour > aHour ? bHour : 24];
  if (bHour !== null && a.kind === 'clock') {
    // "7 to 10pm": the start shares the end's am/pm unless that puts it after the end.
    const options = readings(a.clock, bHour >= 12);
    const fit = options.find((h) => h < bHour);
    return fit !== undefined ? [fit, bHour] : [Math.max(...options), 24];
  }
  const start = aHour ?? pointHour(a, 'start', 'default');
  if (b.kind !== 'clock') return [start, 24];
  // "10am-2", "9-5": the first reading of the end that comes after the start.
  const options = readings(b.clock, start >= 12);
  const fit = options.find((h) => h > start);
  return [start, fit ?? 24];
}

// ---------------------------------------------------------------------------
// Matching tokens into items

interface Match {
  items: readonly Item[];
  next: number;
}

/** An item with the span of text it was read from. */
interface Spanned {
  item: Item;
  start: number;
  end: number;
}

class ItemMatcher {
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
    return { items: [{ kind: 'unknown', start: t.start, end: t.end, timeWord, lostTime }], next: i + 1 };
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
    const mask = this.singleTimeMask(lead, a.endpoint, onwards !== null);
    if (mask === null) return null;
    const open = lead === 'after' || lead === 'before' || lead === 'from' || onwards;
    return { items: [timeItem(mask, { narrows: open ? 'open' : 'fixed' })], next };
  }

  private singleTimeMask(lead: Lead, e: Endpoint, onwards: boolean): number | null {
    if (lead === 'after' || lead === 'from' || onwards) {
      return hoursMask(pointHour(e, 'end', lead === 'after' ? 'after' : 'default'), 24);
    }
    if (lead === 'before') return hoursMask(0, pointHour(e, 'start', 'default'));
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
    const h = Math.floor(pointHour(e, 'start', 'default'));
    return hoursMask(h, h + 1);
  }
}

// ---------------------------------------------------------------------------
// Grammar over items (recursive descent; the lexer above turns words into items).
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

interface TimeEntry {
  mask: number;
  kind: 'period' | 'open' | 'fixed';
  allDay?: boolean;
  range?: boolean;
}

interface Clause {
  days: number;
  hasDays: boolean;
  collective: boolean;
  times: TimeEntry[];
  defaultDays: number | null;
  first: 'days' | 'time' | null;
  last: 'days' | 'time' | null;
  /** Unknown words split its times: it stores nothing rather than guess wider. */
  broken?: boolean;
}

/** Slot masks per day, Monday first. */
type Week = number[];

function newClause(): Clause {
  return { days: 0, hasDays: false, collective: false, times: [], defaultDays: null, first: null, last: null };
}

const isEmptyClause = (c: Clause): boolean => !c.hasDays && c.times.length === 0;

/** Whether a day item continues clause c or starts a new one. */
function joinsDays(c: Clause, item: DaysItem, sep: SepLevel | null): boolean {
  if (isEmptyClause(c)) return true;
  const collectiveBreak = sep !== null && (c.collective || item.collective);
  if (!c.hasDays) return sep === null; // "6-9pm on Wednesdays", but not "evenings, weekends"
  if (c.times.length === 0) return !collectiveBreak; // "Tue and Thu …", not "weekends, Monday"
  // Times came first and days are still being listed: "mornings on Sat and Sun".
  return c.first === 'time' && c.last === 'days' && !collectiveBreak;
}

/** Whether a time item continues clause c or starts a new one. */
function joinsTime(c: Clause, item: TimeItem, sep: SepLevel | null): boolean {
  if (isEmptyClause(c)) return true;
  if (!c.hasDays) {
    // "morning or evening", but "mornings before work, and all day saturday" is two clauses.
    return sep === null || (!item.allDay && c.defaultDays === null && item.defaultDays === undefined);
  }
  if (c.times.length === 0) return !(c.collective && sep === 'conj' && !item.allDay); // not "weekends and evenings"
  if (item.allDay && sep !== null) return false; // "weekday evenings and all day Sunday"
  if (c.first === 'time' && c.last === 'days' && sep === null) return true; // "at 9:00 on Sunday mornings"
  return c.first === 'days'; // "Saturday mornings and evenings"
}

/** Whether time `next`, written right after `prev`, narrows it rather than adding to it. */
function narrows(prev: TimeEntry, next: TimeEntry): boolean {
  if (next.kind === 'period' || (prev.mask & next.mask) === 0) return false; // contradiction: keep both
  return prev.kind === 'period' || (prev.kind === 'open' && next.kind === 'open');
}

function addToClause(c: Clause, item: DaysItem | TimeItem, sep: SepLevel | null): void {
  if (item.kind === 'days') {
    c.days |= item.mask;
    c.hasDays = true;
    c.collective ||= item.collective;
    c.first ??= 'days';
    c.last = 'days';
    return;
  }
  const prev = c.times[c.times.length - 1];
  const entry: TimeEntry = { mask: item.mask, kind: item.narrows ?? 'period', allDay: item.allDay, range: item.range };
  const qualifiesDays = sep === null && c.first === 'time' && c.last === 'days' && entry.kind === 'period';
  if (qualifiesDays && c.times.every((t) => (t.mask & item.mask) !== 0)) {
    // "at 9:00 on Sunday mornings": the period names which part of those days, not more time.
    c.times = c.times.map((t) => ({ ...t, mask: t.mask & item.mask }));
    c.last = 'time';
    return;
  }
  // A clock time right after a period, or after a comma or bracket ("afternoons, 4:00 to 6:00",
  // "in the evening (4:00 PM until 11:00 PM)"), says when in it; a range states its hours outright.
  // After a comma a point is an example ("early evenings (like 5 p.m.)"), not the whole of the period.
  const narrowing = sep === null || (sep === 'soft' && entry.kind !== 'fixed') || (sep === 'soft' && entry.range);
  if (narrowing && c.last === 'time' && prev && narrows(prev, entry)) {
    const stated = prev.kind === 'period' && entry.range === true;
    c.times[c.times.length - 1] = { mask: stated ? item.mask : prev.mask & item.mask, kind: entry.kind };
  } else {
    c.times.push(entry);
  }
  if (item.defaultDays !== undefined) c.defaultDays = (c.defaultDays ?? 0) | item.defaultDays;
  c.first ??= 'time';
  c.last = 'time';
}

function clauseWeek(c: Clause): Week {
  if (c.broken) return Array.from({ length: DAYS }, () => 0);
  const days = c.hasDays ? c.days : (c.defaultDays ?? ALL_DAYS);
  const slots = c.times.length > 0 ? c.times.reduce((acc, t) => acc | t.mask, 0) : ALL_SLOTS;
  return Array.from({ length: DAYS }, (_, d) => (days & (1 << d) ? slots : 0));
}

const overlaps = (a: Week, b: Week): boolean => a.some((slots, d) => (slots & (b[d] ?? 0)) !== 0);

class AvailabilityParser {
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
  private skipGlue(i: number): { next: number; sep: SepLevel | null } {
    let sep: SepLevel | null = null;
    let j = i;
    for (let item = this.at(j); item; item = this.at(++j)) {
      if (item.kind === 'unknown') continue;
      if (item.kind !== 'sep' || item.level === 'hard') break;
      sep = sep === 'conj' || item.level === 'conj' ? 'conj' : 'soft';
    }
    return { next: j, sep };
  }

  private sentence(): void {
    const clauses: Week[] = [];
    let separated = false;
    let dangling = false;
    while (this.pos < this.items.length) {
      const item = this.at(this.pos);
      if (!item) break;
      if (item.kind === 'sep') {
        this.pos++;
        if (item.level === 'hard') return;
        separated = true;
        dangling = false;
      } else if (item.kind === 'unknown') {
        this.pos++;
        if (item.timeWord) {
          // "weeknights after xyz 8": a time we could not read would have narrowed its clause.
          const last = clauses[clauses.length - 1];
          if (last && !separated) last.fill(0);
          dangling = true;
        }
      } else if (item.kind === 'neg') {
        this.negation(clauses, separated);
        separated = false;
        dangling = false;
      } else {
        const phrase = this.phrase(true);
        if (dangling && !separated) phrase.broken = true;
        dangling = false;
        const week = clauseWeek(phrase);
        this.positives.push(week);
        clauses.push(week);
        separated = false;
      }
    }
  }

  /** A phrase from pos; `acrossSeparators` false reads one except-list piece. */
  private phrase(acrossSeparators: boolean): Clause {
    const c = newClause();
    let i = this.pos;
    for (;;) {
      const { next, sep } = isEmptyClause(c) ? { next: i, sep: null } : this.skipGlue(i);
      const found = this.at(next);
      if (!found || (found.kind !== 'days' && found.kind !== 'time')) break;
      const item = found.kind === 'days' && found.others ? { ...found, mask: ALL_DAYS & ~this.namedDays() } : found;
      if (!isEmptyClause(c)) {
        if (sep !== null && !acrossSeparators) break;
        // "all day saturday and sunday morning": a day with its own time after it is a clause of its own.
        const allDayList = c.first === 'time' && c.times.length > 0 && c.times.every((t) => t.allDay);
        if (item.kind === 'days' && sep !== null && allDayList && this.at(next + 1)?.kind === 'time') break;
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

/**
 * Brackets that add nothing to the grid are asides: "most Mondays (apart from Bank holidays) 8-10pm"
 * reads on as "Mondays 8-10pm", the aside's words reported. Days in brackets after a day set name
 * which of them: "two 9:00 to 5:00 workdays (Sat, Sun)" are Saturday and Sunday.
 */
function resolveBrackets(items: readonly Spanned[]): Spanned[] {
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
function unknownFragments(text: string, items: readonly Spanned[]): string[] {
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

// ---------------------------------------------------------------------------
// Typos: a word we do not know, close to one we do, is read as that word and reported.

const TYPO_TARGETS: readonly string[] = [
  ...DAY_FORMS.flatMap((forms) => forms.filter((f) => f.length >= 6)),
  ...'morning mornings afternoon afternoons evening evenings night nights weekend weekends weekday weekdays weeknight weeknights lunchtime anytime except'.split(
    ' ',
  ),
];

/** Longest typo target plus the largest distance allowed: longer words cannot be typos of one. */
const MAX_TYPO_LENGTH = 14;
const rows = [
  new Int32Array(MAX_TYPO_LENGTH + 1),
  new Int32Array(MAX_TYPO_LENGTH + 1),
  new Int32Array(MAX_TYPO_LENGTH + 1),
];

/**
 * Optimal string alignment distance (transpositions count 1: "wendesday"), or max + 1 once it
 * must exceed max. Runs on every unknown word, so it reuses three rows and stops early.
 */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max || a.length > MAX_TYPO_LENGTH || b.length > MAX_TYPO_LENGTH) return max + 1;
  let [prev2, prev, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[b.length] ?? max + 1;
}

function isKnownWord(word: string): boolean {
  return (
    DAY_WORDS.has(word) ||
    FILLERS.has(word) ||
    RANGE_WORDS.has(word) ||
    KNOWN_PHRASE_WORDS.has(word) ||
    NAMED_ENDPOINTS.has(word)
  );
}

const KNOWN_PHRASE_WORDS = new Set<string>([
  ...PHRASES.flatMap((p) => p.words.flat()),
  ...LEADS.flatMap((l) => l.words.flat()),
  ...APPROX_WORDS,
  ...TIME_SUFFIXES,
]);

/** Replaces misspelt words in place; returns one note per correction. */
function correctTypos(tokens: Token[]): string[] {
  const notes: string[] = [];
  const seen = new Map<string, string | null>();
  for (const t of tokens) {
    if (t.kind !== 'word' || t.norm.length < 5 || t.norm.length > MAX_TYPO_LENGTH) continue;
    if (!/^\p{L}+$/u.test(t.norm) || isKnownWord(t.norm)) continue;
    let best = seen.get(t.norm);
    if (best === undefined) {
      const max = t.norm.length >= 8 ? 2 : 1;
      let bestDistance = max + 1;
      best = null;
      for (const target of TYPO_TARGETS) {
        const d = editDistance(t.norm, target, max);
        if (d < bestDistance) {
          best = target;
          bestDistance = d;
        }
      }
      seen.set(t.norm, best);
    }
    if (best === null) continue;
    const note = `read "${t.norm}" as "${best}"`;
    if (!notes.includes(note)) notes.push(note);
    t.norm = best;
  }
  return notes;
}

function parseUnchecked(text: string): ParseResult {
  const head = text.slice(0, MAX_TEXT_LENGTH);
  roundedTimes = new Set();
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
    const rounded = [...roundedTimes]
      .sort((a, b) => a - b)
      .map(
        (t) =>
          `${clockText(t)} falls in the hour ${hourText(Math.floor(t))}–${hourText(Math.floor(t) + 1)}, which is counted whole (free time is kept in one-hour slots)`,
      );
    return { grid, unparsed, rounded, corrected };
  } finally {
    roundedTimes = null;
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
