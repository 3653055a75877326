// Validation messages a person would say. zod's own ("Too small: expected string to have
// >=1 characters") reached the web pages and the agents' error.fields; instead:
//  - z.config's customError (installed when this module loads; every contract schema
//    module imports it) turns each default issue into a short predicate with no subject
//    ("can be at most 60 characters", "is required"), so it reads even where no field
//    name is at hand. It is a pure function of the issue, so fieldMessage recognises its
//    words by computing them again (no shared state: a bundler may load this module twice);
//  - fieldMessage() (used by lib/contract/validation.ts for error.fields) puts the field in
//    words in front ("Name can be at most 60 characters"), or says the whole sentence for
//    the common cases ("Enter your name").
// Messages a schema sets itself ("You need to be 13 or older") are kept as written.
import { z } from 'zod';

type Issue = z.core.$ZodRawIssue | z.core.$ZodIssue;

export const REQUIRED = 'is required';
export const EMPTY = 'can’t be empty';

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object with named fields',
  date: 'a date',
  null: 'null',
  record: 'an object with named fields',
  tuple: 'a list',
};

const plural = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;
const sizeUnit = (origin: string, n: number | bigint) =>
  origin === 'string'
    ? plural(n, 'character', 'characters')
    : origin === 'array' || origin === 'set'
      ? plural(n, 'item', 'items')
      : String(n);

