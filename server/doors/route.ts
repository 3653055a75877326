// Every /api/v1 route in the contract table is answered by its own route handler straight
// from the node:http server (server/start.ts), without Next.js's request pipeline around
// it: one way for all of them, found by the contract path (issue 34; issue 13 began with
// the polled reads). The handler is the same module Next.js serves (the same auth, parsing,
// limits and errors, from lib/http/route.ts); what is skipped is Next's routing and its
// conversion of each request and response, which cost a read more than its SQL did
// (npm run bench:endpoints). Next's server's gzip is added here (lib/http/compress.ts), and
// the server sets the security headers on every answer, so both paths answer alike. /api/mcp is
// answered here too (its event streams are passed on as they come). A path no route module
// here serves (the .ics files, a plan by id, unknown paths), HEAD and OPTIONS stay Next's.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PATHS } from '@/lib/contract/paths';
import { closeAfterAnswer } from '@/lib/http/body-limit';
import { compressedAnswer } from '@/lib/http/compress';
import { templatePattern } from '@/lib/http/endpoint-paths';
import { INTERNAL_ERROR_ENVELOPE } from '@/lib/http/errors';
import { logError } from '@/lib/http/log';

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, unknown>>;

/**
 * The route module of each contract path whose folder under app/ is the path itself
 * (`{name}` as `[name]`); server/doors/route.test.ts checks that none is missing.
 */
export const ROUTE_MODULES: Record<string, () => Promise<RouteModule>> = {
  [API_PATHS.health]: () => import('@/app/api/health/route'),
  [API_PATHS.index]: () => import('@/app/api/v1/index.json/route'),
  [API_PATHS.register]: () => import('@/app/api/v1/register.json/route'),
  [API_PATHS.activities]: () => import('@/app/api/v1/activities.json/route'),
  [API_PATHS.discover]: () => import('@/app/api/v1/discover.json/route'),
  [API_PATHS.overlap]: () => import('@/app/api/v1/users/[slug]/overlap.json/route'),
  [API_PATHS.events]: () => import('@/app/api/v1/events.json/route'),
  [API_PATHS.me]: () => import('@/app/api/v1/me.json/route'),
  [API_PATHS.photo]: () => import('@/app/api/v1/me/photo.json/route'),
  [API_PATHS.complete]: () => import('@/app/api/v1/me/complete.json/route'),
  [API_PATHS.profile]: () => import('@/app/api/v1/users/[slug]/profile.json/route'),
  [API_PATHS.parseAvailability]: () => import('@/app/api/v1/availability/parse.json/route'),
  [API_PATHS.tokens]: () => import('@/app/api/v1/me/tokens.json/route'),
  [API_PATHS.revokeToken]: () => import('@/app/api/v1/me/tokens/[tokenId]/revoke.json/route'),
  [API_PATHS.password]: () => import('@/app/api/v1/me/password.json/route'),
  [API_PATHS.signinLink]: () => import('@/app/api/v1/signin/link.json/route'),
  [API_PATHS.buddyRequest]: () => import('@/app/api/v1/users/[slug]/buddy_request.json/route'),
  [API_PATHS.buddyRequests]: () => import('@/app/api/v1/buddy_requests.json/route'),
  [API_PATHS.acceptRequest]: () => import('@/app/api/v1/buddy_requests/[invitationId]/accept.json/route'),
  [API_PATHS.declineRequest]: () => import('@/app/api/v1/buddy_requests/[invitationId]/decline.json/route'),
  [API_PATHS.cancelRequest]: () => import('@/app/api/v1/buddy_requests/[invitationId]/cancel.json/route'),
  [API_PATHS.chats]: () => import('@/app/api/v1/chats.json/route'),
  [API_PATHS.messages]: () => import('@/app/api/v1/chats/[chatId]/messages.json/route'),
  [API_PATHS.read]: () => import('@/app/api/v1/chats/[chatId]/read.json/route'),
  [API_PATHS.mute]: () => import('@/app/api/v1/chats/[chatId]/mute.json/route'),
  [API_PATHS.inbox]: () => import('@/app/api/v1/inbox.json/route'),
  [API_PATHS.block]: () => import('@/app/api/v1/users/[slug]/block.json/route'),
  [API_PATHS.blocks]: () => import('@/app/api/v1/me/blocks.json/route'),
  [API_PATHS.report]: () => import('@/app/api/v1/users/[slug]/report.json/route'),
  [API_PATHS.pushTokens]: () => import('@/app/api/v1/me/push_tokens.json/route'),
  [API_PATHS.webPush]: () => import('@/app/api/v1/me/web_push.json/route'),
  [API_PATHS.planOptions]: () => import('@/app/api/v1/users/[slug]/plan_options.json/route'),
  [API_PATHS.chatPlans]: () => import('@/app/api/v1/chats/[chatId]/plans.json/route'),
  [API_PATHS.plans]: () => import('@/app/api/v1/plans.json/route'),
  [API_PATHS.acceptPlan]: () => import('@/app/api/v1/plans/[planId]/accept.json/route'),
  [API_PATHS.declinePlan]: () => import('@/app/api/v1/plans/[planId]/decline.json/route'),
  [API_PATHS.cancelPlan]: () => import('@/app/api/v1/plans/[planId]/cancel.json/route'),
  [API_PATHS.calendarFeed]: () => import('@/app/api/v1/me/calendar_feed.json/route'),
  [API_PATHS.mailPreferences]: () => import('@/app/api/v1/me/mail_preferences.json/route'),
  [API_PATHS.unsubscribe]: () => import('@/app/api/v1/mail/unsubscribe.json/route'),
  [API_PATHS.webSignup]: () => import('@/app/api/v1/web/signup.json/route'),
  [API_PATHS.planShare]: () => import('@/app/api/v1/plans/[planId]/share.json/route'),
  [API_PATHS.planCheckin]: () => import('@/app/api/v1/plans/[planId]/checkin.json/route'),
  [API_PATHS.reviewPlan]: () => import('@/app/api/v1/plans/[planId]/review.json/route'),
  [API_PATHS.exportData]: () => import('@/app/api/v1/me/export.json/route'),
  [API_PATHS.discoverTeaser]: () => import('@/app/api/v1/web/discover_teaser.json/route'),
};

