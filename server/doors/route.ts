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
import { closeAfterAnswer, readIncomingWithin } from '@/lib/http/body-limit';
import { compressedAnswer } from '@/lib/http/compress';
import { templatePattern } from '@/lib/http/endpoint-paths';
import { INTERNAL_ERROR_ENVELOPE } from '@/lib/http/error-response';
import { logError } from '@/lib/core/log';
import { contractCall, JSON_CONTENT_TYPE, type JsonAnswer, type RouteCall, type RouteRequest } from '@/lib/http/route';
import { ROUTE_MODULES } from '@/app/api/route-modules';

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, unknown>>;

/**
 * The route module of each contract path whose folder under app/ is the path itself
 * (`{name}` as `[name]`), generated from the contract (scripts/route-modules.ts).
 */

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
    // A contract route takes the node request as it is: no web Request or Response in between.
    const call = contractCall(handler);
    const answer = call
      ? await call(incomingCall(req, params))
      : await (handler as RouteHandler)(toRequest(req), { params: Promise.resolve(params) });
    if (res.destroyed) return;
    // A body the route left unread (or refused part way) would be read as the next request.
    if (!req.complete) refuseRest(req, res);
    if (!(answer instanceof Response)) return await sendJson(req, res, answer);
    if (isEventStream(answer)) return await streamAnswer(res, answer);
    await sendWhole(req, res, answer.status, headersOf(answer), Buffer.from(await answer.arrayBuffer()));
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

/** A route's JSON answer, serialised once, as `json()` (lib/http/route.ts) would have sent it. */
function sendJson(req: IncomingMessage, res: ServerResponse, answer: JsonAnswer): Promise<void> {
  const headers = new Map<string, string>([['content-type', JSON_CONTENT_TYPE]]);
  for (const [key, value] of Object.entries(answer.headers)) headers.set(key.toLowerCase(), value);
  const text = answer.value === null ? '' : JSON.stringify(answer.value);
  return sendWhole(req, res, answer.status, { headers, cookies: [] }, text);
}

/** An answer's headers as the door writes them: lower-case names, and the Set-Cookie lines apart. */
interface AnswerHeaders {
  headers: Map<string, string>;
  cookies: string[];
}

function headersOf(response: Response): AnswerHeaders {
  const headers = new Map<string, string>();
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers.set(key, value);
  });
  return { headers, cookies: response.headers.getSetCookie() };
}

function writeHeaders(res: ServerResponse, status: number, { headers, cookies }: AnswerHeaders): void {
  res.statusCode = status;
  for (const [key, value] of headers) res.setHeader(key, value);
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

/** A whole answer (lower-case header names), gzipped where Next.js's server would have. */
async function sendWhole(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  answerHeaders: AnswerHeaders,
  whole: Buffer | string,
): Promise<void> {
  const { headers } = answerHeaders;
  const { body, headers: encoding } = await compressedAnswer(
    { method: req.method, acceptEncoding: req.headers['accept-encoding'] },
    {
      contentType: headers.get('content-type') ?? null,
      cacheControl: headers.get('cache-control') ?? null,
      contentEncoding: headers.get('content-encoding') ?? null,
      vary: headers.get('vary') ?? null,
    },
    whole,
  );
  if (res.destroyed) return;
  writeHeaders(res, status, answerHeaders);
  for (const [key, value] of Object.entries(encoding)) res.setHeader(key, value);
  const length = Buffer.byteLength(body);
  if (length > 0 || status !== 304) res.setHeader('content-length', length);
  res.end(body);
}

/** The route's call for a node request: its headers read in place, its body read within the route's limit. */
function incomingCall(req: IncomingMessage, params: Record<string, string>): RouteCall {
  const target = req.url ?? '/';
  const queryAt = target.indexOf('?');
  return {
    request: {
      method: req.method ?? 'GET',
      // A fixed origin: routes take their links from PUBLIC_BASE_URL, never from Host.
      url: `http://localhost${target}`,
      headers: incomingHeaders(req),
    },
    query: new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1)),
    params: () => Promise.resolve(params),
    body: { text: async (limit) => (await readIncomingWithin(req, limit)).toString('utf8') },
  };
}

/** Headers.get over node's parsed headers (repeated ones joined as Headers would join them). */
function incomingHeaders(req: IncomingMessage): RouteRequest['headers'] {
  return {
    get(name: string): string | null {
      const value = req.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function isEventStream(response: Response): boolean {
  return response.body !== null && /^\s*text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
}

/** An event stream (MCP's SSE answers) is passed on as it comes, never buffered or gzipped. */
async function streamAnswer(res: ServerResponse, response: Response): Promise<void> {
  writeHeaders(res, response.status, headersOf(response));
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
