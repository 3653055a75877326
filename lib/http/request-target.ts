// The request target, checked by our HTTP server (scripts/start.ts) before Next.js
// routes it. Next decodes path segments with decodeURIComponent, which throws on
// malformed percent-encoding (`%zz`, a truncated `%E0%A4`) and on encoded bytes that
// are not UTF-8 (`%ED%A0%80`, a UTF-16 surrogate; `%C0%AF`, an overlong slash); that
// surfaced as a plain-text 500. Such a path names nothing we serve, so it gets a 400
// here: the JSON error envelope under /api and /.well-known, a short text elsewhere.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_ADVICE, type ErrorBody } from './errors';

// Cc: C0 controls, DEL, C1 controls.
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** Paths whose answers are JSON documents, so an error there is the envelope. */
export function isJsonPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/.well-known/');
}

/** The path of a request target: origin-form `/p?q`, or absolute-form `http://host/p?q` (RFC 9112 §3.2). */
export function targetPath(target: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = absolute ? target.slice(absolute[0].length) || '/' : target;
  return rest.split(/[?#]/, 1)[0] ?? '';
}

/**
 * Why the path cannot be served, or null. Every path must decode as percent-encoded
 * UTF-8 (RFC 3986 §2.1, §2.5). Outside /api a path must also not decode to control
 * characters: no page takes them. Under /api the contract's string rule refuses them
 * with error.fields naming the parameter, which says more.
 */
export function pathProblem(path: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 'is not valid percent-encoded UTF-8 (each % must start a %XX byte of a UTF-8 character)';
  }
  if (!isJsonPath(path) && CONTROL.test(decoded)) return 'must not contain control characters';
  return null;
}

/**
 * Answers a request whose path cannot be served with 400 before any routing; returns
 * true when it did (the caller then does nothing more with the request).
 */
export function answerBadRequestTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const path = targetPath(req.url ?? '/');
  const problem = pathProblem(path);
  if (!problem) return false;
  res.statusCode = 400;
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  let body: string;
  if (isJsonPath(path)) {
    const envelope: ErrorBody = {
      error: {
        code: 'validation_failed',
        message: `The request path ${problem}`,
        hint: `Percent-encode each path segment as UTF-8 (encodeURIComponent does). ${ERROR_ADVICE.validation_failed}`,
        fields: { path: problem },
      },
    };
    body = JSON.stringify(envelope);
    res.setHeader('content-type', 'application/json; charset=utf-8');
  } else {
    body = `Bad request: the address ${problem}.\n`;
    res.setHeader('content-type', 'text/plain; charset=utf-8');
  }
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
