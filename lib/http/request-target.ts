// Requests our HTTP server (server/start.ts) answers itself, before Next.js sees them:
// paths that cannot be decoded, and requests Node's HTTP parser refuses.
//
// The request target is checked before Next.js routes it. Next decodes path segments with decodeURIComponent, which throws on
// malformed percent-encoding (`%zz`, a truncated `%E0%A4`) and on encoded bytes that
// are not UTF-8 (`%ED%A0%80`, a UTF-16 surrogate; `%C0%AF`, an overlong slash); that
// surfaced as a plain-text 500. Such a path names nothing we serve, so it gets a 400
// here: the JSON error envelope under /api and /.well-known, a short text elsewhere.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_CONTENT_SECURITY_POLICY } from './security-headers';
import { ERROR_ADVICE, type ErrorCode } from '../core/errors';
import { ERROR_STATUS, type ErrorBody } from './error-response';

// Cc: C0 controls, DEL, C1 controls.
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** Paths whose answers are JSON documents, so an error there is the envelope (and a target that is no path at all). */
export function isJsonPath(path: string): boolean {
  return !path.startsWith('/') || path === '/api' || path.startsWith('/api/') || path.startsWith('/.well-known/');
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * A request target as origin-form `/p?q`: an absolute-form one (`GET http://evil.example/p`,
 * RFC 9112 §3.2.2) keeps its path and query only. Its host named a site we are not, and
 * Next.js built redirects from it (a 308 to evil.example, issue 28): the host of every
 * link we make is PUBLIC_BASE_URL's, whatever the request line or headers say.
 */
export function originForm(target: string): string {
  const absolute = ABSOLUTE_FORM.exec(target);
  if (!absolute) return target;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** PUBLIC_BASE_URL's host and scheme, parsed once (it is read for every request). */
let parsedOrigin: { base: string; host: string; protocol: string } | undefined;
function publicOrigin(publicBaseUrl: string): { host: string; protocol: string } {
  if (parsedOrigin?.base !== publicBaseUrl) {
    const { host, protocol } = new URL(publicBaseUrl);
    parsedOrigin = { base: publicBaseUrl, host, protocol };
  }
  return parsedOrigin;
}

/** The path of a request target: origin-form `/p?q`, or absolute-form `http://host/p?q` (RFC 9112 §3.2). */
export function targetPath(target: string): string {
  return originForm(target).split(/[?#]/, 1)[0] ?? '';
}

/**
 * Every header that names the host or scheme the client reached is set to PUBLIC_BASE_URL's,
 * before anything reads it: Next.js builds request.url (and redirects) from Host and
 * X-Forwarded-Host/-Proto, oidc-provider (behind TRUST_PROXY) its endpoint URLs, such as
 * the device flow's verification_uri, which reflected a client's X-Forwarded-Host (issue 28).
 */
export function pinToPublicOrigin(headers: IncomingHttpHeaders, publicBaseUrl: string): void {
  const { host, protocol } = publicOrigin(publicBaseUrl);
  headers.host = host;
  headers['x-forwarded-host'] = host;
  headers['x-forwarded-proto'] = protocol.slice(0, -1);
  delete headers['x-forwarded-port'];
  delete headers.forwarded;
}

/**
 * Why the path cannot be served, or null. Every path must decode as percent-encoded
 * UTF-8 (RFC 3986 §2.1, §2.5). Outside /api a path must also not decode to control
 * characters: no page takes them. Under /api the contract's string rule refuses them
 * with error.fields naming the parameter, which says more.
 */
export function pathProblem(path: string): string | null {
  // The asterisk-form (`GET *`, RFC 9112 §3.2.4) and anything else that is not a path: Next.js answered 500.
  if (!path.startsWith('/')) return 'must be a path starting with /';
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
        hint: path.startsWith('/')
          ? `Percent-encode each path segment as UTF-8 (encodeURIComponent does). ${ERROR_ADVICE.validation_failed}`
          : `Send a path such as /api/v1/index.json as the request target. ${ERROR_ADVICE.validation_failed}`,
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

const REASONS: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/**
 * A person opening an assistant's /signup-with-ai link that is too long (a picture inside it,
 * issue 43 §5) reads what happened and what to do, not a JSON error. The page has no style,
 * script or link to load, so the API's own Content-Security-Policy holds.
 */
const SIGNUP_LINK_TOO_LONG =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  '<title>This sign-up link is too long</title></head><body><h1>This sign-up link is too long</h1>' +
  '<p>The link your assistant made carries more than a web address can hold, usually a photo inside it.</p>' +
  '<p>Ask your assistant for the link again without the photo. You can add your photo after you sign in.</p></body></html>';

/** The refused request was a GET of the signup link (Node keeps the bytes it read as rawPacket). */
function isSignupLink(error: Error & { rawPacket?: unknown }): boolean {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return false;
  return /^(GET|HEAD) \/signup-with-ai[?/ ]/.test(packet.subarray(0, 40).toString('latin1'));
}

function envelope(code: ErrorCode, message: string): string {
  const body: ErrorBody = { error: { code, message, hint: ERROR_ADVICE[code] } };
  return JSON.stringify(body);
}

/**
 * The server's 'clientError' listener: a request Node's parser refused (headers over
 * 16 KB, a malformed request line) gets the JSON envelope with the status Node would
 * have sent (RFC 9110 400, RFC 6585 431) instead of an empty body. A timeout gets
 * Node's own 408; anything else closes the connection, as Node does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node does: never write into a response already under way on this connection.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    return;
  }
  let code: ErrorCode;
  let message: string;
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    code = 'headers_too_large';
    message = 'The request line and headers are larger than this server accepts (16 KB)';
  } else if (typeof error.code === 'string' && error.code.startsWith('HPE_')) {
    code = 'validation_failed';
    message = 'The request is not valid HTTP/1.1';
  } else {
    socket.destroy();
    return;
  }
  const status = ERROR_STATUS[code];
  // A person's browser opening a too-long signup link gets a page to read; anyone else the envelope.
  const [contentType, body] =
    code === 'headers_too_large' && isSignupLink(error)
      ? ['text/html', SIGNUP_LINK_TOO_LONG]
      : ['application/json', envelope(code, message)];
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: ${contentType}; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n` +
      `X-Frame-Options: DENY\r\nContent-Security-Policy: ${API_CONTENT_SECURITY_POLICY}\r\nConnection: close\r\n\r\n${body}`,
  );
}
