// One MCP tool per contract endpoint, generated from the contract table: the name is
// the endpoint id, the input schema is its path params + query + body merged. No
// output schema: results are the endpoint's JSON as text, and a schema of every answer
// tripled the size of tools/list, which hosts put in every conversation's context. Endpoints added to the table become tools by
// themselves, answered by their route module from app/api/route-modules.ts (generated); an entry that
// should not be a tool says so, and why, in its `mcp` field.
import { isMcpTool, type AgentEndpointSpec, type EndpointSpec } from '../contract/define';
import { toJsonSchema, type JsonSchema, type SchemaTarget } from '../docs/json-schema';
import { annotationsFor, type ToolAnnotations } from './annotations';

/**
 * Fields the HTTP API takes that tools/list leaves out (a tool call that sends one
 * anyway is still accepted), with the reason: each costs bytes in every conversation.
 */
export const OMITTED_FROM_TOOLS: Readonly<Record<string, string>> = {
  agentSessionId: 'a stateless MCP connection has no session of its own; agentName attributes the action',
  schedule: 'the raw 7x18 grid; availability_text says the same in plain English, which is what a model should send',
};

/** The rule lives beside the contract's `mcp` field, so the guides read it without importing MCP. */

export type ArgumentPlace = 'path' | 'query' | 'body';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  spec: AgentEndpointSpec;
  annotations: ToolAnnotations;
  /** Where each declared argument goes in the HTTP request (a Map: argument names come from the caller). */
  places: ReadonlyMap<string, ArgumentPlace>;
  /** True when the body is not an object and travels whole as the `body` argument. */
  bodyAsArgument: boolean;
  inputSchema(target?: string): JsonSchema;
}

type MergeTarget = Exclude<SchemaTarget, 'openapi-3.0'>;
const asTarget = (target: string | undefined): MergeTarget => (target === 'draft-07' ? 'draft-07' : 'draft-2020-12');

function isObjectSchema(json: JsonSchema): json is JsonSchema & { properties: Record<string, JsonSchema> } {
  return json.type === 'object' && typeof json.properties === 'object' && json.properties !== null;
}

interface Merged {
  schema: JsonSchema;
  places: Map<string, ArgumentPlace>;
  bodyAsArgument: boolean;
}

/**
 * A path parameter is an id the model copies from an earlier answer: its length bounds
 * (1-80) tell it nothing, and cost 30 bytes on each of 20 tools. The route still checks them.
 */
function pathIdForTools(property: JsonSchema): JsonSchema {
  const { minLength: _min, maxLength: _max, ...rest } = property;
  return rest;
}