interface DirectRoute {
  pattern: RegExp;
  load: () => Promise<RouteModule>;
  module?: RouteModule;
}

/** Route modules served here that are not contract paths: the MCP server (a tool call cost Next's pipeline twice over). */
const OTHER_MODULES: Record<string, () => Promise<RouteModule>> = {
  '/api/mcp': () => import('@/app/api/mcp/route'),
};

/** Static paths first, by a map lookup; templated ones by their patterns. */
const EXACT = new Map<string, DirectRoute>();
const TEMPLATED: DirectRoute[] = [];
for (const [path, load] of Object.entries({ ...ROUTE_MODULES, ...OTHER_MODULES })) {
  const route = { pattern: templatePattern(path), load };
  if (path.includes('{')) TEMPLATED.push(route);
  else EXACT.set(path, route);
}

/** Methods a route module may export that this door answers (HEAD and OPTIONS are Next's). */
const METHODS = new Set(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);

export interface DirectMatch {
  route: DirectRoute;
  params: Record<string, string>;
}

/** The route this door answers the request with, or undefined (Next.js serves it). */
export function directRoute(req: IncomingMessage): DirectMatch | undefined {
  if (!METHODS.has(req.method ?? '')) return undefined;
  const target = req.url ?? '';
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (!path.startsWith('/api/')) return undefined;
  const exact = EXACT.get(path);
  if (exact) return { route: exact, params: {} };
  for (const route of TEMPLATED) {
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

/** Answers the request with its route's handler (a match from directRoute); `orElse` when it has none for the method. */
export async function answerFromRoute(
  req: IncomingMessage,
  res: ServerResponse,
  { route, params }: DirectMatch,
  orElse: () => void,
): Promise<void> {
  try {
    route.module ??= await route.load();
    const handler = route.module[req.method ?? ''];
    // A method the contract has but the module does not export (none today) is Next's to answer.
    if (typeof handler !== 'function') return orElse();
    const response = await (handler as RouteHandler)(toRequest(req), { params: Promise.resolve(params) });
    if (res.destroyed) return;
    // A body the route left unread (or refused part way) would be read as the next request.
    if (!req.complete) refuseRest(req, res);
    if (isEventStream(response)) return await streamAnswer(res, response);
    const { body, headers: encoding } = await compressedAnswer(
      { method: req.method, acceptEncoding: req.headers['accept-encoding'] },
      {
        contentType: response.headers.get('content-type'),
        cacheControl: response.headers.get('cache-control'),
        contentEncoding: response.headers.get('content-encoding'),
        vary: response.headers.get('vary'),
      },
      Buffer.from(await response.arrayBuffer()),
    );
    if (res.destroyed) return;
    setAnswerHeaders(res, response);
    for (const [key, value] of Object.entries(encoding)) res.setHeader(key, value);
    if (body.length > 0 || response.status !== 304) res.setHeader('content-length', body.length);
    res.end(body);
  } catch (error) {
    logError('request failed', error);
    if (!res.headersSent && !res.destroyed) {
      if (!req.complete) refuseRest(req, res);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(INTERNAL_ERROR_ENVELOPE));
    }
  }
}

/** The body's unread rest is no route's any more: thrown away, and the connection ends with the answer. */
function refuseRest(req: IncomingMessage, res: ServerResponse): void {
  stopFeeding.get(req)?.();
  closeAfterAnswer(req, res);
}

function setAnswerHeaders(res: ServerResponse, response: Response): void {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') res.setHeader(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

function isEventStream(response: Response): boolean {
  return response.body !== null && /^\s*text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
}

/** An event stream (MCP's SSE answers) is passed on as it comes, never buffered or gzipped. */
async function streamAnswer(res: ServerResponse, response: Response): Promise<void> {
  setAnswerHeaders(res, response);
  res.flushHeaders();
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), res);
  } catch {
    // The client went away mid-stream: the pipeline ended both sides.
  }
}

