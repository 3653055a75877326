// Shared components for the OpenAPI document: every schema (a card, a profile, an
// activity list) and every parameter that appears more than once is stored once under
// components and referred to with $ref. The content is unchanged (a dereferenced
// document equals the inline one); only the copies go.
import type { JsonSchema } from './json-schema';

type Node = Record<string, unknown>;

/** Shorter schemas are left inline: a $ref (about 40 characters) saves nothing on them. */
const MIN_SHARED_LENGTH = 50;
/** What one reference costs, roughly: `{"$ref":"#/components/schemas/"}` plus a name. */
const REF_COST = 45;

const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/** Visits each schema position under a schema: properties, items, branches; `at` names it. */
type Visit = (parent: Node, key: string | number, holder: Node | unknown[], name: string) => void;

function forEachSubschema(schema: Node, at: string, visit: Visit) {
  const properties = schema.properties as Record<string, Node> | undefined;
  if (properties && typeof properties === 'object') {
    for (const name of Object.keys(properties)) visit(schema, name, properties, pascal(name));
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) {
    visit(schema, 'items', schema, `${at}Item`);
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    visit(schema, 'additionalProperties', schema, `${at}Value`);
  }
  for (const list of SCHEMA_LISTS) {
    const branches = schema[list] as Node[] | undefined;
    if (Array.isArray(branches)) for (const i of branches.keys()) visit(schema, i, branches, `${at}Option${i + 1}`);
  }
}

/**
 * A shared object is named after where it first appears (`profile` → `Profile`); a plain
 * value without a description or enum after its shape (`NullableInteger`), since the same
 * `{type: integer, nullable}` serves an age limit and an expiry alike.
 */
function componentName(schema: Node, context: string): string {
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  const described = typeof schema.description === 'string' || Array.isArray(schema.enum);
  if (!type || type === 'object' || described) return context;
  const items = schema.items && typeof schema.items === 'object' ? (schema.items as Node) : undefined;
  const item = type === 'array' ? items?.type : undefined;
  const shape = type === 'array' ? `${pascal(String(item ?? 'Any'))}List` : pascal(type);
  return `${schema.nullable === true ? 'Nullable' : ''}${shape}`;
}

function pascal(name: string): string {
  const out = name.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase());
  return out || 'Schema';
}

interface Root {
  holder: Node;
  key: string;
  name: string;
}

/** Every schema root in the operations, with a name for what it describes. */
function schemaRoots(paths: Record<string, Record<string, Node>>): Root[] {
  const roots: Root[] = [];
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods)) {
      const id = pascal(String(op.operationId));
      for (const parameter of (op.parameters ?? []) as Node[]) {
        if (parameter.schema) roots.push({ holder: parameter, key: 'schema', name: pascal(String(parameter.name)) });
      }
      const body = (op.requestBody as Node | undefined)?.content as Record<string, Node> | undefined;
      for (const media of Object.values(body ?? {})) roots.push({ holder: media, key: 'schema', name: `${id}Body` });
      for (const [status, response] of Object.entries(op.responses as Record<string, Node>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Node>)) {
          roots.push({ holder: media, key: 'schema', name: `${id}Response${status.startsWith('2') ? '' : status}` });
        }
      }
    }
  }
  return roots;
}

/**
 * Moves repeated schemas into components.schemas, largest first, until no copy is left
 * that is worth a reference. Names come from where a schema first appears: the property
 * that holds it (`profile` → `Profile`), or the operation (`RegisterBody`).
 */
