// fast-check arbitraries derived from the contract, for the property-based tests
// (e2e/api/fuzz.test.ts). Test-only: nothing in the app imports this file.
//
// Why a mapper over JSON Schema and not zod-fast-check: zod-fast-check supports zod 3
// only, and the contract is zod 4. The contract already turns every schema into JSON
// Schema (lib/docs/json-schema.ts, the same output OpenAPI and the MCP tools publish),
// and that JSON uses a dozen keywords (type, properties, required, items, anyOf, enum,
// minimum/maximum, minLength/maxLength, pattern, format, additionalProperties,
// propertyNames), so a small mapper covers it, and fuzzes exactly what agents are told.
// Refinements that JSON Schema cannot express (known activity ids, minimum age) are what
// `hints` are for: realistic values by field name, mixed with the derived ones.
import fc from 'fast-check';
import type { z } from 'zod';
import { ACTIVITIES, ACTIVITY_IDS } from '@/lib/activities';
import { toJsonSchema, type JsonSchema } from '@/lib/docs/json-schema';
import { REPORT_REASONS } from '@/lib/contract/limits';
import { GENDERS } from '@/lib/contract/schemas';

export interface ArbitraryOptions {
  /** Values to prefer for a property of this name (anywhere in the input). */
  hints?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Only printable ASCII in free strings (for tests that need values the rule accepts). */
  asciiOnly?: boolean;
  /** Use a hinted field's hint alone, never a value derived from its schema (for valid inputs). */
  onlyHints?: boolean;
}

/** The request part (params, query or body) of a contract schema as JSON Schema, as agents see it. */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  return toJsonSchema(schema, 'input', 'draft-2020-12');
}

/**
 * The fuzzer's dictionary: Object.prototype's property names. Code that looks a caller's
 * word up in a plain object finds these there ("constructor" made Discover and the events
 * feed answer 500, issue 41), so every free string parameter is sometimes one of them.
 */
export const PROTOTYPE_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'] as const;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
const word = fc.string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 1, maxLength: 12 });

/** Format strings zod accepts; URLs only ever name addresses the photo fetcher refuses at once (no DNS, no waiting). */
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.tuple(word, fc.nat(1_000_000)).map(([user, n]) => `${user}.${n}@example.com`),
  uri: fc.constantFrom(
    'https://127.0.0.1/photo.jpg',
    'https://192.0.2.1/p.png',
    'https://[::1]/x.webp',
    'https://10.0.0.1/a.jpg',
  ),
  date: fc
    .date({ min: new Date('1930-01-01'), max: new Date('2010-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  'date-time': fc
    .date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
};

function stringArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(minLength, 40);
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!.filter(fits);
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  // Short strings mostly; the full length sometimes, so the limits themselves are exercised.
  const cap = Math.min(maxLength, 60);
  const ascii = fc.string({ minLength, maxLength: cap });
  const lengthBound = fc.string({ minLength: maxLength, maxLength, unit: fc.constantFrom('a', 'b', ' ', 'é') });
  if (options.asciiOnly) return fc.oneof({ weight: 5, arbitrary: ascii }, { weight: 1, arbitrary: lengthBound });
  const unicode = fc.string({ minLength, maxLength: cap, unit: 'grapheme' }).filter(fits);
  const dictionary = PROTOTYPE_WORDS.filter(fits);
  return fc.oneof(
    { weight: 4, arbitrary: ascii },
    { weight: 2, arbitrary: unicode },
    { weight: 1, arbitrary: lengthBound },
    ...(dictionary.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...dictionary) }] : []),
  );
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum
        : undefined;
  if (integer)
    return fc.integer({
      min: Math.max(min ?? -1_000_000, Number.MIN_SAFE_INTEGER),
      max: Math.min(max ?? 1_000_000, Number.MAX_SAFE_INTEGER),
    });
  return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values that satisfy `schema` (a JSON Schema from requestJsonSchema), as far as JSON Schema says. */
export function arbitraryFromJsonSchema(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
  name?: string,
): fc.Arbitrary<unknown> {
  const hint = name !== undefined ? options.hints?.[name] : undefined;
  if (hint && options.onlyHints) return hint;
  const derived = deriveArbitrary(schema, options);
  return hint ? fc.oneof({ weight: 4, arbitrary: hint }, { weight: 1, arbitrary: derived }) : derived;
}

function deriveArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    // Absent-ish branches (null) less often than the real ones.
    return fc.oneof(
      ...branches.map((branch) => ({
        weight: branch.type === 'null' ? 1 : 3,
        arbitrary: arbitraryFromJsonSchema(branch, options),
      })),
    );
  }
  if (Array.isArray(schema.type)) {
    return fc.oneof(...(schema.type as string[]).map((type) => arbitraryFromJsonSchema({ ...schema, type }, options)));
  }
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema, options);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 5, Math.max(minLength, 8));
      return fc.array(arbitraryFromJsonSchema(items, options), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, options);
    default:
      // {}: a transform or refinement JSON Schema cannot say; any small JSON value.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0 && (schema.propertyNames || typeof schema.additionalProperties === 'object')) {
    // A record: keys from propertyNames, values from additionalProperties.
    const keys = schema.propertyNames
      ? (arbitraryFromJsonSchema(schema.propertyNames as JsonSchema, options) as fc.Arbitrary<string>)
      : word;
    const values =
      typeof schema.additionalProperties === 'object'
        ? arbitraryFromJsonSchema(schema.additionalProperties as JsonSchema, options)
        : fc.jsonValue({ maxDepth: 1 });
    return fc.dictionary(keys, values, { maxKeys: 6 });
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) model[name] = arbitraryFromJsonSchema(properties[name]!, options, name);
  return fc.record(model, { requiredKeys: names.filter((name) => required.has(name)) });
}

