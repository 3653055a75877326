// The arbitraries the fuzzer starts from must be valid requests, or the fuzzer would
// only ever test the validation layer: every endpoint's generated params, query and body
// pass the contract's own zod schemas.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '@/lib/contract';
import { arbitraryFromJsonSchema, requestJsonSchema, STATIC_HINTS } from './arbitraries';

const parts = endpoints.flatMap((spec) =>
  (['params', 'query', 'body'] as const)
    .filter((part) => spec[part] !== undefined)
    .map((part) => ({ name: `${spec.id} ${part}`, part, schema: spec[part] as z.ZodType })),
);

/** Query and path values travel as text. */
const asText = (value: unknown) =>
  Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]));

describe('arbitraries derived from the contract', () => {
  it.each(parts.map((p) => [p.name, p] as const))('%s: generated values pass the schema', (_name, { part, schema }) => {
    const arbitrary = arbitraryFromJsonSchema(requestJsonSchema(schema), {
      hints: STATIC_HINTS[part],
      asciiOnly: true,
      onlyHints: true,
    });
    fc.assert(
      fc.property(arbitrary, (value) => {
        const input = part === 'body' ? value : asText(value);
        const result = schema.safeParse(input);
        expect(result.error?.issues ?? []).toEqual([]);
      }),
      { seed: 12, numRuns: 40 },
    );
  });
});
