// zod issues → the envelope's `fields` map (one message per failing field).
import type { z } from 'zod';
import { fieldMessage } from '../contract/human-errors';
import { ApiError } from './errors';

export function issuesToFields(issues: readonly z.core.$ZodIssue[], prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
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

export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  input: unknown,
  where: 'body' | 'query' | 'path',
): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = issuesToFields(result.error.issues);
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
    const text = message === 'unknown field' ? `${name} is not a field we know: remove it` : message;
    const capital = text.charAt(0).toUpperCase() + text.slice(1);
    return /[.!?]$/.test(capital) ? capital : `${capital}.`;
  };
  const shown = entries.slice(0, 3).map(sentence).join(' ');
  return entries.length > 3 ? `${shown} And ${entries.length - 3} more: see error.fields.` : shown;
}