/**
 * The request's body as a web stream. Unlike Readable.toWeb, a reader that stops early (a
 * body over its limit) does not destroy the socket, which would lose the answer: the rest
 * of the body is left for closeAfterAnswer to read and throw away.
 */
/** How to stop feeding each request's body stream: once answered, an unread rest is thrown away. */
const stopFeeding = new WeakMap<IncomingMessage, () => void>();

function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  const stop = () => {
    settled = true;
    req.off('data', onData);
  };
  stopFeeding.set(req, stop);
  let onData: (chunk: Buffer) => void = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onData = (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        req.on('data', onData);
        req.once('end', () => {
          if (!settled) controller.close();
          stop();
        });
        // The client went away before its body was complete (the route reads it as an abort).
        const abort = () => {
          if (!settled) controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
          stop();
        };
        req.once('aborted', abort);
        req.once('error', abort);
      },
      pull() {
        req.resume();
      },
      cancel: stop,
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  // req.headers, not rawHeaders: the server's own client-address stamp lives there.
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) headers.append(key, one);
    else headers.set(key, value);
  }
  const method = req.method ?? 'GET';
  const hasBody =
    method !== 'GET' && (req.headers['content-length'] !== undefined || !!req.headers['transfer-encoding']);
  // A fixed origin: routes take their links from PUBLIC_BASE_URL, never from Host.
  return new Request(`http://localhost${req.url ?? '/'}`, {
    method,
    headers,
    ...(hasBody ? { body: bodyStream(req), duplex: 'half' } : {}),
  } as RequestInit);
}