/** params + query + body as one object schema; a name used twice is a contract bug. */
function mergeInput(spec: EndpointSpec, target: MergeTarget): Merged {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const places = new Map<string, ArgumentPlace>();
  let bodyAsArgument = false;
  const add = (name: string, schema: JsonSchema, place: ArgumentPlace, isRequired: boolean) => {
    const taken = places.get(name);
    if (taken) throw new Error(`${spec.id}: argument "${name}" is both a ${taken} and a ${place} field`);
    places.set(name, place);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  for (const [place, schema] of [
    ['path', spec.params],
    ['query', spec.query],
    ['body', spec.body],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(schema, 'input', target);
    if (place === 'body' && !isObjectSchema(json)) {
      bodyAsArgument = true;
      add('body', json, 'body', !spec.bodyOptional);
      continue;
    }
    if (!isObjectSchema(json)) throw new Error(`${spec.id}: ${place} schema must be an object`);
    const requiredHere = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries(json.properties))
      add(
        name,
        place === 'path' ? pathIdForTools(property) : property,
        place,
        place === 'path' || requiredHere.has(name),
      );
  }
  // Open, though the route refuses unknown fields: the tool leaves out fields the route
  // takes (OMITTED_FROM_TOOLS, deprecated ones), and a host that validates arguments
  // before calling would block them (issue 30 §4). The route names any unknown field.
  const schema: JsonSchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return { schema, places, bodyAsArgument };
}

/**
 * What a model reads in tools/list: the summary, the one rule it would get wrong
 * (toolHint), and whether it needs no token. Error codes, limits and the long guidance
 * are in the guides (the get_guide tool), read only when needed.
 */
function describeTool(spec: EndpointSpec): string {
  return [`${spec.summary}${spec.auth === 'none' ? ' (no token needed)' : ''}.`, spec.toolHint]
    .filter(Boolean)
    .join(' ');
}

/**
 * The input schema as a model needs it, and no bigger: every type, enum, limit and
 * format stays; what goes is what a model cannot use. A field that may be null says so
 * with a type list instead of an anyOf; deprecated fields, aliases and OMITTED_FROM_TOOLS are left
 * out (the route still takes them); the long patterns zod derives for `email`, `date` and `date-time` go, their `format` says
 * the same to a model (the route checks them exactly).
 */
export function compactSchema(node: JsonSchema, nullClears = false): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      const properties: Record<string, JsonSchema> = {};
      for (const [name, property] of Object.entries(value as Record<string, JsonSchema>)) {
        if (typeof property.description === 'string' && /^(Deprecated|Alias)\b/.test(property.description)) continue;
        if (name in OMITTED_FROM_TOOLS) continue;
        properties[name] = compactSchema(property, nullClears);
      }
      out.properties = properties;
    } else if (Array.isArray(value)) {
      out[key] = value.map((item) =>
        item && typeof item === 'object' ? compactSchema(item as JsonSchema, nullClears) : item,
      );
    } else if (value && typeof value === 'object') {
      out[key] = compactSchema(value as JsonSchema, nullClears);
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(out.required) && out.properties) {
    const kept = (out.required as string[]).filter((name) => name in (out.properties as object));
    if (kept.length) out.required = kept;
    else delete out.required;
  }
  if (
    (out.format === 'email' || out.format === 'date' || out.format === 'date-time') &&
    typeof out.pattern === 'string'
  )
    delete out.pattern;
  // "(default 40, max 100)" repeats what `default` and `maximum` already say.
  if (typeof out.description === 'string' && out.default !== undefined) {
    out.description = out.description.replace(/\s*\(default [^)]*\)/, '');
    if (!out.description) delete out.description;
  }
  if (!nullClears && Array.isArray(out.type) && out.type.includes('null')) {
    const types = (out.type as string[]).filter((t) => t !== 'null');
    out.type = types.length === 1 ? types[0] : types;
  }
  // Again after null goes: a nullable forgiving field's branches are one level down until then.
  return withoutRepeats(nullableAsTypeList(withoutRepeats(asBooleanFlag(out)), nullClears));
}

/** The words a query flag takes (1/0, true/false, yes/no): a model sends a boolean, which the call passes as "true". */
const FLAG_WORDS = JSON.stringify(['0', '1', 'false', 'no', 'true', 'yes']);

function asBooleanFlag(node: JsonSchema): JsonSchema {
  if (!Array.isArray(node.enum) || JSON.stringify([...node.enum].sort()) !== FLAG_WORDS) return node;
  const { enum: _enum, type: _type, ...rest } = node;
  return { ...rest, type: 'boolean' };
}

/**
 * What a branch of anyOf repeats goes: a branch identical to another (a forgiving field whose
 * documented form is itself text), and a branch's description when the field has its own.
 */
function withoutRepeats(node: JsonSchema): JsonSchema {
  if (!Array.isArray(node.anyOf)) return node;
  const seen = new Set<string>();
  const branches: JsonSchema[] = [];
  for (const branch of node.anyOf as JsonSchema[]) {
    const { description, ...rest } = branch;
    const kept = typeof node.description === 'string' || description === undefined ? rest : branch;
    const text = JSON.stringify(kept);
    if (!seen.has(text)) branches.push(kept);
    seen.add(text);
  }
  if (branches.length > 1) return { ...node, anyOf: branches };
  const { anyOf: _anyOf, ...rest } = node;
  return { ...rest, ...branches[0] };
}

