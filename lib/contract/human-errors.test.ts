// Every validation message the contract can produce reads as words a person would say:
// each request schema of every endpoint is fed bad values field by field, and the
// error.fields messages and the envelope's message must carry none of zod's jargon.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allEndpoints } from '.';
import { ApiError } from '../core/errors';
import { issuesToFields, parseOrThrow } from './validation';
import { fieldMessage } from './human-errors';
import { registerBodySchema } from './accounts';
import { discoverQuerySchema } from './discover';
import { changePasswordBodySchema } from './signin';
import { profileUpdateSchema } from './profiles';

const JARGON = [
  /expected/i,
  />=|<=/,
  /invalid input/i,
  /received/i,
  /too (small|big)/i,
  /unrecognized/i,
  /\bNaN\b/,
  /\bundefined\b/,
  /nonoptional/i,
  /\bstring\b/,
  /invalid_/,
];

const BAD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x'.repeat(5000),
  'not a date or anything',
  -5,
  1.5,
  1e9,
  true,
  [],
  ['x'.repeat(200)],
  Array(30).fill('a'),
  {},
  { a: 1 },
  'a\u0000b',
  '\uD800',
];
const WHOLE_BAD: unknown[] = [null, 'text', 42, [], { unknownField: 1 }];

function jargonIn(text: string): RegExp | undefined {
  return JARGON.find((pattern) => pattern.test(text));
}

function messagesFor(schema: z.ZodType, input: unknown, where: 'body' | 'query' | 'path'): string[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  const fields = issuesToFields(result.error.issues);
  let envelope = '';
  try {
    parseOrThrow(schema, input, where);
  } catch (error) {
    if (error instanceof ApiError) envelope = error.message;
  }
  return [...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), `message: ${envelope}`];
}

const parts = allEndpoints.flatMap((spec) =>
  (['params', 'query', 'body'] as const)
    .filter((part) => spec[part] !== undefined)
    .map((part) => ({
      name: `${spec.id} ${part}`,
      where: (part === 'params' ? 'path' : part) as 'body' | 'query' | 'path',
      schema: spec[part] as z.ZodType,
    })),
);

describe('validation messages are human', () => {
  it.each(parts.map((p) => [p.name, p] as const))(
    '%s: no zod jargon for bad values of any field',
    (_name, { schema, where }) => {
      const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
      const seen: string[] = [];
      for (const input of WHOLE_BAD) seen.push(...messagesFor(schema, input, where));
      for (const key of Object.keys(shape)) {
        for (const value of BAD_VALUES) {
          // Query and path values arrive as text; bodies as JSON.
          const sent =
            where === 'body'
              ? value
              : typeof value === 'string'
                ? value
                : value === undefined
                  ? undefined
                  : JSON.stringify(value);
          seen.push(...messagesFor(schema, { [key]: sent }, where));
        }
      }
      expect(seen.length).toBeGreaterThan(0);
      const bad = seen.filter((m) => jargonIn(m));
      expect(bad).toEqual([]);
    },
  );

  it('names the field in words and says what to do', () => {
    const fields = (schema: z.ZodType, input: unknown) => issuesToFields(schema.safeParse(input).error!.issues);
    expect(fields(registerBodySchema, {})).toMatchObject({
      email: 'Enter your email address',
      displayName: 'Enter your name',
    });
    expect(fields(registerBodySchema, { email: ' ', displayName: '  ' })).toMatchObject({
      email: 'Enter your email address',
      displayName: 'Enter your name',
    });
    expect(fields(registerBodySchema, { email: 'nope', displayName: 'x'.repeat(61) })).toEqual({
      email: 'Enter a valid email address, like sam@example.com',
      displayName: 'Name can be at most 60 characters',
    });
    const young = new Date(Date.now() - 5 * 365 * 86400_000).toISOString().slice(0, 10);
    expect(fields(profileUpdateSchema, { birthday: young })).toEqual({ birthday: 'You need to be 13 or older' });
    expect(fields(profileUpdateSchema, { aboutMe: 42, showAgeByDecade: 'yes' })).toEqual({
      aboutMe: 'About you must be text',
      showAgeByDecade: 'Show only my age decade must be true or false',
    });
    expect(fields(changePasswordBodySchema, { currentPassword: '', newPassword: 'short' })).toEqual({
      currentPassword: 'Enter your current password',
      newPassword: 'Use at least 8 characters for the new password',
    });
    expect(fields(discoverQuerySchema, { age_min: '40', age_max: '30' })).toEqual({
      age_min: 'The youngest age can’t be above the oldest',
    });
    expect(fields(discoverQuerySchema, { age_min: '5' })).toEqual({ age_min: 'Youngest age must be 13 or more' });
  });

  it('keeps the machine field names and says the fields in the envelope message', () => {
    try {
      parseOrThrow(registerBodySchema, { email: 'nope' }, 'body');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      const api = error as ApiError;
      expect(api.code).toBe('validation_failed');
      expect(Object.keys(api.fields ?? {}).sort()).toEqual(['displayName', 'email']);
      expect(api.message).toBe('Enter a valid email address, like sam@example.com. Enter your name.');
    }
  });

  it('keeps a message the schema wrote itself', () => {
    const schema = z.object({ n: z.string().min(3, 'Say a bit more') });
    const issue = schema.safeParse({ n: 'a' }).error!.issues[0]!;
    expect(fieldMessage(issue, 'n')).toBe('Say a bit more');
  });
});