/** zod's issue as a predicate without a subject; exported for the tests. */
export function predicateOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if ('input' in issue && issue.input === undefined) return REQUIRED;
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small': {
      const n = issue.minimum;
      if (issue.origin === 'string' && Number(n) === 1 && !issue.exact) return EMPTY;
      if (issue.exact) return `must be exactly ${sizeUnit(issue.origin, n)}`;
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set')
        return `needs at least ${sizeUnit(issue.origin, n)}`;
      if (issue.origin === 'date') return `must be on or after ${new Date(Number(n)).toISOString().slice(0, 10)}`;
      return issue.inclusive === false ? `must be more than ${n}` : `must be ${n} or more`;
    }
    case 'too_big': {
      const n = issue.maximum;
      if (issue.exact) return `must be exactly ${sizeUnit(issue.origin, n)}`;
      if (issue.origin === 'string') return `can be at most ${sizeUnit('string', n)}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `can have at most ${sizeUnit('array', n)}`;
      if (issue.origin === 'date') return `must be on or before ${new Date(Number(n)).toISOString().slice(0, 10)}`;
      return issue.inclusive === false ? `must be less than ${n}` : `must be ${n} or less`;
    }
    case 'invalid_format':
      switch (issue.format) {
        case 'email':
          return 'must be an email address, like sam@example.com';
        case 'url':
          return 'must be a web address starting with https://';
        case 'date':
          return 'must be a date like 1990-04-21';
        case 'datetime':
          return 'must be a date and time like 2026-05-01T18:00:00Z';
        case 'time':
          return 'must be a time like 18:30';
        case 'starts_with':
          return `must start with “${(issue as { prefix?: string }).prefix ?? ''}”`;
        case 'ends_with':
          return `must end with “${(issue as { suffix?: string }).suffix ?? ''}”`;
        case 'includes':
          return `must contain “${(issue as { includes?: string }).includes ?? ''}”`;
        case 'regex':
          return 'isn’t written in a form we accept';
        default:
          return `must be a valid ${issue.format.replace(/_/g, ' ')}`;
      }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a field' : 'fields'} we don’t know: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'isn’t in a form we can read';
    case 'invalid_key':
      return 'has a name that isn’t allowed';
    case 'invalid_element':
      return 'has an entry that isn’t valid';
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of: ${issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
    default:
      return 'isn’t valid';
  }
}

z.config({ customError: (issue) => predicateOf(issue) });

/** True when `issue.message` is customError's predicate (zod keeps `input` only while the message is made). */
function isPredicate(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_type' && issue.message === REQUIRED) return true;
  return issue.message === predicateOf(issue);
}

interface FieldWords {
  /** The field as a sentence starts with it: "Name". */
  label: string;
  /** What to ask for when it is missing: "Enter your name", "Choose your gender". */
  ask?: string;
}

// A Map: the names are the caller's (an unknown field "constructor" is named as sent, issue 41).
const FIELDS: ReadonlyMap<string, FieldWords> = new Map([
  ['displayName', { label: 'Name', ask: 'Enter your name' }],
  ['email', { label: 'Email', ask: 'Enter your email address' }],
  ['password', { label: 'Password', ask: 'Enter a password' }],
  ['currentPassword', { label: 'Current password', ask: 'Enter your current password' }],
  ['newPassword', { label: 'New password', ask: 'Enter a new password' }],
  ['aboutMe', { label: 'About you', ask: 'Write a few words about you' }],
  ['city', { label: 'City', ask: 'Enter your city' }],
  ['location', { label: 'Location', ask: 'Enter where you are, like “Lisbon”' }],
  ['homeLocation', { label: 'Home location' }],
  ['coords', { label: 'Coordinates' }],
  ['latitude', { label: 'Latitude' }],
  ['longitude', { label: 'Longitude' }],
  ['gender', { label: 'Gender', ask: 'Choose your gender' }],
  ['birthday', { label: 'Birthday', ask: 'Enter your birthday' }],
  ['showAgeByDecade', { label: 'Show only my age decade' }],
  ['activities', { label: 'Activities', ask: 'Name at least one activity' }],
  ['activityIds', { label: 'Activities' }],
  ['availability_text', { label: 'When you’re free', ask: 'Say when you’re free, like “weekday evenings”' }],
  ['availability', { label: 'Availability' }],
  ['schedule', { label: 'Weekly schedule' }],
  ['photo', { label: 'Photo', ask: 'Choose a photo' }],
  ['photoURL', { label: 'Photo link' }],
  ['photoMimeType', { label: 'Photo type' }],
  ['mimeType', { label: 'Photo type' }],
  ['slug', { label: 'Profile address' }],
  ['emailMagicLink', { label: 'Email me a sign-in link' }],
  ['agentName', { label: 'Assistant name' }],
  ['agentSessionId', { label: 'Assistant session' }],
  ['revokeAllTokens', { label: 'Revoke all assistant tokens' }],
  ['text', { label: 'Message', ask: 'Write a message' }],
  ['message', { label: 'Message' }],
  ['firstMessage', { label: 'First message' }],
  ['reason', { label: 'Reason', ask: 'Choose a reason' }],
  ['details', { label: 'Details' }],
  ['age_min', { label: 'Youngest age' }],
  ['age_max', { label: 'Oldest age' }],
  ['radius_km', { label: 'Distance' }],
  ['available', { label: 'Free hours together' }],
  ['when', { label: 'Free time' }],
  ['limit', { label: 'Number of results' }],
  ['offset', { label: 'Offset' }],
  ['cursor', { label: 'Page marker' }],
  ['q', { label: 'Search' }],
  ['token', { label: 'Token' }],
  ['body', { label: 'The request body' }],
]);

/** "agentSessionId" → "Agent session id"; "age_min" → "Age min". */
function words(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
  return spaced ? spaced.charAt(0).toUpperCase() + spaced.slice(1) : 'This field';
}

/** The field named by an error.fields key ("activities.2", "coords.latitude") in words. */
export function fieldLabel(name: string): string {
  const parts = name.split('.').filter(Boolean);
  const named = [...parts].reverse().find((p) => !/^\d+$/.test(p)) ?? 'body';
  const label = FIELDS.get(named)?.label ?? words(named);
  const last = parts[parts.length - 1];
  return last !== undefined && /^\d+$/.test(last) ? `${label} (item ${Number(last) + 1})` : label;
}

/**
 * The message for error.fields[name]: the field in words and what to do. A message the
 * schema set itself is already a sentence for that field and is kept.
 */
export function fieldMessage(issue: z.core.$ZodIssue, name: string): string {
  if (!isPredicate(issue)) return issue.message;
  const parts = name.split('.').filter(Boolean);
  const whole = parts.length === 1 ? FIELDS.get(parts[0]!) : undefined;
  if ((issue.message === REQUIRED || issue.message === EMPTY) && whole?.ask) return whole.ask;
  return `${fieldLabel(name)} ${issue.message}`;
}