/**
 * {anyOf: [{type: 'string', ...}, {type: 'null'}]} → {type: ['string', 'null'], ...}, with
 * any description kept. Only where null means something (a PATCH: null clears the field);
 * elsewhere null and leaving the field out are the same, so the model is shown the type alone.
 */
function nullableAsTypeList(node: JsonSchema, nullClears: boolean): JsonSchema {
  const branches = node.anyOf as JsonSchema[] | undefined;
  if (!Array.isArray(branches) || branches.length !== 2) return node;
  const nullIndex = branches.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
  const other = branches[1 - nullIndex];
  if (nullIndex < 0 || !other) return node;
  const { anyOf: _anyOf, ...rest } = node;
  if (!nullClears) return { ...rest, ...other };
  // A forgiving field (documented form or text) that null clears: one flat list of branches.
  if (Array.isArray(other.anyOf)) return { ...rest, ...other, anyOf: [...other.anyOf, { type: 'null' }] };
  if (typeof other.type !== 'string') return node;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

/**
 * agentName names the token's own agent, and a write without it carries that agent already
 * (lib/attribution/attribution.ts): on every tool but register (where it names the agent) it only
 * repeats the token, 44 bytes on each of 20 tools. A call that sends it anyway is still taken.
 */
function withoutRepeatedAgentName(spec: EndpointSpec, schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (spec.id === 'register' || !properties?.agentName) return schema;
  const { agentName: _agentName, ...rest } = properties;
  return { ...schema, properties: rest };
}

/**
 * update_my_profile takes register's profile fields, and the two are always listed together: its
 * copies of register's field descriptions go (about 300 bytes), and its toolHint says where they are.
 */
const DESCRIBED_IN: Readonly<Record<string, string>> = { update_my_profile: 'register' };

function withoutDescriptionsOf(described: JsonSchema | undefined, schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const theirs = described?.properties as Record<string, JsonSchema> | undefined;
  if (!properties || !theirs) return schema;
  const trimmed = Object.entries(properties).map(([name, property]) => {
    if (property.description === undefined || property.description !== theirs[name]?.description)
      return [name, property];
    const { description: _description, ...rest } = property;
    return [name, rest];
  });
  return { ...schema, properties: Object.fromEntries(trimmed) };
}

function toolSchema(spec: EndpointSpec, target: MergeTarget): JsonSchema {
  return withoutRepeatedAgentName(spec, compactSchema(mergeInput(spec, target).schema, spec.method === 'PATCH'));
}

export function toolDefinition(spec: AgentEndpointSpec, describedIn?: EndpointSpec): ToolDefinition {
  const cache = new Map<string, unknown>();
  const memo = <T>(key: string, make: () => T): T => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key) as T;
  };
  const base = mergeInput(spec, 'draft-2020-12');
  return {
    name: spec.id,
    title: spec.title,
    description: describeTool(spec),
    spec,
    annotations: annotationsFor(spec),
    places: base.places,
    bodyAsArgument: base.bodyAsArgument,
    inputSchema: (target) =>
      memo(`in:${asTarget(target)}`, () => {
        const schema = toolSchema(spec, asTarget(target));
        return describedIn ? withoutDescriptionsOf(toolSchema(describedIn, asTarget(target)), schema) : schema;
      }),
  };
}

/** The tools for a contract table: every endpoint but those left out of MCP. */
export function toolDefinitions(endpoints: readonly AgentEndpointSpec[]): ToolDefinition[] {
  const byId = new Map(endpoints.map((spec) => [spec.id, spec]));
  return endpoints.filter(isMcpTool).map((spec) => {
    const describedIn = DESCRIBED_IN[spec.id];
    return toolDefinition(spec, describedIn === undefined ? undefined : byId.get(describedIn));
  });
}
