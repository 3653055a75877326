// What proxy.ts does for /api paths before any route runs, so every answer there is JSON:
// - a method the path does not take gets 405 with Allow and the error envelope (Next.js
//   would answer an empty 405 itself, before the route wrapper could);
// - a trailing slash is served as the same path without it (Next.js would answer a 308
//   with a plain-text body; skipTrailingSlashRedirect in next.config.ts turns that off).
// HEAD (on GET paths) and OPTIONS (204 with Allow) stay Next.js's own answers. Requests
// with a body over 100 KB skip the proxy (see its matcher), so a wrong method with such a
// body still gets Next.js's empty 405.
import { NextResponse, type NextRequest } from 'next/server';
import type { EndpointSpec } from '../contract/define';
import { allowedMethods, endpointsAt } from './endpoint-paths';
import { ApiError } from './errors';

export function apiProxy(request: NextRequest): Response {
  const url = request.nextUrl;
  const path = url.pathname.replace(/(?<=.)\/+$/, '');
  const specs = endpointsAt(path);
  if (specs.length) {
    const allow = allowedMethods(specs);
    if (!allow.includes(request.method)) return methodNotAllowed(request.method, path, specs, allow);
  }
  if (path === url.pathname) return NextResponse.next();
  // A plain URL: a NextURL clone puts the trailing slash back when it is serialised.
  const target = new URL(request.url);
  target.pathname = path;
  return NextResponse.rewrite(target);
}

function methodNotAllowed(method: string, path: string, specs: readonly EndpointSpec[], allow: string[]): Response {
  const methods = specs.map((s) => s.method);
  const uses = specs.map((s) => `${s.method} ${s.path} (${s.summary})`).join('; ');
  const message = `${path} does not take ${method}; it takes ${methods.join(' or ')}`;
  const error = new ApiError('method_not_allowed', message, {
    hint: `Use ${uses}. Every endpoint is listed at /api/v1/index.json.`,
    fields: { method: `one of ${methods.join(', ')}` },
  });
  return new Response(method === 'HEAD' ? null : JSON.stringify(error.toBody()), {
    status: error.status,
    headers: {
      allow: allow.join(', '),
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    },
  });
}
