// The property-based fuzzer's parts: hostile values, mutations of valid requests, a raw
// HTTP sender (so malformed paths and bodies go out byte for byte), and the oracle every
// answer must satisfy. Used by e2e/api/fuzz.test.ts.
import http from 'node:http';
import fc from 'fast-check';
import type { EndpointSpec } from '@/lib/contract';
import {
  arbitraryFromJsonSchema,
  lengthLimits,
  PROTOTYPE_WORDS,
  requestJsonSchema,
  STATIC_HINTS,
} from '@/e2e/support/contract/arbitraries';
import type { JsonSchema } from '@/lib/docs/json-schema';
import { ERROR_STATUS } from '@/lib/http/error-response';

// ---------------------------------------------------------------------------
// Hostile values

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const SOME_UUID = '6f1c1f7e-3d55-4a7a-9d6e-2f0b8c1d2e3f';

/** Strings that broke, or could break, something between the parser and PostgreSQL. */
export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFF',
  '\uDBFF\uDBFF',
  '\u001B[31mred',
  '\u0085',
  '\u2028',
  '\u202Eevil',
  '\r',
  '\n',
  '\t',
  '\uFEFF',
  '\uFFFF',
  '',
  ' ',
  '   ',
  '👋',
  'é'.normalize('NFD'),
  '東京',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  '1e308',
  '-1e308',
  '1e-400',
  '0x10',
  '1_000',
  ' 5',
  '9'.repeat(40),
  '9007199254740993',
  '0000-00-00',
  '0000-01-01',
  '0001-01-01',
  '275760-09-13',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00Z',
  '9999-12-31',
  '9999-12-31T23:59:59.999Z',
  '2024-02-30',
  '2024-13-01',
  '1970-01-01T00:00:00Z',
  '2024-01-01T25:00:00Z',
  '2024-01-01T00:00:00+99:99',
  '8640000000000001',
  '999999999999999',
  '1e15',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  SOME_UUID.toUpperCase(),
  b64(JSON.stringify({ v: 1, s: '0.5', i: SOME_UUID, t: 8.64e15 + 1, f: 'x' })),
  b64(JSON.stringify({ v: 1, s: '0.5', i: SOME_UUID, t: 1e308, f: 'x' })),
  b64(JSON.stringify({ v: 1, s: '999.99999999', i: SOME_UUID, t: 1_800_000_000_000, f: 'x' })),
  b64('m1:9999999999999999'),
  b64('m1:99999999999999999999'),
  b64('m1:-1'),
  b64('m1:0'),
  '%00',
  '%ED%A0%80',
  '../../etc/passwd',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, literally
  '${7*7}',
  '{{7*7}}',
  '[]',
  '{}',
  'null',
  'true',
  ...PROTOTYPE_WORDS,
  'a,,,,b',
  ',',
  `hiking,${'x'.repeat(300)}`,
  'lat,lon',
  '91,181',
  '-90,-180,90,180',
  '180,-90,-180,90',
];

/**
 * Strings long enough to reach any step whose cost grows faster than the input (an edit
 * distance, a suggestion, a regular expression), and one just over the default 64 KB body
 * limit: a 4 MB tool name held every request for 34 s (issue 28).
 */
export const OVERSIZE_STRINGS: readonly string[] = [
  'x'.repeat(5_000),
  `get_inbox${'x'.repeat(20_000)}`,
  'hiking '.repeat(2_000),
  '👋'.repeat(10_000),
  `/api/v1/${'a/'.repeat(3_000)}`,
  'y'.repeat(70_000),
];

const deepArray = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

/** Any JSON value in the wrong place: wrong types, extremes, nesting, size. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom(...OVERSIZE_STRINGS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      1e308,
      -1e308,
      -0,
      0,
      -1,
      2 ** 31,
      2 ** 53 + 2,
      0.1,
      5e-324,
      1e21,
      126,
      127,
      200,
      201,
      10_001,
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      [1, 2],
      { a: 1 },
      [null],
      [''],
      JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      deepArray(50),
      deepArray(2000),
      Array.from({ length: 5000 }, (_, i) => i),
      Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])),
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** One character to slip into an otherwise valid string. */
export const hostileChar = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\uDC00',
  '\u0001',
  '\u001B',
  '\u007F',
  '\u0085',
  '\r',
  '\n',
  '\t',
  '\u2028',
  '\uFEFF',
  '%',
  '\\',
  '"',
);

