import { describe, expect, it } from 'vitest';
import { DAYS, gridToBits, SLOTS } from './grid';
import { MAX_TEXT_LENGTH, parseAvailabilityText } from './parse';
import {
  at,
  EVERY_DAY,
  FRI,
  gridOf,
  MON,
  SAT,
  seededRandom,
  SUN,
  THU,
  TUE,
  WED,
  WEEKDAYS,
  WEEKEND,
  type Block,
} from '@/e2e/support/availability/test-helpers';

const NONE: Block[] = [];

/** phrase → exact expected cells (hours are [from, to) on the 24h clock). */
const CASES: readonly (readonly [string, readonly Block[]])[] = [
  // Day sets
  ['weekends', [at(WEEKEND, 6, 24)]],
  ['Weekend', [at(WEEKEND, 6, 24)]],
  ['weekdays', [at(WEEKDAYS, 6, 24)]],
  ['weeknights', [at(WEEKDAYS, 17, 24)]],
  ['every day', [at(EVERY_DAY, 6, 24)]],
  ['everyday', [at(EVERY_DAY, 6, 24)]],
  ['daily', [at(EVERY_DAY, 6, 24)]],
  ['anytime', [at(EVERY_DAY, 6, 24)]],
  ['any time', [at(EVERY_DAY, 6, 24)]],
  ['24/7', [at(EVERY_DAY, 6, 24)]],
  ['7 days a week', [at(EVERY_DAY, 6, 24)]],
  ['M-F', [at(WEEKDAYS, 6, 24)]],
  // Single days, abbreviations and plurals
  ['Monday', [at([MON], 6, 24)]],
  ['mon', [at([MON], 6, 24)]],
  ['tues', [at([TUE], 6, 24)]],
  ['weds', [at([WED], 6, 24)]],
  ['thurs', [at([THU], 6, 24)]],
  ['Fridays', [at([FRI], 6, 24)]],
  ['sat', [at([SAT], 6, 24)]],
  ['sun', [at([SUN], 6, 24)]],
  ['Sat.', [at([SAT], 6, 24)]],
  ['mon, tues, weds, thurs', [at([MON, TUE, WED, THU], 6, 24)]],
  ['Mon-Fri', [at(WEEKDAYS, 6, 24)]],
  ['Monday through Thursday', [at([MON, TUE, WED, THU], 6, 24)]],
  ['fri-mon', [at([FRI, SAT, SUN, MON], 6, 24)]],
  // Periods
  ['mornings', [at(EVERY_DAY, 6, 12)]],
  ['afternoons', [at(EVERY_DAY, 12, 17)]],
  ['evenings', [at(EVERY_DAY, 17, 24)]],
  ['nights', [at(EVERY_DAY, 17, 24)]],
  ['night', [at(EVERY_DAY, 17, 24)]],
  ['lunchtime', [at(EVERY_DAY, 12, 14)]],
  ['lunch', [at(EVERY_DAY, 12, 14)]],
  ['noon', [at(EVERY_DAY, 12, 13)]],
  ['12pm', [at(EVERY_DAY, 12, 13)]],
  ['9:30am', [at(EVERY_DAY, 9, 10)]],
  ['early mornings', [at(EVERY_DAY, 6, 9)]],
  ['late evenings', [at(EVERY_DAY, 20, 24)]],
  ['morning or evening', [at(EVERY_DAY, 6, 12), at(EVERY_DAY, 17, 24)]],
  ['mornings, evenings', [at(EVERY_DAY, 6, 12), at(EVERY_DAY, 17, 24)]],
  ['after work', [at(WEEKDAYS, 17, 24)]],
  ['Saturday after work', [at([SAT], 17, 24)]],
  // Days with periods
  ['weekend mornings', [at(WEEKEND, 6, 12)]],
  ['Saturday mornings', [at([SAT], 6, 12)]],
  ['saturday am', [at([SAT], 6, 12)]],
  ['sunday pm', [at([SUN], 12, 24)]],
  ['sat & sun afternoons', [at(WEEKEND, 12, 17)]],
  ['Tue and Thu evenings', [at([TUE, THU], 17, 24)]],
  ['Tue/Thu evenings', [at([TUE, THU], 17, 24)]],
  ['Saturday or Sunday morning', [at(WEEKEND, 6, 12)]],
  ['Saturday mornings and evenings', [at([SAT], 6, 12), at([SAT], 17, 24)]],
  ['mornings on Sat and Sun', [at(WEEKEND, 6, 12)]],
  ['weekend nights', [at(WEEKEND, 17, 24)]],
  ['weekday lunch', [at(WEEKDAYS, 12, 14)]],
  ['Saturday all day', [at([SAT], 6, 24)]],
  ['all day Sunday', [at([SUN], 6, 24)]],
  ['all-day saturdays', [at([SAT], 6, 24)]],
  // Clock times
  ['Mon-Fri after 6pm', [at(WEEKDAYS, 18, 24)]],
  ['weekdays before 9am', [at(WEEKDAYS, 6, 9)]],
  ['weekdays until 9:30am', [at(WEEKDAYS, 6, 9)]],
  ['Sunday 10am-2pm', [at([SUN], 10, 14)]],
  ['Sunday 10–2', [at([SUN], 10, 14)]],
  ['Fridays from 7 to 10pm', [at([FRI], 19, 22)]],
  ['6-9pm on Wednesdays', [at([WED], 18, 21)]],
  ['between 6 and 9pm', [at(EVERY_DAY, 18, 21)]],
  ['Wed 7:30-9:30pm', [at([WED], 20, 21)]],
  ['Monday, Wednesday, Friday after 5:30pm', [at([MON, WED, FRI], 18, 24)]],
  ['Mon–Fri 9–5', [at(WEEKDAYS, 9, 17)]],
  ['18:00-21:00 on weekdays', [at(WEEKDAYS, 18, 21)]],
  ['Tue/Thu 6-8pm', [at([TUE, THU], 18, 20)]],
  ['7pm onwards', [at(EVERY_DAY, 19, 24)]],
  ['from 8 till late', [at(EVERY_DAY, 20, 24)]],
  ['6pm to midnight', [at(EVERY_DAY, 18, 24)]],
  ['Saturdays 9ish-noon', [at([SAT], 9, 12)]],
  ['at 7 in the evening', [at(EVERY_DAY, 19, 20)]],
  ['around 8pm on Fridays', [at([FRI], 20, 21)]],
  ['after 9', [at(EVERY_DAY, 21, 24)]],
  ['before noon', [at(EVERY_DAY, 6, 12)]],
  ['no later than 9pm', [at(EVERY_DAY, 6, 21)]],
  ['anytime after 6pm', [at(EVERY_DAY, 18, 24)]],
  // Clamping to 6am-midnight
  ['5am-8am', [at(EVERY_DAY, 6, 8)]],
  ['Sunday before 7am', [at([SUN], 6, 7)]],
  ['10pm-2am', [at(EVERY_DAY, 22, 24)]],
  ['9-1am', [at(EVERY_DAY, 21, 24)]],
  ['3am-5am', NONE],
  ['after midnight', NONE],
  // Periods narrowed by a clock time
  ['evenings after 7', [at(EVERY_DAY, 19, 24)]],
  ['weeknights after 8', [at(WEEKDAYS, 20, 24)]],
  ['mornings before 10 on weekdays', [at(WEEKDAYS, 6, 10)]],
  ['weekdays before 9 or after 6', [at(WEEKDAYS, 6, 9), at(WEEKDAYS, 18, 24)]],
  // Several clauses
  ['weekends and weekday evenings', [at(WEEKEND, 6, 24), at(WEEKDAYS, 17, 24)]],
  ['evenings and weekends', [at(EVERY_DAY, 17, 24), at(WEEKEND, 6, 24)]],
  ['weekdays after 6pm, weekends anytime', [at(WEEKDAYS, 18, 24), at(WEEKEND, 6, 24)]],
  ['Saturday mornings and Sunday evenings', [at([SAT], 6, 12), at([SUN], 17, 24)]],
  ['Saturday mornings, Sunday evenings', [at([SAT], 6, 12), at([SUN], 17, 24)]],
  ['thursday evening; also saturday', [at([THU], 17, 24), at([SAT], 6, 24)]],
  ['Friday night and all weekend', [at([FRI], 17, 24), at(WEEKEND, 6, 24)]],
  ['Weekends, mornings only', [at(WEEKEND, 6, 12)]],
  ['free after work on weekdays and anytime on weekends', [at(WEEKDAYS, 17, 24), at(WEEKEND, 6, 24)]],
  ['weekends and Wednesday evenings', [at(WEEKEND, 6, 24), at([WED], 17, 24)]],
  // Exclusions
  ['every day except Monday', [at([TUE, WED, THU, FRI, SAT, SUN], 6, 24)]],
  ['weekends but not Sundays', [at([SAT], 6, 24)]],
  ['weekends, not Sundays', [at([SAT], 6, 24)]],
  ['evenings except Fridays', [at([MON, TUE, WED, THU, SAT, SUN], 17, 24)]],
  ['every day except Mon, Tue', [at([WED, THU, FRI, SAT, SUN], 6, 24)]],
  // Issue 36's table: each used to be misread with nothing reported.
  ['weekday evenings except Wednesdays and Sunday mornings', [at([MON, TUE, THU, FRI], 17, 24), at([SUN], 6, 12)]],
  ['mornings before work, and all day saturday', [at(WEEKDAYS, 6, 9), at([SAT], 6, 24)]],
  ['I work nights so mornings are best', [at(EVERY_DAY, 6, 12)]],
  ['weekdays except Wednesdays and Thursdays', [at([MON, TUE, FRI], 6, 24)]],
  ['late', [at(EVERY_DAY, 20, 24)]],
  ['most evenings', [at(EVERY_DAY, 17, 24)]],
  ['until 3pm', [at(EVERY_DAY, 6, 15)]],
  ['weekends (not Sunday morning)', [at([SAT], 6, 24), at([SUN], 12, 24)]],
  ['Sunday morning or afternoon but not evening', [at([SUN], 6, 17)]],
  ["weekdays, but I can't do Tuesdays", [at([MON, WED, THU, FRI], 6, 24)]],
  // After an exception, a comma and days with their own time: more free time when excepting
  // them would remove nothing (issue 14: Friday was kept and Saturday lost), still part of
  // the exception when they overlap what is free.
  ['weeknights except fridays, sat afternoons', [at([MON, TUE, WED, THU], 17, 24), at([SAT], 12, 17)]],
  ['weeknights but not fridays, sunday mornings', [at([MON, TUE, WED, THU], 17, 24), at([SUN], 6, 12)]],
  ['weekends except sunday, mon evenings', [at([SAT], 6, 24), at([MON], 17, 24)]],
  ['every evening except mon, tue evenings', [at([WED, THU, FRI, SAT, SUN], 17, 24)]],
  ['weekends except saturday mornings, sunday evenings', [at([SAT], 12, 24), at([SUN], 6, 17)]],
  // Issue 36's last twelve misreads, each as a rule.
  // A range after a comma or in brackets states the period's hours; a point there is an example.
  ['Saturday afternoons, 2 to 4', [at([SAT], 14, 16)]],
  ['evenings (6pm-11pm)', [at(EVERY_DAY, 18, 23)]],
  ['early evenings (like 5pm)', [at(EVERY_DAY, 17, 20)]],
  // Seven is evening unless it says am; eight to eleven stay morning.
  ['at 7:30', [at(EVERY_DAY, 19, 20)]],
  ['Sat 7am', [at([SAT], 7, 8)]],
  ['Monday 7-10', [at([MON], 19, 22)]],
  ['Saturday 8-10', [at([SAT], 8, 10)]],
  // Numbers in words, with am/pm or o'clock, and "starting … ending" ranges.
  ['starting at two pm and ending at eight pm', [at(EVERY_DAY, 14, 20)]],
  ["Sundays at seven o'clock", [at([SUN], 19, 20)]],
  // Days in brackets after a day set name which of them.
  ['weekdays (Mon, Wed)', [at([MON, WED], 6, 24)]],
  // "all day" before a list of days does not swallow a later day's own time.
  ['all day saturday and sunday morning', [at([SAT], 6, 24), at([SUN], 6, 12)]],
  // "other nights" are the days not already named.
  ["Tuesdays after 7, I'm busy other nights", [at([TUE], 19, 24)]],
  ['weekends, not other days', [at(WEEKEND, 6, 24)]],
  ['early each morning or late every night', [at(EVERY_DAY, 6, 9), at(EVERY_DAY, 20, 24)]],
];

