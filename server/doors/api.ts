// What the server does for /api paths before Next.js sees the request, so every answer
// there is JSON:
// - a method the path does not take gets 405 with Allow and the error envelope (Next.js
//   would answer an empty 405 itself, before the route wrapper could);
// - a body whose Content-Length is over the endpoint's limit (or /api/mcp's) gets 413
//   unread, before authentication (lib/http/body-limit.ts);
// - a trailing slash is served as the same path without it, and repeated slashes as one
//   (Next.js would answer a 308 with a plain-text body; skipTrailingSlashRedirect in
//   next.config.ts turns that off for the trailing slash).
// HEAD (on GET paths) and OPTIONS (204 with Allow) stay Next.js's own answers.
//
// It runs in the node:http server (server/start.ts), not in proxy.ts: a Next.js proxy
// on /api cost every poll about a third of its throughput (npm run bench:poll), and
// this needs only the method and the path, never the body, so a wrong method with a
// large body is refused unread too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES, type EndpointSpec } from '@/lib/contract/define';
import { MCP_MAX_BODY_BYTES } from '@/lib/mcp/body-limit';
import { closeAfterAnswer, declaresMoreThan, hasBody, payloadTooLarge } from '@/lib/http/body-limit';
import { echoed } from '@/lib/http/echo';
import { allowedMethods, endpointsAt } from '@/lib/http/endpoint-paths';
import { ApiError } from '@/lib/core/errors';
import { errorBody } from '@/lib/http/error-response';
import { targetPath } from '@/lib/http/request-target';

/** True when it answered; otherwise it may have rewritten req.url (a trailing slash dropped). */
export function answerApiFrontDoor(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? '/';
  const pathname = targetPath(target);
  // Repeated slashes fold to one (Next.js would answer them with a plain-text 308), and a trailing one goes.
  const path = pathname.replace(/\/{2,}/g, '/').replace(/(?<=.)\/+$/, '');
  if (path !== '/api' && !path.startsWith('/api/')) return false;
  const specs = endpointsAt(dotSegmentsResolved(path));
  const method = req.method ?? 'GET';
  if (specs.length) {
    const allow = allowedMethods(specs);
    if (!allow.includes(method)) {
      const { body, headers } = methodNotAllowed(method, path, specs, allow);
      // The body is refused unread: the connection ends with the answer.
      if (hasBody(req)) closeAfterAnswer(req, res);
      res.writeHead(405, headers);
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    }
  }
  const limit = bodyLimit(path, method, specs);
  if (limit !== undefined && declaresMoreThan(req.headers['content-length'], limit)) {
    const body = JSON.stringify(errorBody(payloadTooLarge(limit)));
    closeAfterAnswer(req, res);
    res.writeHead(413, { ...API_HEADERS, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
    res.end(body);
    return true;
  }
  if (path !== pathname) req.url = path + target.slice(target.indexOf(pathname) + pathname.length);
  return false;
}

/** The byte limit of the body this request may carry, or undefined where no endpoint reads one. */
function bodyLimit(path: string, method: string, specs: readonly EndpointSpec[]): number | undefined {
  if (path === '/api/mcp') return MCP_MAX_BODY_BYTES;
  const spec = specs.find((s) => s.method === method);
  return spec ? (spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : undefined;
}

/**
 * The path Next.js routes: dot segments resolved as the WHATWG URL parser does, `%2e` too
 * (`/api/v1/chats/%2e%2e/plans.json` reaches `/api/v1/plans.json`), so a wrong method is
 * answered for the endpoint the request would reach, not left to Next.js's empty 405.
 */
function dotSegmentsResolved(path: string): string {
  // Letters, digits and these marks, with no dot segment, come out of the parser as they went in.
  if (PLAIN_PATH.test(path) && !path.includes('/.')) return path;
  try {
    return new URL(path, 'http://localhost').pathname;
  } catch {
    return path;
  }
}

const PLAIN_PATH = /^[A-Za-z0-9/._~-]*$/;

// The security headers (the API's CSP among them) are the server's, set for every answer (server/start.ts).
const API_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function methodNotAllowed(method: string, path: string, specs: readonly EndpointSpec[], allow: readonly string[]) {
  const methods = specs.map((s) => s.method);
  const uses = specs.map((s) => `${s.method} ${s.path} (${s.summary})`).join('; ');
  const message = `${echoed(path)} does not take ${echoed(method, 20)}; it takes ${methods.join(' or ')}`;
  const error = new ApiError('method_not_allowed', message, {
    hint: `Use ${uses}. Every endpoint is listed at /api/v1/index.json.`,
    fields: { method: `one of ${methods.join(', ')}` },
  });
  const body = JSON.stringify(errorBody(error));
  return {
    body,
    headers: {
      ...API_HEADERS,
      allow: allow.join(', '),
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    },
  };
}
