// The security headers every answer carries, whoever writes it: Next.js, our own doors in
// server/doors/, and oidc-provider's pages (/oauth/device and its error pages had none,
// issue 28). The one place they are set: server/start.ts calls this first for each request,
// and nothing else adds them. They are filled in as the headers go out and only where the
// answer set none itself, because a page's own values (proxy.ts's nonce CSP, a secret
// page's Referrer-Policy) must win, and Next.js drops a route's header when one of that
// name is already set.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { API_CONTENT_SECURITY_POLICY, COMMON_SECURITY_HEADERS, HSTS_HEADER } from './security-headers';

type WriteHead = ServerResponse['writeHead'];

/** The names an explicit writeHead(status, [message], headers) call sets, lower-cased. */
function namesIn(args: unknown[]): Set<string> {
  const names = new Set<string>();
  for (const arg of args) {
    if (Array.isArray(arg)) {
      // Raw form: [name, value, name, value, ...] or [[name, value], ...].
      arg.forEach((item, i) => {
        if (Array.isArray(item)) names.add(String(item[0]).toLowerCase());
        else if (i % 2 === 0) names.add(String(item).toLowerCase());
      });
    } else if (arg && typeof arg === 'object') {
      for (const name of Object.keys(arg as OutgoingHttpHeaders)) names.add(name.toLowerCase());
    }
  }
  return names;
}

/**
 * Makes `res` send COMMON_SECURITY_HEADERS, HSTS on https, and a CSP that allows nothing
 * (pages bring their own), unless the answer sets them itself. Call once, first thing.
 */
export function sendSecurityHeaders(res: ServerResponse, options: { https: boolean }): void {
  const defaults = options.https ? HTTPS_DEFAULTS : HTTP_DEFAULTS;
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const given = args.length > 1 ? namesIn(args.slice(1)) : undefined;
    for (const [name, lowerCase, value] of defaults) {
      if (!this.hasHeader(lowerCase) && !given?.has(lowerCase)) this.setHeader(name, value);
    }
    return writeHead.apply(this, args);
  } as WriteHead;
}

/** [name, its lower case, value] of the defaults, made once rather than for every answer (issue 48). */
const defaultsOf = (https: boolean): readonly (readonly [string, string, string])[] =>
  Object.entries({
    ...COMMON_SECURITY_HEADERS,
    'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
    ...(https ? { 'Strict-Transport-Security': HSTS_HEADER } : {}),
  }).map(([name, value]) => [name, name.toLowerCase(), value] as const);
const HTTP_DEFAULTS = defaultsOf(false);
const HTTPS_DEFAULTS = defaultsOf(true);