/** Path segments as sent on the wire (already percent-encoded, or deliberately not). */
export const BAD_SEGMENTS: readonly string[] = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%zz',
  '%E0%A4%A',
  '%E0%A4',
  '%C0%AF',
  '%FF',
  '%',
  '%F4%90%80%80',
  '%EF%BF%BF',
  '%C2%85',
  '%1B',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%5C',
  '%20',
  '%F0%9F%91%8B',
  'x'.repeat(300),
  '-1',
  '0',
  '9'.repeat(30),
  '00000000-0000-0000-0000-000000000000',
  '%E2%80%AE',
];

/** Query strings appended as they are. */
export const BAD_QUERIES: readonly string[] = [
  'x=%zz',
  'x=%ED%A0%80',
  'x=%00',
  '%00=1',
  'limit=1&limit=2',
  'limit=%00',
  'limit=1e308',
  'limit=-0',
  'limit=NaN',
  'since=%00',
  'cursor=%ED%A0%80',
  `${'a'.repeat(3000)}=1`,
  '=',
  '&&&',
  'x',
  '%',
  'x=%E0%A4%A',
  'radius_km=1e-320',
  'offset=1e21',
  'offset=-0',
];

/** Raw JSON bodies and content types agents could send by mistake or on purpose. */
export const RAW_BODIES: ReadonlyArray<{ body: string; type?: string }> = [
  { body: '{' },
  { body: '[]' },
  { body: 'null' },
  { body: '"text"' },
  { body: '1e999' },
  { body: '-0' },
  { body: '{"a":1,"a":2}' },
  { body: '['.repeat(20_000) + ']'.repeat(20_000) },
  { body: `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}` },
  { body: '\uFEFF{}' },
  { body: '{"text":"\\ud800"}' },
  { body: '{"text":"\\u0000"}' },
  { body: '{"__proto__":{"admin":true}}' },
  { body: '{}', type: 'text/plain' },
  { body: '{}', type: 'application/json; charset=utf-16' },
  { body: '{}', type: 'application/x-www-form-urlencoded' },
  { body: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
  { body: '', type: 'application/json' },
  { body: '   ' },
  { body: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('latin1') },
];

// ---------------------------------------------------------------------------
// Encoding

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * Percent-encodes text as UTF-8 like encodeURIComponent, except that a lone surrogate
 * becomes its generalized UTF-8 bytes (%ED%A0%80) instead of throwing: what a careless
 * client sends.
 */
export function encodeComponent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    let code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
      i += 1;
    }
    const bytes =
      code < 0x80
        ? [code]
        : code < 0x800
          ? [0xc0 | (code >> 6), 0x80 | (code & 63)]
          : code < 0x10000
            ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)]
            : [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null
      ? JSON.stringify(value)
      : String(value);

// ---------------------------------------------------------------------------
// Requests and their mutations

export interface RequestShape {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface WireRequest {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** What was done to the valid request, for the failure message. */
  mutation: string;
}

type Part = 'params' | 'query' | 'body';

export interface EndpointFuzzer {
  spec: EndpointSpec;
  valid: fc.Arbitrary<RequestShape>;
  /** A valid or mutated request, ready to send (without auth headers). */
  requests: fc.Arbitrary<WireRequest>;
}

const partsOf = (spec: EndpointSpec): Part[] =>
  (['params', 'query', 'body'] as const).filter((part) => spec[part] !== undefined);

/** Every path to a value inside `value`, plus the top. */
function pathsIn(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (Array.isArray(value))
    for (const [i, item] of value.slice(0, 8).entries()) pathsIn(item, [...prefix, String(i)], out);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) pathsIn(item, [...prefix, key], out);
  return out;
}

function getAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    value,
  );
}

function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as Record<string, unknown>) };
  (copy as Record<string, unknown>)[head] = setAt((copy as Record<string, unknown>)[head], rest, replacement);
  return copy;
}

