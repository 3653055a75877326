import path from 'node:path';
import { dereference, validate } from '@readme/openapi-parser';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { allEndpoints, endpoints } from '../contract';
import { webAppEndpoints } from '../contract/web-app';
import { register } from '../contract/accounts';
import { ERROR_ADVICE, ERROR_STATUS } from '../http/errors';
import { buildOpenApi, errorCodesFor, openApiJson, operationFor, type OpenApiOperation } from './openapi';
import { routeHandlersOnDisk } from './route-files';

const BASE = 'https://buddy.example';
const doc = () => buildOpenApi(endpoints, BASE);
const operations = () =>
  Object.entries(doc().paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
  );

type Media = { schema: Record<string, unknown>; example?: unknown; examples?: Record<string, { value: unknown }> };

/** An ajv for OpenAPI 3.0 Schema Objects (a draft-04 dialect with `nullable`). */
function openApiAjv() {
  const ajv = new Ajv04({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

// Building, dereferencing and validating the whole document is CPU work: more than the default 5 s under load.
describe('the OpenAPI document', { timeout: 30_000 }, () => {
  it('passes a real OpenAPI 3.0 validator', async () => {
    const result = await validate(structuredClone(doc()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('is 3.0.3, version 1.0.0, served from PUBLIC_BASE_URL, with the bearer scheme and all seven scopes', () => {
    const d = doc() as Record<string, any>;
    expect(d.openapi).toBe('3.0.3');
    expect(d.info.version).toBe('1.0.0');
    expect(d.servers).toEqual([{ url: BASE }]);
    expect(d.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(d.components.securitySchemes.bearerAuth['x-scopes'])).toHaveLength(7);
  });

  it('has exactly the contract endpoints, which are exactly the route handlers under app/api', () => {
    const inOpenApi = operations()
      .map((o) => o.key)
      .sort();
    const inContract = endpoints.map((e) => `${e.method} ${e.path}`).sort();
    const onDisk = routeHandlersOnDisk(path.resolve(import.meta.dirname, '../../app'));
    expect(inOpenApi).toEqual(inContract);
    // Every handler is in the contract: the agents' API, or the web app's own (left out of OpenAPI on purpose).
    expect(onDisk).toEqual(allEndpoints.map((e) => `${e.method} ${e.path}`).sort());
    for (const spec of webAppEndpoints) expect(inOpenApi).not.toContain(`${spec.method} ${spec.path}`);
    expect(new Set(operations().map((o) => o.op.operationId)).size).toBe(endpoints.length);
  });

  it('names the operation, tags, auth and parameters from the contract', async () => {
    const dereferenced = (await dereference(structuredClone(doc()) as never)) as unknown as ReturnType<typeof doc>;
    for (const spec of endpoints) {
      const op = dereferenced.paths[spec.path]![spec.method.toLowerCase()] as OpenApiOperation & Record<string, any>;
      expect(op.operationId).toBe(spec.id);
      expect(op.summary).toBe(spec.summary);
      expect(op.tags).toEqual([...spec.tags]);
      // Effective security: the operation's own, else the document's (bearer).
      expect(op.security ?? (dereferenced as Record<string, any>).security).toEqual(
        spec.auth === 'none' ? [] : [{ bearerAuth: [] }],
      );
      if (spec.auth !== 'none') expect(op['x-required-scope']).toBe(spec.auth);
      const pathParams = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect((op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(pathParams);
      expect(Boolean(op.requestBody)).toBe(Boolean(spec.body));
      expect(Object.keys(op.responses)).toContain(String(spec.status ?? 200));
    }
  });

  it('documents an error envelope for each status an endpoint can answer with', async () => {
    // Error responses are shared components: read them through their $refs.
    const dereferenced = (await dereference(structuredClone(doc()) as never)) as unknown as ReturnType<typeof doc>;
    for (const op of Object.values(dereferenced.paths).flatMap((methods) => Object.values(methods))) {
      const spec = endpoints.find((e) => e.id === op.operationId)!;
      const statuses = new Set(errorCodesFor(spec).map((c) => String(ERROR_STATUS[c])));
      expect(statuses.has('500')).toBe(true);
      if (spec.auth !== 'none') expect([...statuses]).toEqual(expect.arrayContaining(['401', '403']));
      if (spec.body || spec.query || spec.params) expect(statuses.has('400')).toBe(true);
      for (const status of statuses) {
        const media = (op.responses[status] as { content: Record<string, Media> }).content['application/json']!;
        expect(media.schema).toEqual((dereferenced as Record<string, any>).components.schemas.ErrorEnvelope);
        for (const code of errorCodesFor(spec).filter((c) => String(ERROR_STATUS[c]) === status)) {
          expect(media.examples![code]!.value).toMatchObject({ error: { code, hint: ERROR_ADVICE[code] } });
        }
      }
    }
    const registerOp = dereferenced.paths[register.path]!.post!;
    expect(Object.keys(registerOp.responses)).toEqual(
      expect.arrayContaining(['201', '400', '409', '413', '415', '429', '500']),
    );
  });

  it('has examples that are valid against their own schemas', async () => {
    const dereferenced = (await dereference(structuredClone(doc()) as never)) as unknown as ReturnType<typeof doc>;
    const ajv = openApiAjv();
    let checked = 0;
    for (const methods of Object.values(dereferenced.paths)) {
      for (const op of Object.values(methods) as Array<Record<string, any>>) {
        const media: Media[] = [
          ...(op.requestBody ? [op.requestBody.content['application/json']] : []),
          ...Object.values(op.responses as Record<string, { content?: Record<string, Media> }>).flatMap((r) =>
            r.content ? [r.content['application/json']!] : [],
          ),
        ];
        for (const m of media) {
          const examples = [
            ...(m.example !== undefined ? [m.example] : []),
            ...Object.values(m.examples ?? {}).map((e) => e.value),
          ];
          const check = ajv.compile(m.schema);
          for (const example of examples) {
            const valid = check(example);
            expect(valid, `${op.operationId}: ${JSON.stringify(check.errors)}`).toBe(true);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(endpoints.length);
  });

  it('rejects an example that breaks its schema (the example check can fail)', async () => {
    const dereferenced = (await dereference(structuredClone(doc()) as never)) as unknown as ReturnType<typeof doc>;
    const op = dereferenced.paths[register.path]!.post! as Record<string, any>;
    const check = openApiAjv().compile(op.requestBody.content['application/json'].schema);
    expect(check({ ...(register.requestExample as object), email: 'not-an-email' })).toBe(false);
    expect(check({ ...(register.requestExample as object), gender: 'robot' })).toBe(false);
    expect(check({ ...(register.requestExample as object), schedule: null, coords: null })).toBe(true);
  });

  it('matches the contract examples against the zod schemas too', () => {
    for (const spec of endpoints) {
      if (spec.example !== undefined) expect(spec.response.safeParse(spec.example).success, spec.id).toBe(true);
      if (spec.requestExample !== undefined)
        expect(spec.body?.safeParse(spec.requestExample).success, spec.id).toBe(true);
    }
  });

  // Issue 14 §5: the document was ~450 KB (pretty-printed; 217 KB compact) with the error
  // envelopes, cards and parameters copied into every operation.
  // Raised to 120 KB by issue 29 (plans) and "Inside the assistant".
  it('is served under 120 KB, with repeated schemas, parameters and error responses shared as components', () => {
    const served = Buffer.byteLength(openApiJson(endpoints, BASE));
    expect(served).toBeLessThan(120_000);
    const d = doc() as Record<string, any>;
    expect(Object.keys(d.components.schemas).length).toBeGreaterThan(10);
    expect(d.components.responses.Error500).toBeDefined();
    expect(d.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' });
    // No copy of a shared schema is left inline.
    const text = JSON.stringify(d.paths);
    for (const [name, schema] of Object.entries(d.components.schemas as Record<string, unknown>)) {
      expect(text.includes(JSON.stringify(schema)), name).toBe(false);
    }
  });

  it("says the same once dereferenced as each endpoint's own schemas (sharing loses nothing)", async () => {
    const dereferenced = (await dereference(structuredClone(doc()) as never)) as unknown as Record<string, any>;
    for (const spec of endpoints) {
      const op = dereferenced.paths[spec.path][spec.method.toLowerCase()];
      const single = operationFor(spec) as Record<string, any>;
      const success = String(spec.status ?? 200);
      expect(op.responses[success].content['application/json'].schema, spec.id).toEqual(
        single.responses[success].content['application/json'].schema,
      );
      if (spec.body) {
        const inline = single.requestBody.content['application/json'].schema;
        expect(op.requestBody.content['application/json'].schema, spec.id).toEqual(inline);
      }
      const inlineParams = (single.parameters ?? []).filter((p: any) => !p.$ref);
      expect(
        (op.parameters ?? []).filter((p: any) => p.name !== 'Idempotency-Key'),
        spec.id,
      ).toEqual(inlineParams);
      expect((op.parameters ?? []).some((p: any) => p.name === 'Idempotency-Key')).toBe(spec.method === 'POST');
    }
  });
});
