// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document-00): a
// client_id that is an https URL with a path names a JSON document the client hosts.
// Fetched like a photoURL (public https on port 443 only, every resolved address
// checked, no redirects, small, quick), then checked as the draft and the MCP
// authorization specification require: valid JSON, client_id identical to the URL,
// redirect_uris present. oidc-provider then validates it as client metadata.
import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { assertAllowedUrl, ForbiddenTarget, guardedLookup } from '../core/outbound-guard';
import { logLine } from '../core/log';

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;
const MIN_AGE_S = 300;
const MAX_AGE_S = 24 * 3600;

/** True for client_ids this server resolves as metadata documents. */
export function isClientMetadataDocumentId(clientId: string): boolean {
  if (!/^https?:\/\//i.test(clientId)) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && url.pathname !== '' && !url.hash && url.href === clientId;
  } catch {
    return false;
  }
}

const documentSchema = z
  .looseObject({
    client_id: z.string(),
    client_name: z.string().min(1).max(200),
    redirect_uris: z.array(z.string().min(1)).min(1).max(20),
    token_endpoint_auth_method: z.literal('none').optional(),
    grant_types: z.array(z.string()).optional(),
    response_types: z.array(z.string()).optional(),
    client_uri: z.string().optional(),
    logo_uri: z.string().optional(),
    scope: z.string().optional(),
  })
  // Symmetric secrets make no sense in a public document; keys for private_key_jwt are not supported here.
  .refine(
    (doc) => !('client_secret' in doc) && !('jwks' in doc) && !('jwks_uri' in doc),
    'secrets and keys are not accepted',
  );

export interface ClientMetadataDocument {
  metadata: Record<string, unknown> & { client_id: string };
  maxAgeSeconds: number;
}

function maxAgeOf(cacheControl: string | undefined): number {
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? '')?.[1];
  const seconds = maxAge === undefined ? MIN_AGE_S : Number(maxAge);
  return Math.min(MAX_AGE_S, Math.max(MIN_AGE_S, seconds));
}

/** The document, or null when it cannot be used (the reason is logged, never the body). */
export async function fetchClientMetadataDocument(
  clientId: string,
  allowLoopbackPorts: readonly number[],
): Promise<ClientMetadataDocument | null> {
  const url = new URL(clientId);
  const policy = { allowLoopbackPorts };
  try {
    assertAllowedUrl(url, policy);
    const testPort = allowLoopbackPorts.includes(Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
    const { status, body, cacheControl } = await new Promise<{
      status: number;
      body: string;
      cacheControl: string | undefined;
    }>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        agent: false,
        lookup: guardedLookup(url, policy),
        timeout: TIMEOUT_MS,
        // Tests serve their document over https with a self-signed certificate on an allowed loopback port.
        ...(testPort ? { rejectUnauthorized: false } : {}),
      });
      request.on('timeout', () => request.destroy(new Error('the client metadata document did not arrive in time')));
      request.on('error', reject);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) return request.destroy(new Error('the client metadata document is too large'));
          chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            cacheControl: response.headers['cache-control'],
          }),
        );
        response.on('error', reject);
      });
      request.end();
    });
    if (status !== 200) throw new Error(`the client metadata document answered ${status}`);
    const parsed = documentSchema.safeParse(JSON.parse(body));
    if (!parsed.success)
      throw new Error(
        `the client metadata document is not valid: ${parsed.error.issues.map((i) => i.path.join('.') || i.message).join(', ')}`,
      );
    if (parsed.data.client_id !== clientId) throw new Error('the document’s client_id differs from its URL');
    return {
      metadata: {
        ...parsed.data,
        token_endpoint_auth_method: 'none',
        grant_types: parsed.data.grant_types ?? ['authorization_code', 'refresh_token'],
        response_types: parsed.data.response_types ?? ['code'],
      },
      maxAgeSeconds: maxAgeOf(cacheControl),
    };
  } catch (error) {
    const reason =
      error instanceof ForbiddenTarget
        ? `refused: ${error.message}`
        : error instanceof Error
          ? error.message
          : 'unknown failure';
    logLine({ event: 'oauth_client_metadata_refused', client_id: clientId, reason });
    return null;
  }
}