/** The string fields' limits at a property path, for boundary mutations. */
export function lengthLimits(schema: JsonSchema): { minLength?: number; maxLength?: number } {
  const branches = ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.filter((b) => b.type !== 'null');
  const string = branches?.find((b) => b.type === 'string') ?? schema;
  return {
    ...(typeof string.minLength === 'number' ? { minLength: string.minLength } : {}),
    ...(typeof string.maxLength === 'number' ? { maxLength: string.maxLength } : {}),
  };
}

// ---------------------------------------------------------------------------
// Realistic values for fields whose rules JSON Schema cannot state, per request part
// (the same name means different things: `activities` is plain English in a body and a
// comma-separated id list in a query).

/** A 1x1 PNG: the smallest photo every check accepts. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const activityId = fc.constantFrom(...ACTIVITY_IDS);
const activityName = fc.constantFrom(...ACTIVITIES.map((a) => a.name));
const between = (min: string, max: string) => fc.date({ min: new Date(min), max: new Date(max), noInvalidDate: true });
const instant = between('2020-01-01', '2035-01-01');
// date_from before date_to, as the contract requires.
const dateOrInstant = (min: string, max: string) =>
  fc.oneof(
    between(min, max).map((d) => d.toISOString().slice(0, 10)),
    between(min, max).map((d) => d.toISOString()),
  );
// Four decimals: query parameters take plain decimals, not 5e-324.
const latitude = fc.integer({ min: -890_000, max: 890_000 }).map((n) => n / 10_000);
const longitude = fc.integer({ min: -1_790_000, max: 1_790_000 }).map((n) => n / 10_000);
const sentence = fc.constantFrom(
  'Up for a hike on Saturday?',
  'Weekend climber, weekday runner.\nCoffee after?',
  'See you at 9 by the north trailhead!',
  'Zoë here: 東京 next week 👋',
);

export const STATIC_HINTS: Readonly<
  Record<'params' | 'query' | 'body', Readonly<Record<string, fc.Arbitrary<unknown>>>>
> = {
  params: {},
  query: {
    activities: fc.uniqueArray(activityId, { minLength: 1, maxLength: 3 }).map((ids) => ids.join(',')),
    gender: fc.subarray([...GENDERS], { minLength: 1 }).map((g) => g.join(',')),
    since: fc.oneof(
      instant.map((d) => String(d.getTime())),
      instant.map((d) => d.toISOString()),
    ),
    date_from: dateOrInstant('2020-01-01', '2026-12-31'),
    date_to: dateOrInstant('2027-01-02', '2035-01-01'),
    bbox: fc
      .tuple(longitude, latitude, longitude, latitude)
      .map(([a, b, c, d]) => [a, Math.min(b, d), c, Math.max(b, d)].join(',')),
    near: fc.tuple(latitude, longitude).map(([lat, lon]) => `${lat},${lon}`),
    city: fc.constantFrom('Portland', 'Portland, OR', 'Berlin', 'NYC', 'London'),
    region: fc.constantFrom('Oregon', 'OR', 'DE', 'Germany'),
    age_min: fc.integer({ min: 13, max: 40 }),
    age_max: fc.integer({ min: 41, max: 120 }),
    when: fc.constantFrom('weekday evenings', 'sat mornings', 'weekends after 10am'),
  },
  body: {
    displayName: fc.constantFrom('Sam', 'Zoë K.', 'Maya', 'Ana María', '李雷'),
    activities: fc.array(activityName, { maxLength: 5 }),
    activityIds: fc.uniqueArray(activityId, { maxLength: 5 }),
    birthday: fc
      .date({ min: new Date('1950-01-01'), max: new Date('2005-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    photo: fc.constantFrom(TINY_PNG_BASE64, `data:image/png;base64,${TINY_PNG_BASE64}`),
    // Every photoURL the fuzzer may send is refused without a network call, so mostly leave it out.
    photoURL: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: FORMATS.uri! }),
    availability_text: fc.constantFrom('weekends', 'weekday evenings', 'Saturday mornings and Wednesday evenings'),
    location: fc.constantFrom('Portland, OR', 'Berlin', 'London, UK'),
    coords: fc.record({ latitude, longitude }),
    timezone: fc.constantFrom('Europe/Lisbon', 'america/new_york', 'Asia/Kolkata', 'UTC'),
    // Forgiving fields are published as "documented form or text" (issue 30 §4): a random
    // string is a fair mutation, not a valid value, so valid ones come from here.
    gender: fc.constantFrom(...GENDERS, 'woman', 'Man', 'non-binary'),
    reason: fc.constantFrom(...REPORT_REASONS, 'Their profile looks fake', 'spam messages'),
    aboutMe: sentence,
    message: sentence,
    firstMessage: sentence,
    text: sentence,
    // One activity in words (a meetup names exactly one; a plan's activity takes the same).
    activity: fc.oneof(activityName, fc.constantFrom('hiking', 'bouldering')),
    // A plan's place (place.name): a public venue.
    name: fc.constantFrom('Block Hall', 'Café Central', 'North trailhead'),
    address: fc.constantFrom('Hauptstraße 1, Vienna', '1 Main St'),
    // Plans start in the future, at most 90 days ahead (the domain refuses the rest).
    starts_at: fc
      .integer({ min: 2, max: 80 * 24 })
      .map((hours) => new Date(Date.now() + hours * 3_600_000).toISOString()),
    ends_at: fc.constant(undefined),
    note: sentence,
    token: fc
      .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 8, maxLength: 22 })
      .map((t) => `ExponentPushToken[${t}]`),
  },
};