describe('parseAvailabilityText: phrases', () => {
  it.each(CASES)('%s', (text, blocks) => {
    const { grid, unparsed } = parseAvailabilityText(text);
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(...blocks)));
    expect(unparsed).toEqual([]);
  });

  it('is case-insensitive', () => {
    expect(parseAvailabilityText('SATURDAY MORNINGS').grid).toEqual(parseAvailabilityText('saturday mornings').grid);
  });

  it('ignores filler words', () => {
    const { grid, unparsed } = parseAvailabilityText(
      "I'm usually free on Saturday mornings, and sometimes Sunday evenings.",
    );
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(at([SAT], 6, 12), at([SUN], 17, 24))));
    expect(unparsed).toEqual([]);
  });
});

describe('parseAvailabilityText: busy times alone ask rather than store an empty week', () => {
  // Issue 36: "not mondays" used to read as "No availability set" with nothing reported.
  it.each(['not Sundays', 'except Monday', 'not mondays', "I can't do Tuesdays"])('%s', (text) => {
    const { grid, unparsed } = parseAvailabilityText(text);
    expect(gridToBits(grid)).toBe('0'.repeat(126));
    expect(unparsed).toHaveLength(1);
    expect(unparsed[0]).toMatch(/says only when they are busy, so nothing was stored for it: ask which days and times/);
  });

  it('asks nothing when a busy time comes with free time', () => {
    expect(parseAvailabilityText('I work nights so mornings are best').unparsed).toEqual([]);
  });
});

