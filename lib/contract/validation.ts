// zod issues → the envelope's `fields` map (one message per failing field).
import type { z } from 'zod';
import { editDistance } from '../activities/similarity';
import { fieldMessage } from './human-errors';
import { ApiError } from '../core/errors';

/**
 * An empty `fields` map without a prototype: its keys are the caller's names, and on a
 * plain object `fields.constructor ??= …` finds Object and writes nothing, while
 * `fields.__proto__ = …` replaces the prototype (issue 41). JSON.stringify writes it as any object.
 */
export function emptyFields(): Record<string, string> {
  return Object.create(null) as Record<string, string>;
}

export function issuesToFields(issues: readonly z.core.$ZodIssue[], prefix = ''): Record<string, string> {
  const fields = emptyFields();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const name = [prefix, ...issue.path.map(String), key].filter(Boolean).join('.');
        fields[name] ??= 'unknown field';
      }
      continue;
    }
    const name = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || prefix || 'body';
    // A union of forms (a list or a comma-separated string): when the value was of one
    // form's type, that form's own problem is the useful one, with its full path.
    if (issue.code === 'invalid_union') {
      const ofThisType = issue.errors.filter(
        (branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0),
      );
      // Only plain names and indexes go into field names (a map key may hold anything).
      const plainPaths = ofThisType[0]?.every((i) =>
        i.path.every((p) => typeof p === 'number' || /^\w+$/.test(String(p))),
      );
      if (ofThisType.length === 1 && plainPaths) {
        for (const [field, message] of Object.entries(issuesToFields(ofThisType[0]!, name))) fields[field] ??= message;
        continue;
      }
    }
    fields[name] ??= fieldMessage(issue, name);
  }
  return fields;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are checked before they reach PostgreSQL, so a malformed one is a 404, not a 500. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The top-level names an object schema takes; null when it is no plain object schema. */
export function schemaKeys(schema: z.ZodType | undefined): string[] | null {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : null;
}

/** Whether an object schema takes names beyond its own (events.json forwards them upstream). */
export function takesFurtherKeys(schema: z.ZodType | undefined): boolean {
  const catchall = (schema as { def?: { catchall?: { def?: { type?: string } } } } | undefined)?.def?.catchall;
  return catchall !== undefined && catchall.def?.type !== 'never';
}

/** The known name a mistyped one most likely meant: close in spelling or sharing its stem ("activity"). */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase().slice(0, 64);
  if (wanted.length < 2) return undefined;
  const allowed = Math.max(1, Math.floor(wanted.length * 0.4));
  let best: { key: string; score: number } | undefined;
  for (const key of known) {
    const distance = editDistance(wanted, key.toLowerCase(), allowed);
    const stem = commonPrefix(wanted, key.toLowerCase());
    const score =
      distance <= allowed
        ? distance
        : stem >= 4 && stem >= Math.min(wanted.length, key.length) - 2
          ? allowed + 1
          : null;
    if (score !== null && (!best || score < best.score)) best = { key, score };
  }
  return best?.key;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** `fields` entries for names the schema does not take, each with the closest name it does take. */
export function unknownNameFields(names: Iterable<string>, known: readonly string[], kind: 'field' | 'parameter') {
  const fields = emptyFields();
  for (const name of names) {
    if (known.includes(name)) continue;
    const close = closestName(name, known);
    fields[name] = close ? `unknown ${kind} (did you mean ${close}?)` : `unknown ${kind}`;
  }
  return fields;
}

/**
 * Query parameters an /api/v1 endpoint does not take are refused like unknown body fields, so a
 * misspelt filter ("activity") is never silently ignored. A schema with a catchall (events.json)
 * takes them on purpose.
 */
export function refuseUnknownQuery(schema: z.ZodType | undefined, params: URLSearchParams): void {
  if (takesFurtherKeys(schema)) return;
  const known = schema ? schemaKeys(schema) : [];
  if (known === null) return;
  const fields = unknownNameFields(new Set(params.keys()), known, 'parameter');
  if (Object.keys(fields).length === 0) return;
  throw new ApiError('validation_failed', validationMessage(fields, 'query'), {
    hint:
      known.length > 0
        ? `Remove the parameters listed in error.fields; this endpoint takes: ${known.join(', ')}.`
        : 'Remove the parameters listed in error.fields; this endpoint takes no query parameters.',
    fields,
  });
}

export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  input: unknown,
  where: 'body' | 'query' | 'path',
): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = issuesToFields(result.error.issues);
  // Unknown top-level names get the closest name the schema takes, as unknown query parameters do.
  const known = schemaKeys(schema);
  if (known) {
    for (const [name, message] of Object.entries(fields)) {
      if (message === 'unknown field')
        Object.assign(fields, unknownNameFields([name], known, where === 'query' ? 'parameter' : 'field'));
    }
  }
  throw new ApiError('validation_failed', validationMessage(fields, where), {
    hint: 'Fix the fields listed in error.fields and send the request again.',
    fields,
  });
}

/**
 * The envelope's message for a validation failure, in words a person can read: the fields'
 * own sentences ("Enter your name. Email must be an email address, like sam@example.com."),
 * the first three of them; error.fields keeps every field under its machine name.
 */
export function validationMessage(fields: Record<string, string>, where: 'body' | 'query' | 'path' = 'body'): string {
  const entries = Object.entries(fields);
  if (entries.length === 0)
    return `The request ${where === 'body' ? 'body' : where === 'query' ? 'query' : 'address'} isn’t valid.`;
  const sentence = ([name, message]: [string, string]) => {
    const unknown = /^unknown (field|parameter)(?: \(did you mean (.+)\?\))?$/.exec(message);
    const guess = unknown?.[2] ? ` (did you mean ${unknown[2]}?)` : '';
    const text = unknown ? `${name} is not a ${unknown[1]} we know: remove it${guess}` : message;
    // A name is quoted as sent (names are case-sensitive); a message starts with a capital.
    const capital = unknown ? text : text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(capital) ? capital : `${capital}.`;
  };
  const shown = entries.slice(0, 3).map(sentence).join(' ');
  return entries.length > 3 ? `${shown} And ${entries.length - 3} more: see error.fields.` : shown;
}
