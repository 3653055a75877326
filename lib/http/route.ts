// The one wrapper every route handler goes through: authenticate, parse, call the
// domain, and turn any failure into the error envelope.
import { resourceMetadataUrl } from '../accounts/oauth-resources';
import type { z } from 'zod';
import { getDb, type Database } from '@/db';
import type { HostLocation } from '../profiles/host-location';
import { noteWrite } from '@/db/replicas';
import { attributedTo } from '../attribution/attribution';
import { findSession } from '../accounts/sessions';
import type { TokenOwner } from '../accounts/tokens';
import { bearerToken, findTokenOwner } from './bearer';
import type { Caller } from './caller';
import { readCookie, sessionCookieName, usesSecureCookies } from './cookies';
import { config } from '../config';
import { collectNormalizations } from '../contract/forgiving';
import { DEFAULT_MAX_BODY_BYTES, SCOPES, type EndpointSpec, type Scope } from '../contract/define';
import { consumeRateLimit, rateLimitState } from '../limits/rate-limits';
import { payloadTooLarge, readBodyWithin } from './body-limit';
import { echoed } from './echo';
import { ApiError, mapDatabaseError } from '../core/errors';
import { ChallengeError, errorBody, errorHeaders, errorStatus, INTERNAL_ERROR_MESSAGE } from './error-response';
import { claim, finish, idempotentRequest, release, storedAnswer, type IdempotencyKey } from './idempotency';
import { clientIp } from './ip';
import { logError, logLine } from '../core/log';
import { parseOrThrow, refuseUnknownQuery } from '../contract/validation';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

/**
 * What route() reads of a request: an HTTP Request, the node:http request's own headers
 * (server/doors/route.ts), or an MCP tool call's stand-in for one. Headers are only read.
 */
export interface RouteRequest {
  method: string;
  url: string;
  headers: Pick<Headers, 'get'>;
}

/**
 * One call of a route, from either caller: the HTTP request (its body still unread), or an
 * MCP tool call whose arguments are already parsed (lib/mcp/call.ts), so nothing is
 * serialised into a Request and parsed again. Both go through the same checks.
 */
export interface RouteCall {
  request: RouteRequest;
  query: URLSearchParams;
  params: () => Promise<Record<string, string | string[]>>;
  /** The body's text, read within the endpoint's byte limit; or the parsed body and an upper bound of its size. */
  body: { text: (limit: number) => Promise<string> } | { parsed: unknown; bytesAtMost: number };
  /** The coarse location the assistant's host sent in the MCP call's `_meta`: only an MCP tool call sets it. */
  hostLocation?: HostLocation;
}

/** An answer still as a value: the HTTP caller serialises it once, an MCP caller hands it on. */
export interface JsonAnswer {
  status: number;
  headers: Record<string, string>;
  value: unknown;
}

/** A route handler as Next.js calls it, with the same route for callers that hold parsed input. */
export type ContractRoute = ((request: Request, next: NextContext) => Promise<Response>) & {
  call: (call: RouteCall) => Promise<Response | JsonAnswer>;
};

/**
 * The route's own call when `handler` is a contract route, for callers holding the request
 * in another form (the node:http door, an MCP tool call); undefined for a plain handler.
 * An own property: every function inherits Function.prototype.call.
 */
export function contractCall(handler: unknown): ContractRoute['call'] | undefined {
  return typeof handler === 'function' && Object.hasOwn(handler, 'call') ? (handler as ContractRoute).call : undefined;
}

const NEW_KEYS_HINT =
  'A new Idempotency-Key is for a new action; a retry reuses its key and is not counted. ' +
  'Wait for Retry-After, or send this request without the header (it is then not protected against a double send).';

export type { Caller } from './caller';

export interface HandlerContext<S extends EndpointSpec> {
  db: Database;
  auth: S['auth'] extends 'none' ? null : Caller;
  params: Out<S['params']>;
  query: Out<S['query']>;
  body: Out<S['body']>;
  /** What parsing read differently from how it was written (forgiving input), for warnings.normalized. */
  normalized: string[];
  /** A hint from an MCP call's host (lib/mcp/server.ts), never from HTTP; undefined when none. */
  hostLocation: HostLocation | undefined;
  request: RouteRequest;
  ip: string;
  baseUrl: string;
  /**
   * Authenticates the request again (no cached answer a revocation has not cleared):
   * throws the 401 or 403 envelope when its token or session no longer stands. A request
   * held for a while (a long-poll) calls it before it answers with anything.
   */
  reauthenticate: () => Promise<void>;
}