function deleteAt(value: unknown, path: string[]): unknown {
  if (path.length === 0) return value;
  const parent = getAt(value, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return value;
  const copy = { ...(parent as Record<string, unknown>) };
  delete copy[path[path.length - 1]!];
  return setAt(value, path.slice(0, -1), copy);
}

const pick = <T>(items: readonly T[], index: number): T => items[index % items.length]!;

type Mutation =
  | { kind: 'none' }
  | { kind: 'replace'; part: number; at: number; value: unknown }
  | { kind: 'insert_char'; part: number; at: number; position: number; char: string }
  | { kind: 'boundary'; part: number; field: number; offset: -1 | 0 | 1; large: boolean }
  | { kind: 'extra_field'; part: number; key: string; value: unknown }
  | { kind: 'remove_field'; part: number; at: number }
  | { kind: 'bad_segment'; at: number; segment: string }
  | { kind: 'bad_query'; query: string }
  | { kind: 'raw_body'; index: number }
  | { kind: 'no_body' }
  | { kind: 'bad_auth'; header: string };

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Mutation>({ kind: 'none' }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), part: fc.nat(), at: fc.nat(), value: hostileValue }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('insert_char' as const),
      part: fc.nat(),
      at: fc.nat(),
      position: fc.nat(),
      char: hostileChar,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('boundary' as const),
      part: fc.nat(),
      field: fc.nat(),
      offset: fc.constantFrom(-1 as const, 0 as const, 1 as const),
      large: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra_field' as const),
      part: fc.nat(),
      key: fc.oneof(
        fc.constantFrom(...PROTOTYPE_WORDS, 'prototype', '\u0000', '\uD800', 'x'.repeat(500), ''),
        fc.string({ maxLength: 10 }),
      ),
      value: hostileValue,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove_field' as const), part: fc.nat(), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('bad_segment' as const),
      at: fc.nat(),
      segment: fc.constantFrom(...BAD_SEGMENTS),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('bad_query' as const), query: fc.constantFrom(...BAD_QUERIES) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('raw_body' as const), index: fc.nat(RAW_BODIES.length - 1) }) },
  { weight: 1, arbitrary: fc.constant<Mutation>({ kind: 'no_body' }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bad_auth' as const),
      header: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer a b',
        'Basic dXNlcjpwYXNz',
        `bearer ${'x'.repeat(5000)}`,
        'Bearer \u00ff\u00fe',
        'Bearer %00',
        'Token abc',
      ),
    }),
  },
);

export type ValueMutation = Extract<
  Mutation,
  { kind: 'none' | 'replace' | 'insert_char' | 'extra_field' | 'remove_field' }
>;

/** The mutations that apply to a JSON value (a request part, or an MCP tool's arguments). */
export const valueMutationArbitrary = mutationArbitrary.filter((m): m is ValueMutation =>
  ['none', 'replace', 'insert_char', 'extra_field', 'remove_field'].includes(m.kind),
);

/** Applies a value mutation; `label` names the value in the note. */
export function mutateValue(
  value: unknown,
  mutation: ValueMutation,
  label: string,
  allowTop: boolean,
): { value: unknown; note: string } {
  switch (mutation.kind) {
    case 'none':
      return { value, note: 'none' };
    case 'replace': {
      const paths = pathsIn(value).filter((p) => p.length > 0 || allowTop);
      const path = paths.length ? pick(paths, mutation.at) : [];
      return {
        value: setAt(value, path, mutation.value),
        note: `replace ${[label, ...path].join('.')} with ${describe(mutation.value)}`,
      };
    }
    case 'insert_char': {
      const strings = pathsIn(value).filter((p) => typeof getAt(value, p) === 'string');
      if (strings.length === 0) return { value, note: 'insert_char (no string to insert into)' };
      const path = pick(strings, mutation.at);
      const text = getAt(value, path) as string;
      const position = text.length ? mutation.position % (text.length + 1) : 0;
      return {
        value: setAt(value, path, text.slice(0, position) + mutation.char + text.slice(position)),
        note: `insert ${describe(mutation.char)} at ${position} of ${[label, ...path].join('.')}`,
      };
    }
    case 'extra_field':
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        return { value, note: 'extra_field (not an object)' };
      return {
        value: Object.assign(Object.create(null) as Record<string, unknown>, value, { [mutation.key]: mutation.value }),
        note: `extra ${label} field ${describe(mutation.key)} = ${describe(mutation.value)}`,
      };
    case 'remove_field': {
      const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
      if (keys.length === 0) return { value, note: 'remove_field (nothing to remove)' };
      const key = pick(keys, mutation.at);
      return { value: deleteAt(value, [key]), note: `remove ${label}.${key}` };
    }
  }
}

