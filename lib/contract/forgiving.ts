// Forgiving input: the shapes agents commonly send instead of the documented one
// (a comma-separated string for a list, "38.7,-9.1" for coords, "woman" for a gender,
// "March 3 1990" for a birthday) are accepted and converted, and each conversion is
// noted so the answer can say what was understood (warnings.normalized) and the agent
// can confirm it with the person. What stays ambiguous is refused with the exact fix.
import { z } from 'zod';
import { canonicalizeActivities } from '../activities/canonicalize';
import { canonicalTimezone, timezoneSuggestions } from '../geo/timezone';
import { ApiError } from '../core/errors';
import { REPORT_REASONS } from './limits';
import { coordsSchema, GENDERS, genderSchema } from './schemas';
import { singleLine } from './text';

// zod parses synchronously, so notes made by transforms during one parse belong to it:
// nothing else runs between collectNormalizations setting the list and restoring it.
let notes: string[] | null = null;

/**
 * Published schemas (OpenAPI, MCP tools, guides, the fuzzer's arbitraries) show a
 * forgiving field as its documented form or a plain string (issue 30 §4): a host that
 * validates arguments before calling must let through the slips the server forgives
 * ("woman", "3 March 1990", "hiking, coffee"). The documented form comes first, so a
 * model still reads the enum or format; the forms understood are in the description.
 */
export interface PublishedForm {
  documented: z.ZodType;
  /** Longest text the server reads in place of the documented form. */
  textMaxLength: number;
}
const publishedForms = new WeakMap<object, PublishedForm>();

function documentedAs<T extends z.ZodType>(forgiving: T, documented: z.ZodType, textMaxLength: number): T {
  publishedForms.set(forgiving, { documented, textMaxLength });
  return forgiving;
}

/** How a forgiving schema is published, or undefined for any other schema. */
export function publishedFormOf(schema: object): PublishedForm | undefined {
  return publishedForms.get(schema);
}

/** Runs a (synchronous) parse and returns what its transforms noted. */
export function collectNormalizations<T>(parse: () => T): { value: T; normalized: string[] } {
  const outer = notes;
  notes = [];
  try {
    const value = parse();
    return { value, normalized: notes };
  } finally {
    notes = outer;
  }
}

function note(text: string): void {
  notes?.push(text);
}

const quoted = (value: unknown) => JSON.stringify(value);

