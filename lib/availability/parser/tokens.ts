// Tokens: words, numbers read as clock times, dashes and separators, with their place in the text.

export type SepLevel = 'hard' | 'soft' | 'conj';

export interface Clock {
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

export type Token =
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

export function tokenize(text: string): Token[] {
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