function shapePart(shape: RequestShape, part: Part): unknown {
  return shape[part];
}

/** Applies a mutation to a valid request and serializes it for the wire. */
export function buildRequest(
  spec: EndpointSpec,
  schemas: Partial<Record<Part, JsonSchema>>,
  shape: RequestShape,
  mutation: Mutation,
): WireRequest {
  const parts = partsOf(spec);
  const next: RequestShape = { params: { ...shape.params }, query: { ...shape.query }, body: shape.body };
  let note: string = mutation.kind;
  let pathSegmentOverride: { at: number; segment: string } | undefined;
  let extraQuery = '';
  let rawBody: { body: string; type?: string } | undefined;
  let dropBody = false;
  const headers: Record<string, string> = {};

  const withPart = (index: number, fn: (part: Part, value: unknown) => unknown) => {
    if (parts.length === 0) return;
    const part = pick(parts, index);
    (next as unknown as Record<Part, unknown>)[part] = fn(part, shapePart(next, part));
  };

  switch (mutation.kind) {
    case 'none':
      break;
    case 'replace':
    case 'insert_char':
      withPart(mutation.part, (part, value) => {
        const result = mutateValue(value, mutation, part, part === 'body');
        note = result.note;
        return result.value;
      });
      break;
    case 'boundary':
      withPart(mutation.part, (part, value) => {
        const properties = (schemas[part]?.properties ?? {}) as Record<string, JsonSchema>;
        const limited = Object.entries(properties).filter(
          ([, s]) => lengthLimits(s).maxLength !== undefined || lengthLimits(s).minLength !== undefined,
        );
        if (limited.length === 0 || value === null || typeof value !== 'object') return value;
        const [name, s] = pick(limited, mutation.field);
        const { minLength = 0, maxLength } = lengthLimits(s);
        const base = mutation.large || maxLength === undefined ? minLength : maxLength;
        const length = Math.max(0, (mutation.large && maxLength !== undefined ? maxLength : base) + mutation.offset);
        // Multi-unit characters: the limit counts UTF-16 code units; 👋 is two.
        const text = (mutation.large ? '👋' : 'a').repeat(mutation.large ? Math.ceil(length / 2) : length);
        note = `${part}.${name} of length ${text.length} (limits ${minLength}..${maxLength ?? '∞'})`;
        return { ...(value as Record<string, unknown>), [name]: text };
      });
      break;
    case 'extra_field':
    case 'remove_field':
      withPart(mutation.part, (part, value) => {
        const result = mutateValue(value, mutation, part, false);
        note = result.note;
        return result.value;
      });
      break;
    case 'bad_segment':
      pathSegmentOverride = { at: mutation.at, segment: mutation.segment };
      note = `path segment ${mutation.segment.slice(0, 40)}`;
      break;
    case 'bad_query':
      extraQuery = mutation.query;
      note = `query ${mutation.query.slice(0, 40)}`;
      break;
    case 'raw_body':
      rawBody = RAW_BODIES[mutation.index];
      note = `raw body ${describe(rawBody!.body)} as ${rawBody!.type ?? 'application/json'}`;
      break;
    case 'no_body':
      dropBody = true;
      break;
    case 'bad_auth':
      headers.authorization = mutation.header;
      note = `Authorization: ${mutation.header.slice(0, 30)}`;
      break;
  }

  // Path: each template parameter from params (any value turned to text), or a bad segment.
  const template = spec.path.split('/');
  const paramNames = template.map((segment) => /^\{(\w+)\}$/.exec(segment)?.[1]);
  const segments = template.map((segment, i) =>
    paramNames[i] ? encodeComponent(asText(next.params[paramNames[i]!] ?? '')) : segment,
  );
  if (pathSegmentOverride) {
    const candidates = paramNames.map((name, i) => (name ? i : -1)).filter((i) => i >= 0);
    // Replace a parameter when there is one, else a fixed segment after /api/v1 (the catch-all answers those).
    const index = candidates.length
      ? pick(candidates, pathSegmentOverride.at)
      : 3 + (pathSegmentOverride.at % Math.max(1, segments.length - 3));
    segments[Math.min(index, segments.length - 1)] = pathSegmentOverride.segment;
  }
  const queryPairs: string[] = [];
  if (next.query && typeof next.query === 'object') {
    for (const [key, value] of Object.entries(next.query)) {
      if (value === undefined) continue;
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) queryPairs.push(`${encodeComponent(key)}=${encodeComponent(asText(item))}`);
    }
  }
  if (extraQuery) queryPairs.push(extraQuery);
  const target = `${segments.join('/')}${queryPairs.length ? `?${queryPairs.join('&')}` : ''}`;

  let body: string | undefined;
  if (rawBody) {
    body = rawBody.body;
    headers['content-type'] = rawBody.type ?? 'application/json';
  } else if (spec.body && !dropBody) {
    body = JSON.stringify(next.body ?? {});
    headers['content-type'] = 'application/json';
  }
  return { method: spec.method, target, headers, ...(body !== undefined ? { body } : {}), mutation: note };
}

