// The agents' hottest reads are answered by their own route handlers straight from the
// node:http server (scripts/start.ts), without Next.js's request pipeline around them
// (issue 13). The handler is the same module Next.js serves (the same auth, parsing,
// limits and errors, from lib/http/route.ts); what is skipped is Next's routing and its
// conversion of each request and response, which cost a full inbox poll more than its
// four SQL statements did (npm run bench:poll). The headers next.config.ts gives every
// /api response are added here, so both paths answer byte for byte alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointSpec } from '../contract/define';
import * as social from '../contract/social';
import { API_CONTENT_SECURITY_POLICY, COMMON_SECURITY_HEADERS } from '../web/security-headers';
import { templatePattern } from './endpoint-paths';
import { INTERNAL_ERROR_ENVELOPE } from './errors';
import { logError } from './log';

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface DirectRoute {
  pattern: RegExp;
  load: () => Promise<RouteHandler>;
  handler?: RouteHandler;
}

/** A route's GET, from its contract path (`{name}` segments become parameters). */
function direct(spec: EndpointSpec, load: () => Promise<{ GET: unknown }>): DirectRoute {
  return { pattern: templatePattern(spec.path), load: async () => (await load()).GET as RouteHandler };
}

/** The polled reads: the inbox, the chat list and a chat's messages. */
const DIRECT_GETS: readonly DirectRoute[] = [
  direct(social.getInbox, () => import('@/app/api/v1/inbox.json/route')),
  direct(social.listChats, () => import('@/app/api/v1/chats.json/route')),
  direct(social.listMessages, () => import('@/app/api/v1/chats/[chatId]/messages.json/route')),
];

export interface DirectMatch {
  route: DirectRoute;
  params: Record<string, string>;
}

/** The route this door answers the request with, or undefined (Next.js serves it). */
export function directRoute(req: IncomingMessage): DirectMatch | undefined {
  if (req.method !== 'GET') return undefined;
  const target = req.url ?? '';
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  for (const route of DIRECT_GETS) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    try {
      // Decoded as Next.js decodes a dynamic segment.
      const params = Object.fromEntries(
        Object.entries(match.groups ?? {}).map(([key, value]) => [key, decodeURIComponent(value)]),
      );
      return { route, params };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Answers the request with its route's handler (a match from directRoute). */
export async function answerFromRoute(
  req: IncomingMessage,
  res: ServerResponse,
  { route, params }: DirectMatch,
): Promise<void> {
  try {
    route.handler ??= await route.load();
    const response = await route.handler(toRequest(req), { params: Promise.resolve(params) });
    const body = Buffer.from(await response.arrayBuffer());
    if (res.destroyed) return;
    res.statusCode = response.status;
    for (const [key, value] of Object.entries(COMMON_SECURITY_HEADERS)) res.setHeader(key, value);
    res.setHeader('content-security-policy', API_CONTENT_SECURITY_POLICY);
    response.headers.forEach((value, key) => {
      if (key !== 'set-cookie') res.setHeader(key, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    if (body.length > 0 || response.status !== 304) res.setHeader('content-length', body.length);
    res.end(body);
  } catch (error) {
    logError('request failed', error);
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(500, {
        ...COMMON_SECURITY_HEADERS,
        'content-security-policy': API_CONTENT_SECURITY_POLICY,
        'content-type': 'application/json',
      });
      res.end(JSON.stringify(INTERNAL_ERROR_ENVELOPE));
    }
  }
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  // req.headers, not rawHeaders: the server's own client-address stamp lives there.
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(key, one);
    else headers.set(key, value);
  }
  // A fixed origin: routes take their links from PUBLIC_BASE_URL, never from Host.
  return new Request(`http://localhost${req.url ?? '/'}`, { method: 'GET', headers });
}
