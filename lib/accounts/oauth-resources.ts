// The resource identifiers of this service (RFC 8707, RFC 9728), without oidc-provider.

/**
 * The resource identifiers (RFC 8707) tokens may be issued for: the MCP server, the REST
 * API, and the service as a whole (what a client that read the root metadata asks for).
 * One service, so a token for any of them works on both; a token for anything else is
 * never issued (invalid_target) nor accepted.
 */
export function oauthResources(baseUrl: string): { service: string; mcp: string; api: string } {
  return { service: baseUrl, mcp: `${baseUrl}/api/mcp`, api: `${baseUrl}/api/v1` };
}

export function isOwnResource(baseUrl: string, resource: string): boolean {
  return Object.values(oauthResources(baseUrl)).includes(resource);
}

const PRM_PREFIX = '/.well-known/oauth-protected-resource';

/** The RFC 9728 metadata URL for a resource path ('' for the service, '/api/mcp', '/api/v1'). */
export function resourceMetadataUrl(baseUrl: string, resourcePath: '' | '/api/mcp' | '/api/v1'): string {
  return `${baseUrl}${PRM_PREFIX}${resourcePath}`;
}

/** The pre-registered public client for device sign-in (RFC 8628); see lib/oauth/provider.ts. */
export const DEVICE_CLIENT_ID = 'buddy-match-device';
/** Its name wherever a client's name shows ("Connected assistants", the device pages): words, not jargon. */
export const DEVICE_CLIENT_NAME = 'An assistant with a sign-in code';