function describe(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Valid requests for an endpoint, then mutated. `hints` add realistic values (slugs, chat ids) by part. */
export function endpointFuzzer(
  spec: EndpointSpec,
  hints: Partial<Record<Part, Record<string, fc.Arbitrary<unknown>>>> = {},
): EndpointFuzzer {
  const schemas: Partial<Record<Part, JsonSchema>> = {};
  const arbitraries: Partial<Record<Part, fc.Arbitrary<unknown>>> = {};
  for (const part of partsOf(spec)) {
    schemas[part] = requestJsonSchema(spec[part]!);
    arbitraries[part] = arbitraryFromJsonSchema(schemas[part]!, { hints: { ...STATIC_HINTS[part], ...hints[part] } });
  }
  const valid = fc.record({
    params: (arbitraries.params ?? fc.constant({})) as fc.Arbitrary<Record<string, unknown>>,
    query: (arbitraries.query ?? fc.constant({})) as fc.Arbitrary<Record<string, unknown>>,
    body: arbitraries.body ?? fc.constant(undefined),
  });
  const requests = fc
    .tuple(valid, mutationArbitrary)
    .map(([shape, mutation]) => buildRequest(spec, schemas, shape, mutation));
  return { spec, valid, requests };
}

// ---------------------------------------------------------------------------
// The dictionary, word by word

/** Where text goes in a request part: each property that takes a string (or a list of them), one level into objects. */
export function stringSlots(schema: JsonSchema, prefix: string[] = []): Array<{ path: string[]; list: boolean }> {
  const slots: Array<{ path: string[]; list: boolean }> = [];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const branches = ((property.anyOf ?? property.oneOf) as JsonSchema[] | undefined) ?? [property];
    const takes = (type: string, s: JsonSchema) => s.type === type || (Array.isArray(s.type) && s.type.includes(type));
    const path = [...prefix, name];
    if (branches.some((b) => takes('string', b))) slots.push({ path, list: false });
    else if (branches.some((b) => takes('array', b) && takes('string', (b.items ?? {}) as JsonSchema)))
      slots.push({ path, list: true });
    else if (prefix.length === 0) {
      const object = branches.find((b) => takes('object', b));
      if (object) slots.push(...stringSlots(object, path));
    }
  }
  return slots;
}

/**
 * Every string parameter of the endpoint set to each word in turn (a list to [word]), and
 * each word as an extra query parameter and body field name, on an otherwise valid request:
 * the deterministic half of the dictionary (the random half is in the string arbitraries).
 */