/** "hiking, coffee; board games" → ["hiking", "coffee", "board games"]. */
export function splitList(text: string): string[] {
  return text
    .split(/[,;\n]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * A list that may also arrive as one comma-separated string: the array schema is what is
 * documented; the string is split, noted, and checked by the same array schema.
 */
const LIST_TEXT_MAX = 2000;

export function listOrCommaText<T extends z.ZodType<unknown, string[]>>(field: string, array: T) {
  const fromText = singleLine()
    .max(LIST_TEXT_MAX)
    .transform((text) => {
      const items = splitList(text);
      note(`${field}: the text ${quoted(text)} was read as the list ${quoted(items)}`);
      return items;
    })
    .pipe(array);
  return documentedAs(z.union([array, fromText]), array, LIST_TEXT_MAX);
}

export const AVAILABILITY_FIX = 'use availability_text: "weekday evenings after 6" (plain English)';

const COORDS_TEXT = /^\s*\(?\s*(-?\d{1,3}(?:\.\d+)?)\s*[,;\s]\s*(-?\d{1,3}(?:\.\d+)?)\s*\)?\s*$/;
export const COORDS_FIX = 'use {"latitude": 38.72, "longitude": -9.14} (or the text "38.72,-9.14", latitude first)';

/** {latitude, longitude}, or the text "38.7,-9.1" (latitude first, as maps copy it). */
export const coordsInputSchema = documentedAs(
  z.union(
    [
      coordsSchema,
      singleLine()
        .max(60)
        .transform((text, ctx) => {
          const match = COORDS_TEXT.exec(text);
          if (!match) {
            ctx.issues.push({ code: 'custom', message: COORDS_FIX, input: text });
            return z.NEVER;
          }
          const coords = { latitude: Number(match[1]), longitude: Number(match[2]) };
          note(
            `coords: the text ${quoted(text)} was read as latitude ${coords.latitude}, longitude ${coords.longitude}`,
          );
          return coords;
        })
        .pipe(coordsSchema),
    ],
    { error: COORDS_FIX },
  ),
  coordsSchema,
  60,
);

type Gender = (typeof GENDERS)[number];
// A Map, not an object literal: the word is the caller's, and "constructor" must not find Object (issue 41).
const GENDER_WORDS: ReadonlyMap<string, Gender> = new Map([
  ['female', 'female'],
  ['f', 'female'],
  ['woman', 'female'],
  ['women', 'female'],
  ['girl', 'female'],
  ['lady', 'female'],
  ['male', 'male'],
  ['m', 'male'],
  ['man', 'male'],
  ['men', 'male'],
  ['boy', 'male'],
  ['guy', 'male'],
  ['nonbinary', 'non_binary'],
  ['nb', 'non_binary'],
  ['enby', 'non_binary'],
  ['genderqueer', 'non_binary'],
  ['prefernottosay', 'prefer_not_to_say'],
  ['rathernotsay', 'prefer_not_to_say'],
  ['prefernottoanswer', 'prefer_not_to_say'],
  ['undisclosed', 'prefer_not_to_say'],
  ['notsaying', 'prefer_not_to_say'],
]);
export const GENDER_FIX = `use one of ${GENDERS.join(', ')} (woman, man, nonbinary and "prefer not to say" are understood too)`;

/** The stored gender for a word people use, or null. */
export function genderFromWord(word: string): Gender | null {
  return GENDER_WORDS.get(word.toLowerCase().replace(/[^a-z]/g, '')) ?? null;
}

export const genderInputSchema = documentedAs(
  z.union(
    [
      genderSchema,
      singleLine()
        .max(40)
        .transform((text, ctx) => {
          const gender = genderFromWord(text);
          if (!gender) {
            ctx.issues.push({ code: 'custom', message: GENDER_FIX, input: text });
            return z.NEVER;
          }
          note(`gender: ${quoted(text)} was read as ${gender}`);
          return gender;
        }),
    ],
    { error: GENDER_FIX },
  ),
  genderSchema,
  40,
);

export const TIMEZONE_FIX = 'use an IANA time zone name such as "Europe/Lisbon" or "America/New_York"';

/** An IANA zone name in any letter case, or an alias ("US/Eastern"); unknown names get the closest ones. */
export const timezoneInputSchema = documentedAs(
  singleLine()
    .max(64)
    .transform((text, ctx) => {
      const zone = canonicalTimezone(text);
      if (!zone) {
        const close = timezoneSuggestions(text);
        const guess = close.length > 0 ? `did you mean ${close.join(', ')}? ` : '';
        ctx.issues.push({
          code: 'custom',
          message: `unknown time zone ${quoted(text)}: ${guess}${TIMEZONE_FIX}`,
          input: text,
        });
        return z.NEVER;
      }
      if (zone !== text) note(`timezone: ${quoted(text)} was read as ${zone}`);
      return zone;
    }),
  z.string().max(64),
  64,
);

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const BIRTHDAY_FIX = 'use YYYY-MM-DD, e.g. 1990-03-03 (or "3 March 1990")';

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const realDate = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1000 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};
/** 1-12 for a month's name or its first three or more letters ("Mar", "Sept."), else 0. */
const monthNumber = (word: string) => {
  const w = word.toLowerCase().replace(/\.$/, '');
  return w.length < 3 ? 0 : MONTH_NAMES.findIndex((name) => name.toLowerCase().startsWith(w)) + 1;
};

export type BirthdayReading = { date: string } | { problem: string };

/**
 * A birthday in any form whose day and month cannot be confused: YYYY-MM-DD, YYYY/M/D,
 * "March 3 1990", "3 March 1990", "Mar 3rd, 1990"; and D/M/YYYY only when one of the two
 * numbers is over 12 (03/04/1990 is 3 April in most of the world and March 4 in the US).
 */
export function readBirthday(text: string): BirthdayReading {
  const t = text
    .trim()
    .replace(/(\d)(st|nd|rd|th)\b/gi, '$1')
    .replace(/,/g, ' ')
    .replace(/\s+/g, ' ');
  const checked = (y: number, m: number, d: number): BirthdayReading =>
    realDate(y, m, d) ? { date: iso(y, m, d) } : { problem: `${quoted(text)} is not a real date: ${BIRTHDAY_FIX}` };
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(t)))
    return checked(+m[1]!, +m[2]!, +m[3]!);
  if ((m = /^([a-z]+\.?) (\d{1,2}) (\d{4})$/i.exec(t)) && monthNumber(m[1]!))
    return checked(+m[3]!, monthNumber(m[1]!), +m[2]!);
  if ((m = /^(\d{1,2}) ([a-z]+\.?) (\d{4})$/i.exec(t)) && monthNumber(m[2]!))
    return checked(+m[3]!, monthNumber(m[2]!), +m[1]!);
  if ((m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t))) {
    const [a, b, y] = [+m[1]!, +m[2]!, +m[3]!];
    if (a === b || (a > 12 && b <= 12)) return checked(y, b, a);
    if (b > 12 && a <= 12) return checked(y, a, b);
    if (a <= 12 && b <= 12) {
      return {
        problem:
          `${quoted(text)} is ambiguous (${a} ${MONTH_NAMES[b - 1]} or ${MONTH_NAMES[a - 1]} ${b}?): ` +
          `use YYYY-MM-DD, e.g. ${iso(y, b, a)} for ${a} ${MONTH_NAMES[b - 1]} ${y}`,
      };
    }
  }
  return { problem: BIRTHDAY_FIX };
}