describe('parseAvailabilityText: typos are fixed and reported', () => {
  it.each([
    ['wendesday evnings', [at([WED], 17, 24)], ['read "wendesday" as "wednesday"', 'read "evnings" as "evenings"']],
    ['saturay mornings', [at([SAT], 6, 12)], ['read "saturay" as "saturday"']],
    ['weekneds', [at(WEEKEND, 6, 24)], ['read "weekneds" as "weekends"']],
  ] as const)('%s', (text, blocks, corrected) => {
    const result = parseAvailabilityText(text);
    expect(gridToBits(result.grid)).toBe(gridToBits(gridOf(...blocks)));
    expect(result.corrected).toEqual(corrected);
    expect(result.unparsed).toEqual([]);
  });
});

// Issue 44 §3: a time off the hour never claims the part of its hour that was not offered.
describe('parseAvailabilityText: times off the hour count inward, and are reported', () => {
  it.each([
    [
      'after 6:30 on weekdays',
      [at(WEEKDAYS, 19, 24)],
      ['6:30pm falls in the hour 6pm–7pm, so free time is counted from 7pm'],
    ],
    [
      'sat 9:30am to 12:45pm',
      [at([SAT], 10, 12)],
      [
        '9:30am falls in the hour 9am–10am, so free time is counted from 10am',
        '12:45pm falls in the hour noon–1pm, so free time is counted until noon',
      ],
    ],
    [
      'evenings from 18:15 until 21:30',
      [at(EVERY_DAY, 19, 21)],
      [
        '6:15pm falls in the hour 6pm–7pm, so free time is counted from 7pm',
        '9:30pm falls in the hour 9pm–10pm, so free time is counted until 9pm',
      ],
    ],
    ['mondays 9:30-11', [at([MON], 10, 11)], ['9:30am falls in the hour 9am–10am, so free time is counted from 10am']],
    // Within one hour nothing is whole: nothing is claimed.
    [
      'fridays 9:15-9:45am',
      [],
      [
        '9:15am falls in the hour 9am–10am, so free time is counted from 10am',
        '9:45am falls in the hour 9am–10am, so free time is counted until 9am',
      ],
    ],
    ['weekends after 6', [at(WEEKEND, 18, 24)], []],
    ['weekday evenings', [at(WEEKDAYS, 17, 24)], []],
  ] as const)('%s', (text, blocks, expected) => {
    const { grid, rounded } = parseAvailabilityText(text);
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(...blocks)));
    expect(rounded.map((r) => r.split(' (')[0])).toEqual(expected);
    for (const r of rounded)
      expect(r).toMatch(/\(it is kept in whole hours, and an hour only partly free is left out\)$/);
  });
});