export function dictionaryRequests(
  spec: EndpointSpec,
  shape: RequestShape,
  words: readonly string[] = PROTOTYPE_WORDS,
): WireRequest[] {
  const schemas: Partial<Record<Part, JsonSchema>> = {};
  for (const part of partsOf(spec)) schemas[part] = requestJsonSchema(spec[part]!);
  const requests: WireRequest[] = [];
  const add = (next: RequestShape, note: string) =>
    requests.push({ ...buildRequest(spec, schemas, next, { kind: 'none' }), mutation: note });
  for (const word of words) {
    for (const part of partsOf(spec)) {
      for (const { path, list } of stringSlots(schemas[part]!)) {
        const value = setAt(shape[part] ?? {}, path, list ? [word] : word);
        add({ ...shape, [part]: value }, `${[part, ...path].join('.')} = ${describe(list ? [word] : word)}`);
      }
    }
    add({ ...shape, query: { ...shape.query, [word]: '1' } }, `query parameter named ${describe(word)}`);
    if (schemas.body?.type === 'object' && shape.body !== null && typeof shape.body === 'object') {
      const body = Object.assign(Object.create(null) as Record<string, unknown>, shape.body, { [word]: 1 });
      add({ ...shape, body }, `body field named ${describe(word)}`);
    }
  }
  return requests;
}

// ---------------------------------------------------------------------------
// Sending and judging

export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Sends the request byte for byte (fetch would normalise the path). */
export function send(
  baseUrl: string,
  request: WireRequest,
  extraHeaders: Record<string, string>,
): Promise<WireResponse> {
  const url = new URL(baseUrl);
  const body = request.body !== undefined ? Buffer.from(request.body, 'utf8') : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.target,
        headers: { ...extraHeaders, ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () =>
      req.destroy(new Error(`no answer in 30 s to ${request.method} ${request.target.slice(0, 200)}`)),
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}

/**
 * What is wrong with an answer, or null: never a 5xx; a redirect stays on this site
 * (Next.js normalises `//` and dot-segments with a 308); under /api every answer is JSON
 * and every error is the envelope with a known code and that code's status. A target
 * whose dot-segments (`%2e%2e` is `..`, RFC 3986 §6.2.2) lead out of /api is a page
 * request, which only has to stay below 500.
 */
export function answerProblem(response: WireResponse, baseUrl: string, target = '/api'): string | null {
  const { status, headers, text } = response;
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status >= 300 && status < 400 && status !== 304) {
    const location = String(headers.location ?? '');
    let origin: string | null = null;
    try {
      origin = new URL(location, baseUrl).origin;
    } catch {
      // not a URL at all
    }
    return origin === new URL(baseUrl).origin && !/^[/\\]{2}/.test(location)
      ? null
      : `redirect off the site: ${location}`;
  }
  let pathname: string;
  try {
    pathname = new URL(target, baseUrl).pathname;
  } catch {
    pathname = target;
  }
  if (!/^\/(api|\.well-known)(\/|$)/.test(pathname)) return null;
  if (status === 304 || status === 204) return null;
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    return `status ${status} with a body that is not JSON (${String(headers['content-type'])}): ${text.slice(0, 200)}`;
  }
  if (status < 400) return null;
  if (!String(headers['content-type']).startsWith('application/json'))
    return `status ${status} as ${String(headers['content-type'])}`;
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error) return `status ${status} without an error envelope: ${text.slice(0, 200)}`;
  const code = error.code as keyof typeof ERROR_STATUS;
  if (!Object.hasOwn(ERROR_STATUS, code)) return `unknown error code ${String(code)}`;
  if (ERROR_STATUS[code] !== status)
    return `code ${code} is ${ERROR_STATUS[code]} in lib/http/error-response.ts but came with ${status}`;
  if (typeof error.message !== 'string' || error.message === '') return `code ${code} without a message`;
  if (typeof error.hint !== 'string' || error.hint === '') return `code ${code} without a hint`;
  if (
    error.fields !== undefined &&
    (typeof error.fields !== 'object' || Object.values(error.fields as object).some((v) => typeof v !== 'string'))
  ) {
    return `code ${code} with malformed fields: ${JSON.stringify(error.fields)}`;
  }
  if (status === 429 && !headers['retry-after']) return '429 without Retry-After';
  return null;
}