/** A response with a status or headers other than the endpoint's defaults. */
export class Reply<T> {
  constructor(
    readonly body: T | null,
    readonly init: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

type ResponseOf<S extends EndpointSpec> = z.input<S['response']>;
/** A handler answers the endpoint's JSON, or (for a non-JSON answer such as text/calendar) a whole Response. */
type Handler<S extends EndpointSpec> = (
  ctx: HandlerContext<S>,
) => Promise<ResponseOf<S> | Reply<ResponseOf<S>> | Response>;
type NextContext = { params: Promise<Record<string, string | string[]>> };

export interface RouteOptions {
  /**
   * A cheap refusal (a limit read from memory or one indexed query) run after
   * authentication and before the path, query or body is read or parsed, so a caller
   * that will be refused anyway costs no parsing of a large body.
   */
  beforeParsing?: (ctx: { db: Database; ip: string; request: RouteRequest }) => Promise<void>;
  /**
   * The RateLimit fields of a limit the handler counts itself (messages per chat), for an
   * idempotent replay, which runs no handler but answers with the fields like any other.
   */
  replayLimitHeaders?: (ctx: { db: Database; userId: string; params: unknown }) => Promise<Record<string, string>>;
}

/** A stored answer replayed with what is left of the caller's limits now (replays are not counted). */
function withLimitHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': JSON_CONTENT_TYPE, ...headers },
  });
}

export function errorResponse(error: ApiError): Response {
  return json(errorBody(error), errorStatus(error), { 'cache-control': 'no-store', ...errorHeaders(error) });
}

export function route<S extends EndpointSpec>(spec: S, handler: Handler<S>, options: RouteOptions = {}): ContractRoute {
  // Bodies with agentName/agentSessionId: their agentName must be the caller's own (attributedTo).
  const attributed = 'agentName' in ((spec.body as { shape?: object } | undefined)?.shape ?? {});
  const maxBodyBytes = spec.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const call = async ({ request, query: searchParams, params: readParams, body: source, hostLocation }: RouteCall) => {
    let claimed: IdempotencyKey | null = null;
    // The RateLimit fields of a limit this call was counted against, for any answer to it.
    let limitHeaders: Record<string, string> = {};
    try {
      const db = getDb();
      const ip = clientIp(request);
      // Cheap checks before expensive work: a client over its limit costs no parsing.
      const limit = spec.rateLimit;
      if (limit?.by === 'client') {
        limitHeaders = await consumeRateLimit(db, limit.name, config().rateLimits[limit.name], ip);
      }
      const auth = spec.auth === 'none' ? null : await authenticate(db, request, spec.auth);
      if (spec.personOnly && auth?.via !== 'session') {
        throw new ApiError('person_only', 'Only the person can do this, signed in on the web', {
          hint: spec.personOnly.hint,
        });
      }
      // The body is read once, when first needed (a retry's fingerprint, or parsing).
      let bodyText: Promise<string> | undefined;
      const readBody = () =>
        (bodyText ??=
          'text' in source ? source.text(maxBodyBytes) : Promise.resolve(JSON.stringify(source.parsed ?? {})));
      const idempotent = idempotentRequest(request, auth, ip, spec.body ? readBody : async () => '');
      // A retry gets its stored answer before it is counted against any limit.
      if (idempotent) {
        const stored = await storedAnswer(db, idempotent.key, idempotent.fingerprint);
        if (stored) {
          // AGENTS.md promises the RateLimit fields on every answer of a limited endpoint: what is left, uncounted.
          const userLimit =
            limit?.by === 'user' && auth
              ? await rateLimitState(db, limit.name, config().rateLimits[limit.name], auth.userId)
              : {};
          const own =
            options.replayLimitHeaders && auth
              ? await options.replayLimitHeaders({ db, userId: auth.userId, params: await readParams() })
              : {};
          return withLimitHeaders(stored, { ...limitHeaders, ...userLimit, ...own });
        }
      }
      if (limit?.by === 'user' && auth) {
        limitHeaders = await consumeRateLimit(db, limit.name, config().rateLimits[limit.name], auth.userId);
      }
      if (options.beforeParsing) await options.beforeParsing({ db, ip, request });
      if (spec.path.startsWith('/api/v1/')) refuseUnknownQuery(spec.query, searchParams);
      const rawParams = spec.params ? await readParams() : undefined;
      const rawBody = !spec.body
        ? undefined
        : 'text' in source
          ? parseJsonBody(await readBody(), request, spec)
          : await parsedWithin(source, maxBodyBytes);
      const {
        value: { params, query, body },
        normalized,
      } = collectNormalizations(() => ({
        params: spec.params ? parseOrThrow(spec.params, rawParams, 'path') : undefined,
        query: spec.query ? parseOrThrow(spec.query, Object.fromEntries(searchParams), 'query') : undefined,
        body: spec.body ? parseOrThrow(spec.body, rawBody, 'body') : undefined,
      }));
      const checkedBody = attributed && auth ? attributedTo(body as object, auth) : body;
      if (idempotent) {
        // Each new key is a row kept 24 hours: counted per account (per address without one).
        await consumeRateLimit(
          db,
          'idempotency_keys',
          config().rateLimits.idempotency_keys,
          auth?.userId ?? `ip:${ip}`,
          NEW_KEYS_HINT,
        );
        const replay = await claim(db, idempotent.key, await idempotent.fingerprint());
        if (replay) {
          const own =
            options.replayLimitHeaders && auth
              ? await options.replayLimitHeaders({ db, userId: auth.userId, params: await readParams() })
              : {};
          return withLimitHeaders(replay, { ...limitHeaders, ...own });
        }
        claimed = idempotent.key;
      }
      const result = await handler({
        db,
        auth: auth as HandlerContext<S>['auth'],
        params: params as Out<S['params']>,
        query: query as Out<S['query']>,
        body: checkedBody as Out<S['body']>,
        normalized,
        hostLocation,
        request,
        ip,
        baseUrl: config().publicBaseUrl,
        reauthenticate: async () => {
          if (!auth) return;
          const again = await authenticate(db, request, spec.auth);
          if (again.userId !== auth.userId || again.tokenId !== auth.tokenId) throw revokedWhileHeld();
        },
      });
      // A person's own lag-tolerant reads wait for a replica that has replayed this (db/replicas.ts).
      if (auth && spec.method !== 'GET') {
        await noteWrite(db, auth.userId).catch((e: unknown) => logError('read-your-writes mark failed', e));
      }
      const defaults = { 'cache-control': 'no-store', ...limitHeaders };
      const answer: Response | JsonAnswer =
        result instanceof Response
          ? result
          : result instanceof Reply
            ? {
                status: result.init.status ?? spec.status ?? 200,
                headers: { ...defaults, ...result.init.headers },
                value: result.body,
              }
            : { status: spec.status ?? 200, headers: defaults, value: result };
      return claimed ? await finish(db, claimed, toResponse(answer)) : answer;
    } catch (error) {
      // A refused or failed request changed nothing: its key is free for a retry.
      if (claimed) await release(getDb(), claimed).catch((e: unknown) => logError('idempotency release failed', e));
      const apiError = toApiError(error, spec);
      const headers = { 'cache-control': 'no-store', ...limitHeaders, ...errorHeaders(apiError) };
      return { status: errorStatus(apiError), headers, value: errorBody(apiError) } satisfies JsonAnswer;
    }
  };
  const http = async (request: Request, next: NextContext): Promise<Response> =>
    toResponse(
      await call({
        request,
        query: new URL(request.url).searchParams,
        params: () => next.params,
        body: { text: (limit) => readBodyText(request, limit) },
      }),
    );
  return Object.assign(http, { call });
}