describe('parseAvailabilityText: unparsed fragments', () => {
  it.each([
    ['weekends and when the moon is full', [at(WEEKEND, 6, 24)], ['when the moon is full']],
    // Issue 36: a fragment comes back with the clause it came from when that clause said more.
    ['2 evenings a week', [at(EVERY_DAY, 17, 24)], ['2 (in "2 evenings a week")']],
    ['Every other Sunday', [at([SUN], 6, 24)], ['other (in "Every other Sunday")']],
    // An aside in brackets is reported and the clause reads on past it.
    [
      'most Mondays (apart from Bank holidays) 8-10pm',
      [at([MON], 20, 22)],
      ['Bank holidays (in "most Mondays (apart from Bank holidays) 8-10pm")'],
    ],
    ['at two', NONE, ['two']],
    ['tonight and tomorrow', NONE, ['tonight', 'tomorrow']],
    // Issue 36: "after church" narrows Sunday in a way we cannot read; storing all Sunday would widen it.
    ['after church on Sundays', NONE, ['after church (in "after church on Sundays")']],
    // A condition we cannot read stores nothing for its clause.
    ['whenever it is not raining', NONE, ['raining (in "whenever it is not raining")']],
    ['when my kids are with their dad', NONE, ['when my kids are with their dad']],
    ['  gibberish  ', NONE, ['gibberish']],
  ] as const)('%s', (text, blocks, fragments) => {
    const { grid, unparsed } = parseAvailabilityText(text);
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(...blocks)));
    expect(unparsed).toEqual(fragments);
  });

  it('returns nothing for empty or blank text', () => {
    for (const text of ['', '   ', '\n', ',;.']) {
      const { grid, unparsed } = parseAvailabilityText(text);
      expect(gridToBits(grid)).toBe('0'.repeat(126));
      expect(unparsed).toEqual([]);
    }
  });

  it(`reads only the first ${MAX_TEXT_LENGTH} characters and reports the rest`, () => {
    const text = `${'weekends '.padEnd(MAX_TEXT_LENGTH, ' ')}Monday evenings`;
    const { grid, unparsed } = parseAvailabilityText(text);
    expect(gridToBits(grid)).toBe(gridToBits(gridOf(at(WEEKEND, 6, 24))));
    expect(unparsed).toEqual(['Monday evenings']);
  });
});