/** A birthday as YYYY-MM-DD, or any unambiguous form (noted), then the stored rules (minimum age). */
export function birthdayInputSchema<T extends z.ZodType<string, string>>(stored: T) {
  const forgiving = singleLine()
    .max(40)
    .transform((text, ctx) => {
      if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
      const reading = readBirthday(text);
      if ('problem' in reading) {
        ctx.issues.push({ code: 'custom', message: reading.problem, input: text });
        return z.NEVER;
      }
      note(`birthday: ${quoted(text)} was read as ${reading.date}`);
      return reading.date;
    })
    .pipe(stored);
  return documentedAs(forgiving, stored, 40);
}

/**
 * A field that also arrives under the name another endpoint uses for it (photoMimeType
 * at registration, mimeType on the photo upload): either name is taken, the other one
 * noted; both with different values is refused.
 */
export function eitherName<T>(
  body: Record<string, unknown>,
  name: string,
  alias: string,
  notes: string[],
): T | null | undefined {
  const [value, aliased] = [body[name], body[alias]] as [T | null | undefined, T | null | undefined];
  if (aliased === undefined || aliased === null) return value;
  if (value !== undefined && value !== null && value !== aliased) {
    throw new ApiError('validation_failed', `${name} and ${alias} name the same thing and differ`, {
      hint: `Send only ${name}.`,
      fields: { [alias]: `same as ${name}: send only ${name}` },
    });
  }
  if (value === undefined || value === null) notes.push(`${alias}: read as ${name}`);
  return aliased;
}

/** Why some activity words matched nothing, with the closest ids for each (keyed by the caller's own words). */
export function unknownActivitiesMessage(
  unmatched: readonly string[],
  suggestions: ReadonlyMap<string, readonly string[]>,
): string {
  const words = unmatched.map((word) => {
    const close = suggestions.get(word) ?? [];
    return close.length > 0 ? `${quoted(word)} (did you mean ${close.join(', ')}?)` : quoted(word);
  });
  return `unknown activit${unmatched.length > 1 ? 'ies' : 'y'}: ${words.join(', ')}; plain English works ("bouldering", "board games"), see list_activities or /api/v1/activities.json`;
}

const MAX_UNKNOWN_WORDS_NAMED = 3;

/**
 * One list of activities, in plain English or as ids, for every endpoint that takes
 * activities to look for or tag (Discover's and the events' filters, a buddy request's
 * activityIds): canonical ids out, each word read as another id noted, and a word that
 * matches nothing refused with the closest ids (a search must not silently widen).
 * Profiles keep unmatched words as warnings instead (lib/profiles/fields.ts).
 */