export function shareSchemas(paths: Record<string, Record<string, Node>>, schemas: Record<string, JsonSchema>): void {
  const roots = schemaRoots(paths);
  const taken = new Set(Object.keys(schemas));
  for (;;) {
    const seen = new Map<string, { count: number; name: string; schema: Node }>();
    const count = (schema: unknown, name: string) => {
      if (!schema || typeof schema !== 'object' || Array.isArray(schema) || '$ref' in (schema as Node)) return;
      const text = JSON.stringify(schema);
      if (text.length >= MIN_SHARED_LENGTH) {
        const entry = seen.get(text);
        if (entry) entry.count += 1;
        else seen.set(text, { count: 1, name: componentName(schema as Node, name), schema: schema as Node });
      }
      forEachSubschema(schema as Node, name, (_parent, key, holder, childName) =>
        count((holder as Record<string | number, unknown>)[key], childName),
      );
    };
    for (const root of roots) count(root.holder[root.key], root.name);
    for (const [name, schema] of Object.entries(schemas)) count(schema, name);

    let best: { text: string; name: string; schema: Node } | undefined;
    let bestSaving = 0;
    for (const [text, entry] of seen) {
      const saving = (entry.count - 1) * text.length - entry.count * REF_COST;
      if (entry.count > 1 && saving > bestSaving) {
        bestSaving = saving;
        best = { text, name: entry.name, schema: entry.schema };
      }
    }
    if (!best) return;

    let name = best.name;
    for (let n = 2; taken.has(name); n += 1) name = `${best.name}${n}`;
    taken.add(name);
    const ref = { $ref: `#/components/schemas/${name}` };
    const replace = (holder: Record<string | number, unknown>, key: string | number): void => {
      const value = holder[key];
      if (!value || typeof value !== 'object' || Array.isArray(value) || '$ref' in (value as Node)) return;
      if (JSON.stringify(value) === best!.text) {
        holder[key] = ref;
        return;
      }
      forEachSubschema(value as Node, '', (_parent, childKey, childHolder) =>
        replace(childHolder as Record<string | number, unknown>, childKey),
      );
    };
    for (const root of roots) replace(root.holder, root.key);
    for (const key of Object.keys(schemas)) replace(schemas, key);
    schemas[name] = structuredClone(best.schema);
    // The stored copy's own repeats are shared on the next round, like any other schema's.
  }
}

/** Moves parameters used by more than one operation into components.parameters. */
export function shareParameters(paths: Record<string, Record<string, Node>>, parameters: Record<string, Node>): void {
  const uses = new Map<string, number>();
  const ops = Object.values(paths).flatMap((methods) => Object.values(methods));
  for (const op of ops) {
    for (const p of (op.parameters ?? []) as Node[]) {
      const text = JSON.stringify(p);
      if (!('$ref' in p)) uses.set(text, (uses.get(text) ?? 0) + 1);
    }
  }
  const names = new Map<string, string>();
  for (const op of ops) {
    if (!op.parameters) continue;
    op.parameters = (op.parameters as Node[]).map((p) => {
      if ('$ref' in p) return p;
      const text = JSON.stringify(p);
      if ((uses.get(text) ?? 0) < 2) return p;
      let name = names.get(text);
      if (!name) {
        const base = `${pascal(String(p.name))}${p.in === 'path' ? '' : pascal(String(p.in))}`;
        name = base;
        for (let n = 2; name in parameters; n += 1) name = `${base}${n}`;
        parameters[name] = p;
        names.set(text, name);
      }
      return { $ref: `#/components/parameters/${name}` };
    });
  }
}

/** Moves request bodies used by more than one operation into components.requestBodies. */
export function shareRequestBodies(
  paths: Record<string, Record<string, Node>>,
  requestBodies: Record<string, Node>,
): void {
  const ops = Object.values(paths).flatMap((methods) => Object.values(methods));
  const uses = new Map<string, Node[]>();
  for (const op of ops) {
    if (!op.requestBody || '$ref' in (op.requestBody as Node)) continue;
    const text = JSON.stringify(op.requestBody);
    uses.set(text, [...(uses.get(text) ?? []), op]);
  }
  for (const [text, users] of uses) {
    if (users.length < 2) continue;
    let name = `${pascal(String(users[0]!.operationId))}Body`;
    for (let n = 2; name in requestBodies; n += 1) name = `${name}${n}`;
    requestBodies[name] = JSON.parse(text) as Node;
    for (const op of users) op.requestBody = { $ref: `#/components/requestBodies/${name}` };
  }
}
