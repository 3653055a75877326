// Vocabulary: day names, phrases and the items they stand for, time leads and named times.
import { ALL_DAY, daysItem, EXCEPT, NEG, OTHER_DAYS, timeItem, WHENEVER, WORK, type Item } from './items';
import { ALL_DAYS, hoursMask, periodMask, WEEKDAYS, WEEKEND } from './masks';

export const DAY_FORMS: readonly (readonly string[])[] = [
  ['mon', 'mons', 'monday', 'mondays'],
  ['tue', 'tues', 'tuesday', 'tuesdays', 'tusday', 'tuseday', 'teusday'],
  ['wed', 'weds', 'wednesday', 'wednesdays', 'wednsday', 'wensday', 'wendsday', 'wedsday'],
  ['thu', 'thur', 'thurs', 'thursday', 'thursdays', 'thurday', 'thursdy', 'thirsday', 'thrusday'],
  ['fri', 'fris', 'friday', 'fridays'],
  ['sat', 'sats', 'saturday', 'saturdays', 'saterday', 'satuday'],
  ['sun', 'suns', 'sunday', 'sundays'],
];
export const DAY_WORDS = new Map<string, number>(
  DAY_FORMS.flatMap((forms, day) => forms.map((f): [string, number] => [f, day])),
);

export const RANGE_WORDS = new Set(['to', 'till', 'til', 'until', 'through', 'thru']);
export const APPROX_WORDS = new Set(['around', 'about', 'approximately', 'approx', 'roughly', 'like']);
/** "starting at two pm and ending at eight pm": the words that lead to a range's end. */
export const RANGE_CONNECTORS = [
  'and ending|finishing at',
  'ending|finishing at',
  'and ending|finishing',
  'and going until|till|to',
].map((spec) => spec.split(' ').map((w) => w.split('|')));
export const TIME_SUFFIXES = new Set(['ish', "o'clock", 'oclock', 'h', 'hr', 'hrs']);

/** Words that carry no scheduling meaning; skipped silently rather than reported. */
export const FILLERS = new Set(
  (
    "i i'm im i'd i'll me my we we're us you it it's its this that these those is are am be being been was were " +
    'free available availability avail usually generally normally typically mostly often sometimes always ' +
    'only just mainly probably possibly maybe hopefully ideally preferably prefer preferred best better ' +
    'good great fine ok okay works can could would will do does should on in at of for the a an ' +
    'during each every any all either both most some from to by with around about then too as well like ' +
    'day days week weeks weekly per time times hour hours usual really pretty much please thanks hi hey hello ' +
    "etc anyway meet meeting up out open reach reachable h hr hrs ish o'clock oclock onwards onward " +
    // "whenever possible", "whenever you want": words that leave "whenever" meaning any time.
    'possible want wants need needed suits suit convenient'
  ).split(/\s+/),
);

export interface Phrase {
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

export const MORNING = periodMask('morning');
const AFTERNOON = periodMask('afternoon');
const EVENING = periodMask('evening');

export const PHRASES: readonly Phrase[] = [
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
  phrase('anytime', [ALL_DAY], true),
  phrase('whenever', [WHENEVER], true),
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

export type Lead = 'after' | 'before' | 'from' | 'between' | 'at' | 'none';

export const LEADS: readonly { words: readonly (readonly string[])[]; lead: Lead }[] = [
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
export const DAYPART_SUFFIXES: readonly { words: readonly (readonly string[])[]; meridiem: 'am' | 'pm' }[] = [
  { words: words('in the morning'), meridiem: 'am' },
  { words: words('in the afternoon|evening'), meridiem: 'pm' },
  { words: words('at night'), meridiem: 'pm' },
];
/** Words that make what follows a condition on the clause before them ("saturdays if it is sunny"). */
export const CONDITION_WORDS = new Set(['if', 'when', 'unless', 'provided', 'providing', 'assuming', 'depending']);

export const TIME_LEAD_WORDS = new Set([
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

export const NAMED_ENDPOINTS = new Map<string, { start: number; end: number }>([
  ['noon', { start: 12, end: 12 }],
  ['midday', { start: 12, end: 12 }],
  ['midnight', { start: 24, end: 24 }],
  ['lunch', { start: 12, end: 14 }],
  ['lunchtime', { start: 12, end: 14 }],
  ['dinner', { start: 18, end: 20 }],
  ['dinnertime', { start: 18, end: 20 }],
  ['late', { start: 24, end: 24 }],
]);
