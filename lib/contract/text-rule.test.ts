// The string rule cannot be forgotten: this walks every request schema of every endpoint
// (path parameters, query, body) and fails when any string position lacks the rule or
// accepts NUL, another control character or a lone surrogate.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '.';
import { issuesToFields } from './validation';
import { FREE_TEXT_RULE, SINGLE_LINE_RULE } from './text';

type Def = Record<string, any> & { type: string; checks?: unknown[] };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

interface StringPosition {
  /** Path from the top of the input; '*' is any key of a catchall or record. */
  path: string[];
  schema: z.ZodType;
  /** Reached as a record key (checked structurally; zod reports key problems on the record). */
  isKey: boolean;
}

/** Every string schema an input can reach, with the path to it. Only a pipe's input side sees raw input. */
function stringPositions(
  schema: z.ZodType,
  path: string[] = [],
  isKey = false,
  out: StringPosition[] = [],
): StringPosition[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      out.push({ path, schema, isKey });
      break;
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>))
        stringPositions(child, [...path, key], false, out);
      if (def.catchall && defOf(def.catchall).type !== 'never' && defOf(def.catchall).type !== 'unknown')
        stringPositions(def.catchall, [...path, '*'], false, out);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'nonoptional':
    case 'readonly':
      stringPositions(def.innerType, path, isKey, out);
      break;
    case 'array':
      stringPositions(def.element, [...path, '0'], false, out);
      break;
    case 'tuple':
      for (const [i, item] of (def.items as z.ZodType[]).entries())
        stringPositions(item, [...path, String(i)], false, out);
      if (def.rest) stringPositions(def.rest, [...path, '0'], false, out);
      break;
    case 'union':
      for (const option of def.options as z.ZodType[]) stringPositions(option, path, isKey, out);
      break;
    case 'intersection':
      stringPositions(def.left, path, isKey, out);
      stringPositions(def.right, path, isKey, out);
      break;
    case 'record':
      stringPositions(def.keyType, [...path, '*'], true, out);
      stringPositions(def.valueType, [...path, '*'], false, out);
      break;
    case 'pipe':
      stringPositions(def.in, path, isKey, out);
      break;
    case 'lazy':
      stringPositions(def.getter(), path, isKey, out);
      break;
    case 'enum':
    case 'literal':
    case 'number':
    case 'int':
    case 'boolean':
    case 'null':
    case 'undefined':
    case 'transform':
    case 'never':
      break;
    default:
      throw new Error(
        `The walker does not know zod type "${def.type}" at ${path.join('.') || '(top)'}: teach it, so no string escapes the rule`,
      );
  }
  return out;
}

/** The smallest input that carries `value` to `path`: other fields missing is fine, we only look at this path's issues. */
function inputAt(path: string[], value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (/^\d+$/.test(head)) return [inputAt(rest, value)];
  return { [head === '*' ? 'some_key' : head]: inputAt(rest, value) };
}

const requestParts = endpoints.flatMap((spec) =>
  (['params', 'query', 'body'] as const)
    .filter((part) => spec[part] !== undefined)
    .map((part) => ({ name: `${spec.method} ${spec.path} ${part}`, schema: spec[part] as z.ZodType })),
);

const positions = requestParts.flatMap(({ name, schema }) =>
  stringPositions(schema).map((position) => ({ ...position, name: `${name}: ${position.path.join('.') || '(top)'}` })),
);

const HOSTILE = [
  ['NUL', 'ab\u0000cd'],
  ['a lone high surrogate', 'ab\uD800cd'],
  ['a lone low surrogate', 'ab\uDC00cd'],
  ['a surrogate at the end', 'abcd\uD83D'],
  ['escape (ANSI sequences)', 'ab\u001B[31mcd'],
  ['DEL', 'ab\u007Fcd'],
  ['a C1 control', 'ab\u0085cd'],
  ['a lone carriage return', 'ab\rcd'],
] as const;

describe('the string rule covers every request string', () => {
  it('finds the string positions of the contract (sanity check of the walker)', () => {
    expect(requestParts.length).toBeGreaterThan(30);
    expect(positions.length).toBeGreaterThan(60);
    const names = positions.map((p) => p.name);
    for (const expected of [
      'POST /api/v1/register.json body: email',
      'POST /api/v1/register.json body: activities.0',
      'POST /api/v1/register.json body: schedule.*',
      'GET /api/v1/users/{slug}/profile.json params: slug',
      'GET /api/v1/events.json query: *',
      'GET /api/v1/inbox.json query: since',
      'POST /api/v1/chats/{chatId}/messages.json body: text',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(positions.map((p) => [p.name, p] as const))('%s carries the string rule', (_name, position) => {
    const checks = defOf(position.schema).checks ?? [];
    expect(checks.some((check) => check === SINGLE_LINE_RULE || check === FREE_TEXT_RULE)).toBe(true);
  });

  const valuePositions = positions.filter((p) => !p.isKey);
  it.each(valuePositions.map((p) => [p.name, p] as const))(
    '%s refuses NUL, control characters and lone surrogates',
    (_name, position) => {
      const top = requestParts.find((part) => position.name.startsWith(`${part.name}:`))!;
      const isFreeText = (defOf(position.schema).checks ?? []).includes(FREE_TEXT_RULE);
      for (const [what, value] of HOSTILE) {
        if (isFreeText && what === 'a lone carriage return') continue; // allowed only as CRLF, tested below
        const fieldPath = position.path.map((segment) => (segment === '*' ? 'some_key' : segment));
        const result = top.schema.safeParse(inputAt(position.path, value));
        expect(result.success, `${what} was accepted`).toBe(false);
        const fields = issuesToFields(result.error!.issues);
        const name = fieldPath.join('.') || 'body';
        expect(fields, `${what}: error.fields should name ${name}`).toHaveProperty([name]);
      }
    },
  );

  it('record keys carry the rule too (zod reports them on the record)', () => {
    expect(positions.filter((p) => p.isKey).length).toBeGreaterThan(0);
  });
});
