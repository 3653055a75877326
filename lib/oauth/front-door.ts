// What the node:http server (scripts/start.ts) answers for OAuth before Next.js:
// - protected resource metadata (RFC 9728) for the service, /api/mcp and /api/v1;
// - /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/openid-configuration;
// - oidc-provider's endpoints under /oauth (authorize, token, register, revoke, device…);
// - the consent form's POSTs (/oauth/interaction/{uid}/confirm|abort), which need the
//   node request and response that oidc-provider's interaction API works on.
// The consent page itself (GET /oauth/interaction/{uid}) is a Next.js page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SCOPES } from '../contract/define';
import { config } from '../config';
import { INTERNAL_ERROR_ENVELOPE } from '../http/errors';
import { logError } from '../http/log';
import { targetPath } from '../http/request-target';
import { API_CONTENT_SECURITY_POLICY, COMMON_SECURITY_HEADERS } from '../web/security-headers';
import { finishInteraction } from './interaction';
import { OAUTH_ROUTES, oauthProvider } from './provider';
import { DEVICE_CLIENT_ID, oauthResources } from './resources';
import { PREFILLED_CODE_HEADER } from './device-pages';

const PRM_PREFIX = '/.well-known/oauth-protected-resource';

function protectedResourceMetadata(baseUrl: string, resource: string) {
  return {
    resource,
    authorization_servers: [baseUrl],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Buddy Match',
    resource_documentation: `${baseUrl}/AGENTS.md`,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...COMMON_SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-security-policy': API_CONTENT_SECURITY_POLICY,
    'cache-control': 'public, max-age=300',
    'access-control-allow-origin': '*',
    ...extra,
  });
  res.end(text);
}

/** Reads the small form body, adds the default scope when none is named, then hands it on. */
function withDefaultDeviceScope(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > 56 * 1024) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    // Issue 28: only the pre-registered public client may start device sign-in, so a code
    // the person is shown always belongs to it, never to a client named to deceive them.
    if (form.get('client_id') !== DEVICE_CLIENT_ID || req.headers.authorization) {
      sendJson(
        res,
        400,
        {
          error: 'unauthorized_client',
          error_description: `device sign-in is only for the pre-registered public client ${DEVICE_CLIENT_ID} (send client_id=${DEVICE_CLIENT_ID}, no client authentication)`,
        },
        { 'cache-control': 'no-store' },
      );
      return;
    }
    if (!form.get('scope')) form.set('scope', SCOPES.join(' '));
    // oidc-provider reads an already consumed body from req.body.
    (req as IncomingMessage & { body?: string }).body = form.toString();
    handToProvider(req, res, baseUrl);
  });
}

/**
 * oidc-provider answers. It builds its endpoint URLs from the request's host; the
 * issuer's is the one clients must see (RFC 8414: metadata and issuer agree), whatever
 * name reached us.
 */
function handToProvider(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  req.headers.host = new URL(baseUrl).host;
  oauthProvider()
    .then((provider) => provider.callback()(req, res))
    .catch((error: unknown) => {
      logError('oauth request failed', error);
      if (!res.headersSent) sendJson(res, 500, INTERNAL_ERROR_ENVELOPE);
    });
}

/** True when it answered (or handed the request to oidc-provider). */
export function answerOauth(req: IncomingMessage, res: ServerResponse): boolean {
  const path = targetPath(req.url ?? '/');
  const baseUrl = config().publicBaseUrl;
  const method = req.method ?? 'GET';

  if (path === PRM_PREFIX || path.startsWith(`${PRM_PREFIX}/`)) {
    const resources = oauthResources(baseUrl);
    const byPath: Record<string, string> = {
      [PRM_PREFIX]: resources.service,
      [`${PRM_PREFIX}/api/mcp`]: resources.mcp,
      [`${PRM_PREFIX}/api/v1`]: resources.api,
    };
    const resource = byPath[path];
    if (!resource) sendJson(res, 404, { error: { code: 'not_found', message: 'No protected resource here' } });
    else if (method !== 'GET' && method !== 'HEAD')
      sendJson(res, 405, { error: { code: 'method_not_allowed', message: 'Use GET' } }, { allow: 'GET, HEAD' });
    else sendJson(res, 200, protectedResourceMetadata(baseUrl, resource));
    return true;
  }

  const interaction = /^\/oauth\/interaction\/([\w-]{1,100})\/(confirm|abort)$/.exec(path);
  if (interaction && method === 'POST') {
    finishInteraction(req, res, interaction[1]!, interaction[2] as 'confirm' | 'abort').catch((error: unknown) => {
      logError('oauth interaction failed', error);
      if (!res.headersSent) sendJson(res, 500, INTERNAL_ERROR_ENVELOPE);
    });
    return true;
  }
  // The consent page is a Next.js page.
  if (/^\/oauth\/interaction\/[^/]+$/.test(path) && (method === 'GET' || method === 'HEAD')) return false;

  const discovery = path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration';
  if (!discovery && path !== '/oauth' && !path.startsWith('/oauth/')) return false;
  // RFC 8414's well-known name serves the same document oidc-provider publishes for OpenID discovery.
  if (path === '/.well-known/oauth-authorization-server') req.url = '/.well-known/openid-configuration';
  // A request that names no scope asks for the seven a registration token carries (the
  // consent screen lists them); oidc-provider would otherwise grant nothing.
  if (path === OAUTH_ROUTES.authorization && method === 'GET') {
    const url = new URL(req.url ?? '/', baseUrl);
    if (!url.searchParams.get('scope')) {
      url.searchParams.set('scope', SCOPES.join(' '));
      req.url = url.pathname + url.search;
    }
  }
  // oidc-provider 8 answers a code form posted without its session (no GET first: a
  // stale tab, a bot) with a 500; the person gets the form afresh instead.
  if (
    path === OAUTH_ROUTES.code_verification &&
    method === 'POST' &&
    !/(?:^|;\s*)_session=/.test(req.headers.cookie ?? '')
  ) {
    req.resume();
    res.writeHead(303, { location: OAUTH_ROUTES.code_verification, 'cache-control': 'no-store' });
    res.end();
    return true;
  }
  // A link that carries the code (verification_uri_complete) opens an empty form: the
  // person types the code their own assistant shows, so a link someone sent them cannot
  // walk them into approving that someone's code (issue 28).
  delete req.headers[PREFILLED_CODE_HEADER];
  if (path === OAUTH_ROUTES.code_verification && (method === 'GET' || method === 'HEAD')) {
    const url = new URL(req.url ?? '/', baseUrl);
    if (url.searchParams.has('user_code')) {
      req.headers[PREFILLED_CODE_HEADER] = '1';
      url.searchParams.delete('user_code');
      req.url = url.pathname + url.search;
    }
  }
  if (path === OAUTH_ROUTES.device_authorization && method === 'POST') {
    withDefaultDeviceScope(req, res, baseUrl);
    return true;
  }
  handToProvider(req, res, baseUrl);
  return true;
}
