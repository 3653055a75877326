// One MCP tool per contract endpoint, generated from the contract table: the name is
// the endpoint id, the input schema is its path params + query + body merged, the
// output schema is its response. Endpoints added to the table become tools by
// themselves (their route handler still has to be listed in app/api/mcp/handlers.ts).
import type { EndpointSpec } from '../contract/define';
import { toJsonSchema, type JsonSchema, type SchemaTarget } from '../docs/json-schema';
import { errorCodesFor } from '../docs/openapi';
import { annotationsFor, type ToolAnnotations } from './annotations';

/** Contract endpoints that are deliberately not tools, with the reason. */
export const EXCLUDED_FROM_MCP: Readonly<Record<string, string>> = {
  get_health: 'an operator liveness probe, not something an agent does for a person',
  get_index: 'lists the HTTP endpoints; an MCP client gets the same from tools/list',
};

export type ArgumentPlace = 'path' | 'query' | 'body';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  spec: EndpointSpec;
  annotations: ToolAnnotations;
  /** Where each declared argument goes in the HTTP request. */
  places: Readonly<Record<string, ArgumentPlace>>;
  /** True when the body is not an object and travels whole as the `body` argument. */
  bodyAsArgument: boolean;
  inputSchema(target?: string): JsonSchema;
  /** The success response, when it is an object (MCP structured content must be one). */
  outputSchema(target?: string): JsonSchema | undefined;
}

type MergeTarget = Exclude<SchemaTarget, 'openapi-3.0'>;
const asTarget = (target: string | undefined): MergeTarget => (target === 'draft-07' ? 'draft-07' : 'draft-2020-12');

function isObjectSchema(json: JsonSchema): json is JsonSchema & { properties: Record<string, JsonSchema> } {
  return json.type === 'object' && typeof json.properties === 'object' && json.properties !== null;
}

interface Merged {
  schema: JsonSchema;
  places: Record<string, ArgumentPlace>;
  bodyAsArgument: boolean;
}

/** params + query + body as one object schema; a name used twice is a contract bug. */
function mergeInput(spec: EndpointSpec, target: MergeTarget): Merged {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const places: Record<string, ArgumentPlace> = {};
  let bodyAsArgument = false;
  let closed = false;
  const add = (name: string, schema: JsonSchema, place: ArgumentPlace, isRequired: boolean) => {
    if (places[name]) throw new Error(`${spec.id}: argument "${name}" is both a ${places[name]} and a ${place} field`);
    places[name] = place;
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
    for (const [name, property] of Object.entries(json.properties)) add(name, property, place, place === 'path' || requiredHere.has(name));
    if (place === 'body' && json.additionalProperties === false) closed = true;
  }
  const schema: JsonSchema = { type: 'object', properties, ...(required.length ? { required } : {}), ...(closed ? { additionalProperties: false } : {}) };
  return { schema, places, bodyAsArgument };
}

function describeTool(spec: EndpointSpec): string {
  const auth =
    spec.auth === 'none'
      ? 'No token needed.'
      : `Needs the bearer token that the register tool returns (auth.token), sent as the HTTP header "Authorization: Bearer <token>" on the MCP connection (scope ${spec.auth}).`;
  const codes = errorCodesFor(spec).join(', ');
  return [
    `${spec.summary}.`,
    spec.description,
    auth,
    `Same as ${spec.method} ${spec.path}. On failure the result has isError and the error envelope {"error":{"code","message","hint","fields"}}; codes: ${codes}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

export function toolDefinition(spec: EndpointSpec): ToolDefinition {
  const cache = new Map<string, unknown>();
  const memo = <T>(key: string, make: () => T): T => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key) as T;
  };
  const base = mergeInput(spec, 'draft-2020-12');
  return {
    name: spec.id,
    title: spec.summary,
    description: describeTool(spec),
    spec,
    annotations: annotationsFor(spec),
    places: base.places,
    bodyAsArgument: base.bodyAsArgument,
    inputSchema: (target) => memo(`in:${asTarget(target)}`, () => mergeInput(spec, asTarget(target)).schema),
    outputSchema: (target) =>
      memo(`out:${asTarget(target)}`, () => {
        const json = toJsonSchema(spec.response, 'output', asTarget(target));
        return isObjectSchema(json) ? json : undefined;
      }),
  };
}

/** The tools for a contract table: every endpoint except the excluded ones. */
export function toolDefinitions(endpoints: readonly EndpointSpec[]): ToolDefinition[] {
  return endpoints.filter((spec) => !(spec.id in EXCLUDED_FROM_MCP)).map(toolDefinition);
}
