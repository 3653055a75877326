// GET /server.json: this service's entry for the MCP Registry (registry.modelcontextprotocol.io), in
// the registry's published format, schema 2025-12-11 (server.schema.2025-12-11.json beside this file,
// a copy of https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, which the
// test validates it against). An operator publishes it with the registry's `mcp-publisher`
// (docs/app-directories.md).
import { API_VERSION } from '@/lib/docs/index-document';
import { LEGAL_PATHS } from '@/lib/web/legal-paths';
import { MCP_SERVER_TITLE } from '../manifest';
import { MCP_SERVER_NAME } from '../server';

export const REGISTRY_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** At most 100 characters, as the registry requires. */
export const REGISTRY_DESCRIPTION =
  'Find people to do things with nearby: buddies, chats, plans to meet and small group meetups.';

/**
 * The registry's name is a reverse-DNS namespace the publisher proves it owns (DNS or HTTP
 * verification of the domain), then the server's own name: buddies.example.com →
 * com.example.buddies/buddy-match.
 */
export function registryName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const namespace = /^[\d.]+$/.test(host) || host.includes(':') ? host : host.split('.').reverse().join('.');
  return `${namespace.replace(/[^a-zA-Z0-9.-]/g, '-')}/${MCP_SERVER_NAME}`;
}

export function buildRegistryEntry(baseUrl: string) {
  return {
    $schema: REGISTRY_SCHEMA_URL,
    name: registryName(baseUrl),
    title: MCP_SERVER_TITLE,
    description: REGISTRY_DESCRIPTION,
    version: API_VERSION,
    websiteUrl: baseUrl,
    icons: [{ src: `${baseUrl}/icon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }],
    remotes: [{ type: 'streamable-http', url: `${baseUrl}/api/mcp` }],
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        manifest: `${baseUrl}/.well-known/mcp.json`,
        privacy_policy: `${baseUrl}${LEGAL_PATHS.privacy}`,
        terms_of_use: `${baseUrl}${LEGAL_PATHS.terms}`,
      },
    },
  };
}