export function toResponse(answer: Response | JsonAnswer): Response {
  return answer instanceof Response ? answer : json(answer.value, answer.status, answer.headers);
}

/**
 * A body parsed by the caller (an MCP tool's arguments), held to the endpoint's byte limit
 * as if it had been sent: measured only when its bound is over the limit.
 */
async function parsedWithin(source: { parsed: unknown; bytesAtMost: number }, limit: number): Promise<unknown> {
  if (source.bytesAtMost > limit && Buffer.byteLength(JSON.stringify(source.parsed ?? {})) > limit)
    throw payloadTooLarge(limit);
  return source.parsed;
}

export function toApiError(error: unknown, spec?: Pick<EndpointSpec, 'method' | 'path'>): ApiError {
  if (error instanceof ApiError) return error;
  const mapped = mapDatabaseError(error);
  if (mapped) {
    // A busy or absent database is answered 503, but an operator must still see it.
    if (mapped.code === 'service_unavailable')
      logError('database busy or unavailable', error, spec ? { route: `${spec.method} ${spec.path}` } : {});
    return mapped;
  }
  if (isClientAbort(error)) {
    // The client went away mid-request: nobody reads this answer, and nothing failed here.
    logLine({ level: 'info', message: 'client_aborted', ...(spec ? { route: `${spec.method} ${spec.path}` } : {}) });
    return new ApiError('validation_failed', 'The request ended before its body was complete.');
  }
  logError('unhandled error', error, spec ? { route: `${spec.method} ${spec.path}` } : {});
  return new ApiError('internal_error', INTERNAL_ERROR_MESSAGE);
}

