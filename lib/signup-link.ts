// The browser fallback link (SPEC 1): {base}/signup-with-ai?email=…&name=…; its query
// parameters, how they map onto the registration body, and a builder for agents and tests.
// Shared by the page, the guides and the tests so the names cannot drift.

import type { GENDERS } from './contract/schemas';

/** The contract's genders, repeated here so the page's bundle needs no zod (a test checks they match). */
export const GENDER_OPTIONS = ['male', 'female', 'non_binary', 'prefer_not_to_say'] as const satisfies ReadonlyArray<
  (typeof GENDERS)[number]
>;

export const SIGNUP_LINK_PARAMS = [
  { param: 'email', field: 'email', note: 'required' },
  { param: 'name', field: 'displayName', note: 'required; the name other people see' },
  { param: 'location', field: 'location', note: 'city, e.g. "Portland, OR"' },
  { param: 'gender', field: 'gender', note: 'male, female, non_binary or prefer_not_to_say' },
  { param: 'birthday', field: 'birthday', note: 'YYYY-MM-DD' },
  { param: 'about', field: 'aboutMe', note: 'a short bio' },
  { param: 'activities', field: 'activities', note: 'comma-separated, plain English' },
  { param: 'availability', field: 'availability_text', note: 'plain English, e.g. "weekends and Wednesday evenings"' },
  {
    param: 'photo',
    field: 'photoURL',
    note: 'a public https URL of a photo. Not a data: URL: a link carrying a picture is too long for browsers and servers (over 16 KB is refused); leave photo out and the person adds one after signing in',
  },
  { param: 'agent', field: 'agentName', note: 'your name, for attribution' },
] as const;

export type SignupParam = (typeof SIGNUP_LINK_PARAMS)[number]['param'];
/** The form state of the page: one string per link parameter. */
export type SignupDraft = Record<SignupParam, string>;

export const EMPTY_DRAFT: SignupDraft = Object.fromEntries(
  SIGNUP_LINK_PARAMS.map(({ param }) => [param, '']),
) as SignupDraft;

const MAX_PARAM_CHARS = 8 * 1024 * 1024;
const MAX_UNUSED_SHOWN = 20;

/** Query names the page reads for itself, not details of the person. */
const PAGE_PARAMS = new Set(['callbackUrl']);

const valuesOf = (raw: string | string[] | undefined): string[] =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((value) => value.slice(0, MAX_PARAM_CHARS).trim());

/** Reads the link's query (as Next.js hands it over) into the form state. */
export function draftFromQuery(query: Record<string, string | string[] | undefined>): SignupDraft {
  return readQuery(query).draft;
}

/** A parameter of the link the page does not use: shown to the person, never dropped silently. */
export interface UnusedParam {
  name: string;
  value: string;
}

/**
 * The form state, and every query value it does not hold: unknown names, a repeated
 * parameter's later values, and an API-named alias whose value differs from the link's
 * own name. Repeated activities are joined, since they are a list anyway.
 */
export function readQuery(query: Record<string, string | string[] | undefined>): {
  draft: SignupDraft;
  unused: UnusedParam[];
} {
  const draft = { ...EMPTY_DRAFT };
  const unused: UnusedParam[] = [];
  const known = new Set<string>(PAGE_PARAMS);
  // Each parameter by the link's own name, then by the API's field name an assistant that
  // read SIGNUP.md may send instead (displayName, aboutMe, availability_text…).
  for (const { param, field } of SIGNUP_LINK_PARAMS) {
    for (const name of new Set<string>([param, field])) {
      known.add(name);
      const values = valuesOf(query[name]).filter((value) => value !== '');
      if (param === 'activities' && values.length > 1) values.splice(0, values.length, values.join(', '));
      for (const value of values) {
        if (draft[param] === '') draft[param] = value;
        else if (draft[param] !== value) unused.push({ name, value });
      }
    }
  }
  for (const [name, raw] of Object.entries(query)) {
    if (known.has(name)) continue;
    for (const value of valuesOf(raw)) unused.push({ name, value });
  }
  // Shown on the page (and serialised into it): short, and a bounded list.
  const shown = unused.slice(0, MAX_UNUSED_SHOWN).map(({ name, value }) => ({
    name: name.slice(0, 60),
    value: value.length > 100 ? `${value.slice(0, 99)}…` : value,
  }));
  if (unused.length > MAX_UNUSED_SHOWN) shown.push({ name: `and ${unused.length - MAX_UNUSED_SHOWN} more`, value: '' });
  return { draft, unused: shown };
}

// A Map: the key is what the link says, and "constructor" must stay a word, not Object (issue 41).
const GENDER_ALIASES: ReadonlyMap<string, string> = new Map([
  ['male', 'male'],
  ['man', 'male'],
  ['m', 'male'],
  ['female', 'female'],
  ['woman', 'female'],
  ['f', 'female'],
  ['non_binary', 'non_binary'],
  ['nonbinary', 'non_binary'],
  ['enby', 'non_binary'],
  ['prefer_not_to_say', 'prefer_not_to_say'],
]);

/** Lenient about spelling ("Non-binary", "Woman"); anything else is sent as typed and the API explains. */
export function normalizeGender(value: string): string {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return GENDER_ALIASES.get(key) ?? value.trim();
}

export function splitActivities(value: string): string[] {
  return value
    .split(/[,;\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The POST /api/v1/register.json body for a draft; empty fields are left out. */
export function registrationBody(draft: SignupDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const set = (field: string, value: unknown) => {
    if (value !== '' && !(Array.isArray(value) && value.length === 0)) body[field] = value;
  };
  set('email', draft.email.trim());
  set('displayName', draft.name.trim());
  set('location', draft.location.trim());
  set('gender', draft.gender ? normalizeGender(draft.gender) : '');
  set('birthday', draft.birthday.trim());
  set('aboutMe', draft.about.trim());
  set('activities', splitActivities(draft.activities));
  set('availability_text', draft.availability.trim());
  const photo = draft.photo.trim();
  if (photo.startsWith('data:')) set('photo', photo);
  else set('photoURL', photo);
  set('agentName', draft.agent.trim());
  return body;
}

/** Which link parameter a body field came from, to put an API field error beside its input. */
export function paramForField(field: string): SignupParam | undefined {
  const top = field.split('.')[0];
  if (top === 'photo') return 'photo';
  return SIGNUP_LINK_PARAMS.find((p) => p.field === top)?.param;
}

/** The link an agent gives the person: every value URL-encoded. */
export function signupLink(baseUrl: string, values: Partial<SignupDraft>): string {
  const query = new URLSearchParams();
  for (const { param } of SIGNUP_LINK_PARAMS) {
    const value = values[param];
    if (value) query.set(param, value);
  }
  return `${baseUrl}/signup-with-ai?${query.toString()}`;
}
