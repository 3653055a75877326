// zod → JSON Schema for every generated surface (OpenAPI, MCP tools, guides, /docs),
// so the contract's schemas are the only source of field names, types and limits.
import { z } from 'zod';
import { publishedFormOf } from '../contract/forgiving';

export type JsonSchema = Record<string, unknown>;
export type SchemaTarget = 'openapi-3.0' | 'draft-2020-12' | 'draft-07';
export type SchemaIo = 'input' | 'output';

/**
 * The contract schema as JSON Schema. `unrepresentable: 'any'` turns transforms and
 * custom refinements into `{}` rather than throwing: the route still enforces them.
 */
export function toJsonSchema(schema: z.ZodType, io: SchemaIo, target: SchemaTarget = 'openapi-3.0'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target,
    io,
    unrepresentable: 'any',
    // A forgiving field is published as its documented form or text (lib/contract/forgiving.ts).
    override: ({ zodSchema, jsonSchema }) => {
      const published = publishedFormOf(zodSchema);
      if (!published) return;
      const { description } = jsonSchema;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      const documented = toJsonSchema(published.documented, io, target);
      if (description !== undefined) delete documented.description;
      const text = { type: 'string', maxLength: published.textMaxLength };
      Object.assign(
        jsonSchema,
        io === 'input' ? { anyOf: [documented, text] } : documented,
        description === undefined ? {} : { description },
      );
    },
  }) as JsonSchema;
  delete json.$schema;
  return target === 'openapi-3.0' ? fixNullableUnions(dropDatePatterns(json)) : json;
}

/**
 * zod spells out `format: date` (and `date-time`) as a leap-year regex of hundreds of characters;
 * in OpenAPI the format (RFC 3339 full-date, date-time) says the same, and the route checks it exactly.
 */
function dropDatePatterns<T>(node: T): T {
  if (Array.isArray(node)) return node.map(dropDatePatterns) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = dropDatePatterns(value);
  if ((out.format === 'date' || out.format === 'date-time') && typeof out.pattern === 'string') delete out.pattern;
  return out as T;
}

/**
 * OpenAPI 3.0.3 gives `nullable` meaning only beside `type`, and validators (ajv)
 * reject it without one. zod puts it beside `anyOf` for a nullable union, so it is
 * pushed down into each typed branch, which says the same thing in valid 3.0.
 * Nullable enums also get null in their value list.
 */
export function fixNullableUnions<T>(node: T): T {
  if (Array.isArray(node)) return node.map(fixNullableUnions) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = fixNullableUnions(value);
  if (out.nullable === true && out.type === undefined) {
    const branches = (out.anyOf ?? out.oneOf) as JsonSchema[] | undefined;
    if (branches?.every((b) => b.type !== undefined)) {
      const key = out.anyOf ? 'anyOf' : 'oneOf';
      out[key] = branches.map((b) => ({ ...b, nullable: true }));
      delete out.nullable;
    }
  }
  // A nullable enum must list null among its values (OpenAPI 3.0.3 clarification), or null fails the enum.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out as T;
}

/** One row of a field table: a top-level property of an object schema. */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

/** The top-level fields of an object schema, for the guides' and /docs' tables. */
export function fieldRows(schema: z.ZodType, io: SchemaIo = 'input'): FieldRow[] {
  const json = toJsonSchema(schema, io, 'draft-2020-12');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, prop]) => ({
    name,
    type: describeType(prop),
    required: required.has(name),
    notes: describeConstraints(prop),
  }));
}

/** A short human type label: `string (email)`, `array of string`, `one of: a, b`. */
export function describeType(schema: JsonSchema): string {
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    const labels = branches.filter((b) => b.type !== 'null').map(describeType);
    return [...new Set(labels)].join(' or ');
  }
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.filter((v) => v !== null).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const type = Array.isArray(schema.type)
    ? (schema.type as string[]).filter((t) => t !== 'null')[0]
    : (schema.type as string | undefined);
  if (type === 'array') {
    const items = schema.items as JsonSchema | undefined;
    return items ? `array of ${describeType(items)}` : 'array';
  }
  if (type === 'object') {
    const names = Object.keys((schema.properties ?? {}) as object);
    return names.length ? `object {${names.join(', ')}}` : 'object';
  }
  if (!type) return 'any';
  return typeof schema.format === 'string' ? `${type} (${schema.format})` : type;
}

/** Length, count and range limits in plain words, e.g. `1-60 chars`, `at most 20 items`. */
export function describeLimits(schema: JsonSchema): string {
  const parts: string[] = [];
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === 'number' && typeof max === 'number')
      parts.push(min === max ? `exactly ${min} ${unit}` : `${min}-${max} ${unit}`);
    else if (typeof max === 'number') parts.push(`at most ${max} ${unit}`);
    else if (typeof min === 'number' && min > 0) parts.push(`at least ${min} ${unit}`);
  };
  range(schema.minLength, schema.maxLength, 'chars');
  range(schema.minItems, schema.maxItems, 'items');
  if (typeof schema.minimum === 'number' || typeof schema.maximum === 'number') {
    parts.push(`${schema.minimum ?? '…'} to ${schema.maximum ?? '…'}`);
  }
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches && parts.length === 0) {
    const inner = branches.map(describeLimits).filter(Boolean);
    if (inner.length) parts.push(...new Set(inner));
  }
  return parts.join('; ');
}

/** Limits, pattern, default and description in plain words, for field tables. */
export function describeConstraints(schema: JsonSchema): string {
  const parts: string[] = [];
  const limits = describeLimits(schema);
  if (limits) parts.push(limits);
  if (typeof schema.pattern === 'string' && !schema.format) parts.push(`pattern \`${schema.pattern}\``);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  const branches = ((schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined)?.filter((b) => b.type !== 'null') ?? [];
  const description = schema.description ?? branches.find((b) => typeof b.description === 'string')?.description;
  if (typeof description === 'string') parts.push(description);
  return parts.join('; ');
}