describe('parseAvailabilityText: never throws', () => {
  const VOCABULARY = [
    'weekends',
    'mon',
    'Tue',
    'weds',
    'thurs',
    'sat',
    'sun',
    'and',
    'or',
    'but',
    'not',
    'except',
    'after',
    'before',
    'from',
    'to',
    'until',
    'between',
    'at',
    'noon',
    'midnight',
    'lunch',
    'late',
    'all',
    'day',
    'every',
    'any',
    'time',
    'morning',
    'evenings',
    'nights',
    'weeknights',
    '6',
    '9pm',
    '10:30',
    '12am',
    '0',
    '24',
    '99',
    '1800',
    'am',
    'pm',
    '-',
    '–',
    ',',
    ';',
    '.',
    '&',
    '/',
    '(',
    ')',
    ':',
    '24/7',
    'onwards',
    'or later',
    'in the',
    'ish',
    "can't",
    'é',
    '🙂',
  ];
  const CHARS = 'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789:;,.-–—&+/()[]!?\'"\n\t\\$%^*~`|<>{}é漢🙂\u0000\u200b';

  function randomText(random: () => number): string {
    const length = Math.floor(random() * 80);
    let out = '';
    for (let i = 0; i < length; i++) {
      out +=
        random() < 0.5
          ? `${VOCABULARY[Math.floor(random() * VOCABULARY.length)]} `
          : [...CHARS][Math.floor(random() * [...CHARS].length)];
    }
    return out;
  }

  it('returns a well-formed result for 500 random strings', () => {
    const random = seededRandom(20240601);
    for (let n = 0; n < 500; n++) {
      const text = randomText(random);
      const result = parseAvailabilityText(text);
      expect(result.grid).toHaveLength(DAYS);
      expect(result.grid.every((row) => row.length === SLOTS && row.every((c) => typeof c === 'boolean'))).toBe(true);
      for (const fragment of result.unparsed) {
        expect(fragment).toBe(fragment.trim());
        expect(fragment.length).toBeGreaterThan(0);
      }
    }
  });

  it('parses hostile 500-character inputs quickly (no backtracking blow-up)', () => {
    // Generous bound for a shared machine: a healthy parse takes about a millisecond.
    for (const unit of ['after ', 'not except 6 - 9 - ', 'wendesdya evnigns ', 'qzxvbn ', 'mon-', '(', '9']) {
      const text = unit.repeat(500).slice(0, MAX_TEXT_LENGTH);
      parseAvailabilityText(text);
      const started = performance.now();
      parseAvailabilityText(text);
      expect(performance.now() - started).toBeLessThan(50);
    }
  });

  it('survives huge and odd inputs', () => {
    expect(() => parseAvailabilityText('after '.repeat(10_000))).not.toThrow();
    expect(() => parseAvailabilityText('9'.repeat(5_000))).not.toThrow();
    expect(() => parseAvailabilityText('-'.repeat(600))).not.toThrow();
    expect(parseAvailabilityText(undefined as unknown as string)).toEqual({
      grid: expect.any(Array),
      unparsed: [],
      rounded: [],
      corrected: [],
    });
    expect(parseAvailabilityText(42 as unknown as string).unparsed).toEqual([]);
  });
});
