// A plan's or meetup's time in the person's words (issue 44 §2): "next Saturday 10am", "tomorrow at
// 7pm", "Sat 10-13", "this evening". Read on the person's own calendar (`today` is their local date
// and time), every word accounted for: a word it cannot place, an hour that could be morning or
// evening, or a weekday that could be today or a week away is refused with the exact fix, never
// guessed. Pure: lib/plans/time.ts turns the wall-clock result into an instant in the person's zone.

/** A wall-clock moment on the person's calendar. */
export interface LocalMoment {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

export type PlainTime =
  | { ok: true; start: LocalMoment; end: LocalMoment | null; read: string }
  | { ok: false; problem: string };

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
// Without a prototype: a word such as "constructor" is no key of theirs (issue 41).
const WEEKDAY_NAMES: Record<string, number> = Object.create(null);
for (const [index, name] of WEEKDAYS.entries()) {
  for (const form of [name, `${name}s`, name.slice(0, 3)]) WEEKDAY_NAMES[form] = index;
}
Object.assign(WEEKDAY_NAMES, { tues: 2, wednes: 3, thur: 4, thurs: 4 });

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_NAMES: Record<string, number> = Object.create(null);
for (const [index, name] of MONTHS.entries()) {
  MONTH_NAMES[name] = index + 1;
  MONTH_NAMES[name.slice(0, 3)] = index + 1;
}
MONTH_NAMES.sept = 9;

/** A part of the day: when it starts if no time is given, and which half of the clock a bare hour is on. */
const PERIODS: Record<string, { start: number; pm: boolean }> = Object.assign(Object.create(null), {
  morning: { start: 10, pm: false },
  afternoon: { start: 14, pm: true },
  evening: { start: 19, pm: true },
  night: { start: 20, pm: true },
});

/** Words that only join the others. */
const FILLER = new Set(['at', 'on', 'from', 'the', 'of', 'in', 'around', 'about', 'this']);
const RANGE_WORDS = new Set(['-', 'to', 'until', 'till', 'til']);

type Clock = {
  kind: 'clock';
  hour: number;
  minute: number;
  half: 'am' | 'pm' | null;
  twentyFour: boolean;
  text: string;
};
type Token =
  | { kind: 'isoDate'; year: number; month: number; day: number; text: string }
  | { kind: 'year'; year: number; text: string }
  | Clock
  | { kind: 'ordinal'; day: number; text: string }
  | { kind: 'word'; text: string }
  | { kind: 'range'; text: string };

const TOKEN = new RegExp(
  [
    String.raw`(?<isoY>\d{4})-(?<isoM>\d{2})-(?<isoD>\d{2})`,
    String.raw`(?<year>\d{4})(?![\d:-])`,
    String.raw`(?<hHour>\d{1,2})(?::(?<hMinute>\d{2}))?\s*(?<half>[ap])\.?m\.?(?![a-z])`,
    String.raw`(?<ordinal>\d{1,2})(?:st|nd|rd|th)(?![a-z])`,
    String.raw`(?<cHour>\d{1,2})(?::(?<cMinute>\d{2}))?(?![\d:])`,
    '(?<word>[a-z]+)',
    '(?<dash>[-–—])',
    String.raw`(?<skip>[\s,.;!]+)`,
    '(?<other>.)',
  ].join('|'),
  'gy',
);

function tokenize(text: string): Token[] | { unknown: string } {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const g = match.groups ?? {};
    const all = match[0];
    if (g.isoY) tokens.push({ kind: 'isoDate', year: +g.isoY, month: +g.isoM!, day: +g.isoD!, text: all });
    else if (g.year) tokens.push({ kind: 'year', year: +g.year, text: all });
    else if (g.hHour)
      tokens.push({
        kind: 'clock',
        hour: +g.hHour,
        minute: g.hMinute ? +g.hMinute : 0,
        half: g.half === 'a' ? 'am' : 'pm',
        twentyFour: false,
        text: all.trim(),
      });
    else if (g.ordinal) tokens.push({ kind: 'ordinal', day: +g.ordinal, text: all });
    else if (g.cHour) {
      const hour = +g.cHour;
      // 07:30, 0, 13-23: the 24-hour clock; 7 or 7:30 could be either half.
      const twentyFour = hour === 0 || hour > 12 || /^0\d/.test(g.cHour);
      tokens.push({ kind: 'clock', hour, minute: g.cMinute ? +g.cMinute : 0, half: null, twentyFour, text: all });
    } else if (g.word)
      tokens.push(RANGE_WORDS.has(g.word) ? { kind: 'range', text: g.word } : { kind: 'word', text: g.word });
    else if (g.dash) tokens.push({ kind: 'range', text: '-' });
    else if (g.other) return { unknown: g.other };
  }
  return tokens;
}

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (d: LocalDate) => Date.UTC(d.year, d.month - 1, d.day) / DAY_MS;
function fromDayNumber(n: number): LocalDate {
  const date = new Date(n * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
const weekdayOf = (d: LocalDate) => new Date(dayNumber(d) * DAY_MS).getUTCDay();
const addDays = (d: LocalDate, days: number) => fromDayNumber(dayNumber(d) + days);
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function validDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** "Saturday 5 December 2026" */
function dateInWords(d: LocalDate): string {
  return `${capital(WEEKDAYS[weekdayOf(d)]!)} ${d.day} ${capital(MONTHS[d.month - 1]!)} ${d.year}`;
}
const hhmm = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** A bare number that can be a day of the month (8 in "8 December", "Dec 8"). */
const isDayNumber = (clock: Clock) => !clock.half && !clock.text.includes(':') && clock.hour >= 1 && clock.hour <= 31;

/** An hour on the 24-hour clock, or why it cannot be told. `pm`: the half a period or a range partner settles. */
function hourOf(clock: Clock, pm: boolean | null): number | string {
  const { hour, minute, half, twentyFour, text } = clock;
  if (minute > 59) return `"${text}" is not a time`;
  if (half) {
    if (hour < 1 || hour > 12) return `"${text}" is not a time`;
    return (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hour > 23) return `"${text}" is not a time`;
  if (twentyFour || hour === 0 || hour > 12) return hour;
  if (pm === null) {
    const written = minute ? `${hour}:${String(minute).padStart(2, '0')}` : `${hour}`;
    return `"${text}" could be morning or evening: say ${written}am or ${written}pm (or ${hhmm(hour === 12 ? 12 : hour + 12, minute)})`;
  }
  if (hour === 12) return pm ? 12 : 0;
  return hour + (pm ? 12 : 0);
}

/**
 * Reads `text` on the person's calendar. `today` is their local date and time now; a phrase with
 * no day is on `today` (the caller checks that it is not past).
 */
export function readPlainTime(text: string, today: LocalMoment): PlainTime {
  const tokens = tokenize(text.trim().toLowerCase());
  if (!Array.isArray(tokens)) return { ok: false, problem: `"${tokens.unknown}" is not part of a time` };
  if (tokens.length === 0) return { ok: false, problem: 'no time given' };

  let day: LocalDate | null = null;
  let dayWords = '';
  const setDay = (value: LocalDate, words: string): string | null => {
    if (day) return `two days given ("${dayWords}" and "${words}"): give one`;
    day = value;
    dayWords = words;
    return null;
  };
  let period: keyof typeof PERIODS | null = null;
  const clocks: Clock[] = [];
  let ranged = false;
  const todayDate: LocalDate = { year: today.year, month: today.month, day: today.day };
  const leftovers: string[] = [];

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const problem = ((): string | null => {
      if (token.kind === 'isoDate') {
        if (!validDate(token.year, token.month, token.day)) return `"${token.text}" is not a date`;
        return setDay({ year: token.year, month: token.month, day: token.day }, token.text);
      }
      if (token.kind === 'year') {
        if (!day || !dayWords || /\d{4}-/.test(dayWords))
          return `"${token.text}": give it after a date, like 8 December ${token.text}`;
        const { month, day: dayOfMonth } = day as LocalDate;
        if (!validDate(token.year, month, dayOfMonth)) return `"${dayWords} ${token.text}" is not a date`;
        day = { year: token.year, month, day: dayOfMonth };
        dayWords = `${dayWords} ${token.text}`;
        return null;
      }
      if (token.kind === 'range') {
        if (clocks.length !== 1 || ranged) return `"${token.text}" needs a time on each side, like 10-13`;
        ranged = true;
        return null;
      }
      if (token.kind === 'clock') {
        // "8 December": a bare number before a month is a day of the month.
        if (next?.kind === 'word' && next.text in MONTH_NAMES && isDayNumber(token)) {
          i++;
          return monthDay(MONTH_NAMES[next.text]!, token.hour, `${token.text} ${next.text}`);
        }
        if (clocks.length === 2 || (clocks.length === 1 && !ranged))
          return `two times given ("${clocks[0]!.text}" and "${token.text}"): give one, or a range like 10-13`;
        clocks.push(token);
        return null;
      }
      if (token.kind === 'ordinal') {
        if (next?.kind === 'word' && next.text === 'of' && tokens[i + 2]?.kind === 'word') {
          const month = MONTH_NAMES[(tokens[i + 2] as { text: string }).text];
          if (month) {
            i += 2;
            return monthDay(month, token.day, `${token.text} of ${(tokens[i] as { text: string }).text}`);
          }
        }
        if (next?.kind === 'word' && next.text in MONTH_NAMES) {
          i++;
          return monthDay(MONTH_NAMES[next.text]!, token.day, `${token.text} ${next.text}`);
        }
        return `"${token.text}": say which month, like ${token.day} December`;
      }
      const word = token.text;
      if (word === 'today') return setDay(todayDate, word);
      if (word === 'tomorrow') return setDay(addDays(todayDate, 1), word);
      if (word === 'tonight') {
        period = 'night';
        return setDay(todayDate, word);
      }
      if (word === 'noon' || word === 'midday') {
        if (clocks.length === 2 || (clocks.length === 1 && !ranged)) return `two times given: give one`;
        clocks.push({ kind: 'clock', hour: 12, minute: 0, half: null, twentyFour: true, text: word });
        return null;
      }
      if (word in PERIODS) {
        if (period) return `two parts of the day given: give one`;
        period = word as keyof typeof PERIODS;
        return null;
      }
      if (word === 'next' && next?.kind === 'word' && next.text in WEEKDAY_NAMES) {
        i++;
        const weekday = WEEKDAY_NAMES[next.text]!;
        const ahead = (weekday - weekdayOf(todayDate) + 7) % 7 || 7;
        return setDay(addDays(todayDate, ahead), `next ${next.text}`);
      }
      if (word in WEEKDAY_NAMES) {
        const weekday = WEEKDAY_NAMES[word]!;
        const ahead = (weekday - weekdayOf(todayDate) + 7) % 7;
        const saidThis = tokens[i - 1]?.kind === 'word' && tokens[i - 1]!.text === 'this';
        if (ahead === 0 && !saidThis) return `"${word}" is today: say "today" or "next ${WEEKDAYS[weekday]}"`;
        return setDay(addDays(todayDate, ahead), saidThis ? `this ${word}` : word);
      }
      if (word in MONTH_NAMES) {
        const after = tokens[i + 1];
        if (after?.kind === 'clock' && isDayNumber(after)) {
          i++;
          return monthDay(MONTH_NAMES[word]!, after.hour, `${word} ${after.text}`);
        }
        if (after?.kind === 'ordinal') {
          i++;
          return monthDay(MONTH_NAMES[word]!, after.day, `${word} ${after.text}`);
        }
        return `"${word}": say which day, like ${capital(word)} 8`;
      }
      if (FILLER.has(word)) return null;
      leftovers.push(word);
      return null;
    })();
    if (problem) return { ok: false, problem };
  }

  function monthDay(month: number, dayOfMonth: number, words: string): string | null {
    // The next such date on or after today (this year, or next once it has passed).
    for (const year of [today.year, today.year + 1]) {
      if (!validDate(year, month, dayOfMonth)) continue;
      const date = { year, month, day: dayOfMonth };
      if (dayNumber(date) >= dayNumber(todayDate)) return setDay(date, words);
    }
    return `"${words}" is not a date`;
  }

  if (leftovers.length > 0)
    return {
      ok: false,
      problem: `could not read ${leftovers.map((w) => `"${w}"`).join(', ')}: give a day and a time, like "Saturday 10am" or "2026-12-05T10:00"`,
    };
  if (ranged && clocks.length !== 2) return { ok: false, problem: 'a range needs a time on each side, like 10-13' };

  const chosenPeriod: keyof typeof PERIODS | null = period;
  const periodPm = chosenPeriod ? PERIODS[chosenPeriod]!.pm : null;
  let startHour: number;
  let startMinute = 0;
  let end: { hour: number; minute: number } | null = null;
  if (clocks.length === 0) {
    if (!chosenPeriod) return { ok: false, problem: `no time of day: say one, like "${dayWords || 'Saturday'} 10am"` };
    startHour = PERIODS[chosenPeriod]!.start;
  } else {
    const [first, second] = clocks as [Clock, Clock | undefined];
    const from = hourOf(first, periodPm ?? (second ? startHalfFrom(first, second) : null));
    if (typeof from === 'string') return { ok: false, problem: from };
    startHour = from;
    startMinute = first.minute;
    if (second) {
      const to = endHour(second, from, periodPm);
      if (typeof to === 'string') return { ok: false, problem: to };
      end = { hour: to, minute: second.minute };
    }
  }

  const startDate: LocalDate = day ?? todayDate;
  const start: LocalMoment = { ...startDate, hour: startHour, minute: startMinute };
  let endMoment: LocalMoment | null = null;
  if (end) {
    const endsNextDay = end.hour * 60 + end.minute <= startHour * 60 + startMinute;
    endMoment = { ...(endsNextDay ? addDays(startDate, 1) : startDate), hour: end.hour, minute: end.minute };
  }
  const clock = `${hhmm(startHour, startMinute)}${endMoment ? `–${hhmm(endMoment.hour, endMoment.minute)}` : ''}`;
  const assumed = clocks.length === 0 && chosenPeriod ? ` (no time given: the ${chosenPeriod} read as ${clock})` : '';
  return { ok: true, start, end: endMoment, read: `${dateInWords(startDate)}, ${clock}${assumed}` };
}

/**
 * Which half of the clock a range's bare start is on, from its end: a 24-hour end (10-13) puts it in
 * the morning, an end with am or pm decides it (7-9pm: evening; 10-1pm: morning; 12-3pm: noon), a
 * bare end does not (null: the start must say).
 */
function startHalfFrom(first: Clock, second: Clock): boolean | null {
  if (first.half || first.twentyFour) return null;
  if (second.twentyFour) return second.hour >= 12 && first.hour < second.hour - 12;
  if (!second.half) return null;
  if (first.hour === 12) return true;
  if (second.half === 'am') return false;
  return first.hour < (second.hour % 12 || 12);
}

/** A range's end: as written, or a bare hour on the half that comes soonest after the start. */
function endHour(second: Clock, startHour: number, periodPm: boolean | null): number | string {
  if (second.half || second.twentyFour) return hourOf(second, null);
  if (second.minute > 59 || second.hour > 12) return `"${second.text}" is not a time`;
  const candidates = [second.hour % 12, (second.hour % 12) + 12];
  if (periodPm !== null) return candidates[periodPm ? 1 : 0]!;
  return candidates.find((hour) => hour > startHour) ?? candidates[0]!;
}