/**
 * For public endpoints that show more to a signed-in caller: the caller, or null when the
 * request carries no credentials, or a valid token without `scope` (it may read what
 * anyone may). A bearer token that is present but invalid or revoked is refused (401) as
 * on any other endpoint, never read as "no credentials".
 */
export async function optionalCaller(db: Database, request: RouteRequest, scope: Scope): Promise<Caller | null> {
  if (!request.headers.get('authorization')) return sessionCaller(db, request);
  try {
    return await authenticate(db, request, scope);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'insufficient_scope') return null;
    throw error;
  }
}

function revokedWhileHeld(): ApiError {
  return new ChallengeError('unauthorized', 'Invalid or revoked bearer token', {
    'www-authenticate': `Bearer realm="api", error="invalid_token"`,
  });
}

export async function authenticate(db: Database, request: RouteRequest, scope: string): Promise<Caller> {
  const header = request.headers.get('authorization') ?? '';
  const token = bearerToken(header);
  // RFC 9728 §5.1: every challenge names the metadata that leads an OAuth client to sign in.
  const metadata = `resource_metadata="${resourceMetadataUrl(config().publicBaseUrl, '/api/v1')}"`;
  const challenge = (error: string) => ({ 'www-authenticate': `Bearer realm="api", error="${error}", ${metadata}` });
  if (!header) {
    const session = await sessionCaller(db, request);
    if (session) return session;
  }
  if (!token) {
    throw new ChallengeError('unauthorized', 'Missing bearer token', {
      'www-authenticate': `Bearer realm="api", ${metadata}`,
    });
  }
  const owner = await findTokenOwner(db, token);
  if (!owner) {
    throw new ChallengeError('unauthorized', 'Invalid or revoked bearer token', challenge('invalid_token'));
  }
  if (!owner.scopes.includes(scope as TokenOwner['scopes'][number])) {
    throw new ChallengeError('insufficient_scope', `This token lacks the ${scope} scope`, {
      'www-authenticate': `Bearer realm="api", error="insufficient_scope", scope="${scope}", ${metadata}`,
    });
  }
  return { ...owner, via: 'bearer' };
}

/**
 * The web app calls the same JSON API with its session cookie (only when no
 * Authorization header is sent, so bearer behaviour is unchanged). Writes made with a
 * cookie must come from our own pages: browsers always send Origin on such requests,
 * and a cross-site one (CSRF) carries another origin.
 */
async function sessionCaller(db: Database, request: RouteRequest): Promise<Caller | null> {
  const { publicBaseUrl } = config();
  const token = readCookie(request.headers.get('cookie'), sessionCookieName(usesSecureCookies(publicBaseUrl)));
  if (!token) return null;
  const found = await findSession(db, token);
  if (!found) return null;
  if (!['GET', 'HEAD'].includes(request.method)) {
    const origin = request.headers.get('origin');
    if (origin !== new URL(publicBaseUrl).origin) {
      throw new ApiError(
        'forbidden',
        'Cross-site request refused: a write with a session cookie must come from this site',
        {
          hint: 'Agents authenticate with Authorization: Bearer <token>; browsers must send a same-origin Origin header.',
        },
      );
    }
  }
  return {
    via: 'session',
    userId: found.user.id,
    scopes: [...SCOPES],
    sessionId: found.session.sessionId,
    tokenId: null,
  };
}

/** Reads at most the endpoint's byte limit, so an oversized body never fills memory. */
async function readBodyText(request: Request, limit: number): Promise<string> {
  return (await readBodyWithin(request, limit)).toString('utf8');
}

function parseJsonBody(text: string, request: RouteRequest, spec: EndpointSpec): unknown {
  if (text.trim() === '') {
    if (spec.bodyOptional) return {};
    throw new ApiError('validation_failed', 'A JSON body is required', {
      hint: 'Send a JSON object with Content-Type: application/json.',
      fields: { body: 'required' },
    });
  }
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError(
      'unsupported_media_type',
      `Expected Content-Type: application/json, got ${echoed(type) || 'none'}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON');
  }
}

/** What Node and undici throw when the client closes the connection before the body is read. */
function isClientAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    error.name === 'AbortError' ||
    error.message === 'aborted' ||
    code === 'ECONNRESET' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'UND_ERR_ABORTED'
  );
}

/**
 * For reads of everything at once (the data export): the web session, or a token holding
 * every scope, so a narrowed token cannot read past its scopes through the export.
 */
export function fullAccessOnly(auth: Caller): string {
  const missing = SCOPES.filter((scope) => !auth.scopes.includes(scope));
  if (missing.length > 0) {
    throw new ApiError('insufficient_scope', `This needs a full-access token; this one lacks ${missing.join(', ')}`, {
      hint: 'The person can download their data in Settings on the web.',
    });
  }
  return auth.userId;
}
