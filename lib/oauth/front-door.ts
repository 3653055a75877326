// What the node:http server (server/start.ts) answers for OAuth before Next.js:
// - protected resource metadata (RFC 9728) for the service, /api/mcp and /api/v1;
// - /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/openid-configuration;
// - oidc-provider's endpoints under /oauth (authorize, token, register, revoke, device…);
// - the consent form's POSTs (/oauth/interaction/{uid}/confirm|abort), which need the
//   node request and response that oidc-provider's interaction API works on.
// The consent page itself (GET /oauth/interaction/{uid}) is a Next.js page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { getDb } from '@/db';
import { SCOPES } from '../contract/define';
import { config } from '../config';
import { closeAfterAnswer } from '../http/body-limit';
import { echoed } from '../http/echo';
import { INTERNAL_ERROR_ENVELOPE } from '../http/error-response';
import { logError } from '../core/log';
import { targetPath } from '../http/request-target';
import { finishInteraction, startSigninFor } from './interaction';
import { OAUTH_ROUTES, oauthProvider } from './provider';
import { DEVICE_CLIENT_ID, oauthResources } from '../accounts/oauth-resources';
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
  // The security headers (the API's CSP among them) are the server's, on every answer (server/start.ts).
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
    'access-control-allow-origin': '*',
    ...extra,
  });
  res.end(text);
}

/** oidc-provider's own limit on the bodies it reads. */
const OAUTH_MAX_BODY_BYTES = 56 * 1024;

/** Reads a small body (up to oidc-provider's limit, else 413), then calls `then` with its text. */
function readSmallBody(req: IncomingMessage, res: ServerResponse, then: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= OAUTH_MAX_BODY_BYTES) {
      chunks.push(chunk);
      return;
    }
    refused = true;
    req.off('data', onData);
    closeAfterAnswer(req, res);
    sendJson(
      res,
      413,
      { error: 'invalid_request', error_description: `The request body exceeds ${OAUTH_MAX_BODY_BYTES} bytes` },
      { 'cache-control': 'no-store' },
    );
  };
  req.on('data', onData);
  req.on('end', () => {
    if (!refused) then(Buffer.concat(chunks).toString('utf8'));
  });
}

/** oidc-provider reads an already consumed body from req.body. */
function handOnWithBody(req: IncomingMessage, res: ServerResponse, baseUrl: string, body: string): void {
  (req as IncomingMessage & { body?: string }).body = body;
  handToProvider(req, res, baseUrl);
}

/** Reads the small form body, adds the default scope when none is named, then hands it on. */
function withDefaultDeviceScope(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  readSmallBody(req, res, (text) => {
    const form = new URLSearchParams(text);
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
    handOnWithBody(req, res, baseUrl, form.toString());
  });
}

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/**
 * A device code already exchanged for tokens. oidc-provider answers its reuse by revoking
 * every token of the grant, so an assistant that polls once more after success would lose
 * the connection it was just given. RFC 8628 asks for no revocation: the extra poll is
 * told invalid_grant here, before the provider sees it, and the tokens keep working.
 * (Two polls racing within milliseconds can still both reach the provider.)
 */
async function deviceCodeAlreadyUsed(deviceCode: string): Promise<boolean> {
  if (!deviceCode || deviceCode.length > 200 || deviceCode.includes('\0')) return false;
  const row = await getDb()
    .selectFrom('oauth_payloads')
    .select('id')
    .where('model', '=', 'DeviceCode')
    .where('id', '=', deviceCode)
    .where(sql<boolean>`payload ? 'consumed'`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The token endpoint: a poll with a used device code is answered here (see above), all else by oidc-provider. */
function tokenRequest(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  readSmallBody(req, res, (text) => {
    const form = new URLSearchParams(text);
    if (form.get('grant_type') !== DEVICE_CODE_GRANT) return handOnWithBody(req, res, baseUrl, text);
    deviceCodeAlreadyUsed(form.get('device_code') ?? '')
      .then((used) => {
        if (!used) return handOnWithBody(req, res, baseUrl, text);
        sendJson(
          res,
          400,
          {
            error: 'invalid_grant',
            error_description:
              'This device code was already exchanged for tokens by an earlier poll; those tokens stay valid. Stop polling.',
          },
          { 'cache-control': 'no-store' },
        );
      })
      .catch((error: unknown) => {
        logError('oauth device code lookup failed', error);
        if (!res.headersSent) sendJson(res, 500, INTERNAL_ERROR_ENVELOPE, { 'cache-control': 'no-store' });
      });
  });
}

/**
 * The name of the first string (a value or a key) in a parsed JSON document that is not
 * well-formed UTF-16, or null. Iterative: 56 KB of JSON nests 28,000 deep.
 */
export function loneSurrogateAt(document: unknown): string | null {
  const pending: Array<[value: unknown, where: string]> = [[document, 'body']];
  while (pending.length) {
    const [value, where] = pending.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return where;
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) pending.push([item, `${where}[${i}]`]);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return `${where} key`;
        pending.push([item, where === 'body' ? key : `${where}.${key}`]);
      }
    }
  }
  return null;
}

// With the u flag a paired surrogate is one code point: only unpaired halves match.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Client registration (RFC 7591) with a lone surrogate in a field ("client_name":"\ud800")
 * reached PostgreSQL's jsonb, which refuses it: a 500 (issue 28). It gets RFC 7591's 400.
 */
function registerWithValidText(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  readSmallBody(req, res, (text) => {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      // oidc-provider answers a body that is not JSON itself.
      return handOnWithBody(req, res, baseUrl, text);
    }
    const where = loneSurrogateAt(document);
    if (!where) return handOnWithBody(req, res, baseUrl, text);
    sendJson(
      res,
      400,
      {
        error: 'invalid_client_metadata',
        error_description: `${echoed(where)} is not valid Unicode text (it has an unpaired UTF-16 surrogate)`,
      },
      { 'cache-control': 'no-store' },
    );
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
  const leaving = /^\/oauth\/interaction\/([\w-]{1,100})\/(signin|signup)$/.exec(path);
  if (leaving && (method === 'GET' || method === 'HEAD')) {
    startSigninFor(req, res, leaving[1]!, leaving[2] as 'signin' | 'signup').catch((error: unknown) => {
      logError('oauth sign-in start failed', error);
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
  if (
    path === OAUTH_ROUTES.token &&
    method === 'POST' &&
    /x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')
  ) {
    tokenRequest(req, res, baseUrl);
    return true;
  }
  if (path === OAUTH_ROUTES.registration && method === 'POST' && /json/i.test(req.headers['content-type'] ?? '')) {
    registerWithValidText(req, res, baseUrl);
    return true;
  }
  handToProvider(req, res, baseUrl);
  return true;
}