export function activityListSchema(options: {
  field: string;
  form: 'query' | 'body';
  max: number;
  describe: string;
  allowEmpty?: boolean;
}) {
  const { field, form, max } = options;
  const items = z.array(singleLine().max(100)).max(max, { message: `at most ${max} activities` });
  const input = form === 'query' ? singleLine().max(2000).transform(splitList) : listOrCommaText(field, items);
  return input
    .transform((words, ctx) => {
      // Each word costs a catalog lookup, and one that matches nothing a suggestion: the
      // query form (2,000 characters, any number of words) is held to what could be valid,
      // and the refusal names the first few unknown words (issue 28).
      if (words.length > max * 2) {
        ctx.issues.push({ code: 'custom', message: `at most ${max} activities`, input: words });
        return z.NEVER;
      }
      const ids: string[] = [];
      const unmatched: string[] = [];
      // Keyed by the caller's words: a Map, so "constructor" or "__proto__" is just a word (issue 41).
      const suggestions = new Map<string, string[]>();
      for (const word of words) {
        if (unmatched.length >= MAX_UNKNOWN_WORDS_NAMED) break;
        const result = canonicalizeActivities([word]);
        unmatched.push(...result.unmatched);
        for (const [text, ids] of Object.entries(result.suggestions)) suggestions.set(text, ids);
        ids.push(...result.ids);
        const asId = word
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_');
        if (result.unmatched.length === 0 && (result.ids.length !== 1 || result.ids[0] !== asId)) {
          note(`${field}: ${quoted(word)} was read as ${result.ids.join(', ')}`);
        }
      }
      if (unmatched.length > 0) {
        ctx.issues.push({ code: 'custom', message: unknownActivitiesMessage(unmatched, suggestions), input: words });
        return z.NEVER;
      }
      const unique = [...new Set(ids)];
      if (unique.length === 0 && !options.allowEmpty)
        ctx.issues.push({ code: 'custom', message: 'name at least one activity', input: words });
      if (unique.length > max) ctx.issues.push({ code: 'custom', message: `at most ${max} activities`, input: words });
      return unique;
    })
    .describe(options.describe);
}

/**
 * One activity, in plain English or as an id, for what is about one activity (a meetup): its id out;
 * a word that matches nothing, or names several, is refused with the closest ids. No length or
 * description in the schema itself: tools/list carries every byte of it.
 */
export function oneActivitySchema() {
  return singleLine()
    .trim()
    .max(100)
    .transform((text, ctx) => {
      const { ids, unmatched, suggestions } = canonicalizeActivities([text]);
      if (ids.length !== 1 || unmatched.length > 0) {
        const message =
          ids.length > 1
            ? 'name one activity'
            : // Own entries only, as a Map: the caller's word may be "constructor" (issue 41 §3).
              unknownActivitiesMessage(unmatched.length ? unmatched : [text], new Map(Object.entries(suggestions)));
        ctx.issues.push({ code: 'custom', message, input: text });
        return z.NEVER;
      }
      return ids[0]!;
    });
}

type ReportReason = (typeof REPORT_REASONS)[number];
/** Words people use for each reason, tried in this order (a fake account that spams is fake_profile first). */
const REPORT_REASON_WORDS: ReadonlyArray<[ReportReason, RegExp]> = [
  ['underage', /\b(under\s?age|minors?\b|child|kids?\b|teen(ager)?|too young|under 1[3-8]|school ?(girl|boy))/],
  ['fake_profile', /\b(fake|catfish|imperson|pretend|not (a )?real|stolen (photo|picture)|bot\b|scam)/],
  ['spam', /\b(spam|advert|promot|selling|sales|marketing|crypto|links?\b)/],
  ['harassment', /\b(harass|bully|insult|abus|stalk|threat|creep|won.?t stop|kept messaging|rude|hate|slur)/],
  ['inappropriate_content', /\b(inappropriate|explicit|nude|nudity|sexual|porn|offensive|obscene|nsfw|lewd)/],
  ['safety_concern', /\b(unsafe|danger|safety|violen|scared|afraid|weapon|hurt)/],
  ['other', /^(other|something else|misc)/],
];
export const REPORT_REASON_FIX = `use one of ${REPORT_REASONS.join(', ')} (plain words such as "their profile looks fake" are understood too), and say what happened in text`;
const REPORT_REASON_TEXT_MAX = 200;

/** The reason enum value plain words name, or null. */
export function reportReasonFromWords(words: string): ReportReason | null {
  const text = words.toLowerCase().replace(/[_-]+/g, ' ').trim();
  const exact = REPORT_REASONS.find((reason) => reason.replace(/_/g, ' ') === text);
  return exact ?? REPORT_REASON_WORDS.find(([, pattern]) => pattern.test(text))?.[0] ?? null;
}

/** A report reason as the enum, or plain words read as one (noted); words that name none are refused with the list. */
export const reportReasonInputSchema = documentedAs(
  z.union(
    [
      z.enum(REPORT_REASONS),
      singleLine()
        .max(REPORT_REASON_TEXT_MAX)
        .transform((text, ctx) => {
          const reason = reportReasonFromWords(text);
          if (!reason) {
            ctx.issues.push({ code: 'custom', message: REPORT_REASON_FIX, input: text });
            return z.NEVER;
          }
          note(`reason: ${quoted(text)} was read as ${reason}`);
          return reason;
        }),
    ],
    { error: REPORT_REASON_FIX },
  ),
  z.enum(REPORT_REASONS),
  REPORT_REASON_TEXT_MAX,
);
