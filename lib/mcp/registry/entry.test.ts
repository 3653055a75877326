// The MCP Registry entry (issue 47) against the registry's own published schema, 2025-12-11.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import schema from './server.schema.2025-12-11.json' with { type: 'json' };
import { buildRegistryEntry, REGISTRY_SCHEMA_URL, registryName } from './entry';

function registryValidator() {
  // strict: false, as the registry's schema carries OpenAPI's `example` keyword.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('server.json for the MCP Registry', () => {
  const validate = registryValidator();

  it('names the schema it is written to', () => {
    expect(schema.$id).toBe(REGISTRY_SCHEMA_URL);
  });

  it.each([
    ['https://buddies.example.com', 'com.example.buddies/buddy-match'],
    ['https://example.org/', 'org.example/buddy-match'],
    ['http://localhost:3000', 'localhost/buddy-match'],
    ['http://127.0.0.1:3000', '127.0.0.1/buddy-match'],
  ])('is valid for %s, named %s', (baseUrl, name) => {
    const entry = buildRegistryEntry(baseUrl.replace(/\/$/, ''));
    expect(validate(entry), JSON.stringify(validate.errors)).toBe(true);
    expect(registryName(baseUrl)).toBe(name);
    expect(entry.remotes).toEqual([{ type: 'streamable-http', url: `${baseUrl.replace(/\/$/, '')}/api/mcp` }]);
  });

  // The validator is the registry's: it refuses what the registry refuses.
  it.each([
    ['a description over 100 characters', { description: 'x'.repeat(101) }],
    ['a name without a namespace', { name: 'buddy-match' }],
    ['an icon that is not a URI', { icons: [{ src: 'icon.svg' }] }],
    ['a transport it does not know', { remotes: [{ type: 'websocket', url: 'https://x.test/mcp' }] }],
  ])('refuses %s', (_what, change) => {
    expect(validate({ ...buildRegistryEntry('https://buddies.example.com'), ...change })).toBe(false);
  });
});
