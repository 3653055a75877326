// Proxy mode: the feed is read from EVENTS_UPSTREAM_URL. Identical queries share one
// cached answer (fresh for cacheSeconds, then served stale while one background request
// revalidates it), so a burst of agents polling the same city costs one upstream call.
// The cache is bounded in bytes, not entries: a thousand 10 MB answers would be 10 GB.
import { LRUCache } from 'lru-cache';
import { EVENTS_QUERY_KEYS, upstreamFeedSchema, type EventsQuery, type UpstreamFeed } from '../contract/events';
import { etagOf } from '../core/etag';
import { ApiError } from '../core/errors';
import { logLine } from '../core/log';
import { readTextLimited } from './read-limited';

export interface UpstreamSettings {
  url: string;
  timeoutMs: number;
  cacheSeconds: number;
  /** Most bytes of upstream JSON kept in memory; an answer larger than this is served but not cached. */
  cacheMaxBytes: number;
}

export interface UpstreamAnswer {
  body: UpstreamFeed;
  etag: string;
  /** Seconds the answer stays fresh for downstream caches. */
  maxAgeSeconds: number;
}

/** After turning stale an answer may be served this long while it is being refreshed (or the upstream is down). */
export const STALE_WHILE_REVALIDATE_SECONDS = 300;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const RETRY_AFTER_SECONDS = 30;
/**
 * Counted per entry on top of its JSON: the parsed object's headers, the key and the
 * cache's bookkeeping, so a flood of distinct tiny answers is bounded too.
 */
export const CACHE_ENTRY_OVERHEAD_BYTES = 1024;

interface CachedAnswer {
  body: UpstreamFeed;
  etag: string;
  fetchedAt: number;
  /** Length of the upstream's JSON text, what the cache's size counts. */
  bytes: number;
}

/**
 * The query as forwarded: every parameter the caller sent (documented ones as
 * validated, plus limit and offset with their defaults), in a canonical order
 * so equal queries share a cache entry.
 */
export function forwardedParams(query: EventsQuery): URLSearchParams {
  const documented = new Set<string>(EVENTS_QUERY_KEYS);
  const entries = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => [key, String(value)] as [string, string]);
  const ordered = [
    ...EVENTS_QUERY_KEYS.flatMap((key) => entries.filter(([k]) => k === key)),
    ...entries.filter(([key]) => !documented.has(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  ];
  return new URLSearchParams(ordered);
}

/** The upstream URL with the caller's parameters; the operator's own parameters in it win. */
export function upstreamRequestUrl(base: string, params: URLSearchParams): URL {
  const url = new URL(base);
  const fixed = new Set(url.searchParams.keys());
  for (const [key, value] of params) if (!fixed.has(key)) url.searchParams.append(key, value);
  return url;
}

const holder = globalThis as unknown as { __buddyEventsCaches?: Map<string, LRUCache<string, CachedAnswer>> };

function cacheFor(settings: UpstreamSettings): LRUCache<string, CachedAnswer> {
  holder.__buddyEventsCaches ??= new Map();
  const id = `${settings.url} ${settings.timeoutMs} ${settings.cacheSeconds} ${settings.cacheMaxBytes}`;
  let cache = holder.__buddyEventsCaches.get(id);
  if (!cache) {
    cache = new LRUCache<string, CachedAnswer>({
      // Least recently used answers leave first; one larger than the whole cache is
      // returned to its callers and never stored (lru-cache's maxEntrySize defaults to maxSize).
      maxSize: settings.cacheMaxBytes,
      sizeCalculation: (answer, key) => answer.bytes + key.length + CACHE_ENTRY_OVERHEAD_BYTES,
      ttl: settings.cacheSeconds * 1000,
      // A stale answer is returned at once while one background fetch refreshes it...
      allowStale: true,
      noDeleteOnStaleGet: true,
      // ...and is kept if that refresh fails, so a flapping upstream does not flap the feed.
      noDeleteOnFetchRejection: true,
      fetchMethod: async (key, _stale, { signal }) => fetchAnswer(settings, key, signal),
    });
    holder.__buddyEventsCaches.set(id, cache);
  }
  return cache;
}

/** What the cache for these settings holds: entries and counted bytes (for tests and diagnostics). */
export function upstreamCacheUsage(settings: UpstreamSettings): { entries: number; bytes: number } {
  const cache = cacheFor(settings);
  return { entries: cache.size, bytes: cache.calculatedSize };
}

/** The upstream's answer to this query, from the cache when it is fresh enough. */
export async function fetchUpstreamFeed(settings: UpstreamSettings, query: EventsQuery): Promise<UpstreamAnswer> {
  const key = forwardedParams(query).toString();
  let answer: CachedAnswer | undefined;
  if (settings.cacheSeconds === 0 || settings.cacheMaxBytes === 0) {
    answer = await fetchAnswer(settings, key);
  } else {
    const cache = cacheFor(settings);
    answer = await cache.fetch(key);
    const limit = (settings.cacheSeconds + STALE_WHILE_REVALIDATE_SECONDS) * 1000;
    // Too old to serve even as stale: wait for the refresh (joining one already running).
    if (answer && Date.now() - answer.fetchedAt > limit) answer = await cache.fetch(key, { allowStale: false });
  }
  if (!answer) throw unavailable('The events upstream did not answer');
  const ageSeconds = Math.floor((Date.now() - answer.fetchedAt) / 1000);
  return { body: answer.body, etag: answer.etag, maxAgeSeconds: Math.max(0, settings.cacheSeconds - ageSeconds) };
}

async function fetchAnswer(settings: UpstreamSettings, key: string, cancelled?: AbortSignal): Promise<CachedAnswer> {
  const url = upstreamRequestUrl(settings.url, new URLSearchParams(key));
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = cancelled ? AbortSignal.any([cancelled, timeout]) : timeout;
  const started = Date.now();
  // Nothing from the caller's request is forwarded: no Authorization, no cookies, no client address.
  const headers = { accept: 'application/json', 'user-agent': 'buddy-match-events-proxy/1.0' };
  let status = 0;
  try {
    const response = await fetch(url, { headers, signal, redirect: 'follow' });
    status = response.status;
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      const retryAfter = response.headers.get('retry-after');
      throw new ApiError('upstream_error', `The events upstream answered HTTP ${response.status}`, {
        retryAfterSeconds: retryAfter && /^\d{1,6}$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : undefined,
      });
    }
    const text = await readTextLimited(response, MAX_BODY_BYTES, () =>
      malformed(`is larger than ${MAX_BODY_BYTES} bytes`),
    );
    const body = parseFeed(text);
    logLine({ event: 'events_upstream', status, duration_ms: Date.now() - started, upstream: describe(url) });
    const canonical = JSON.stringify(body);
    return { body, etag: etagOf(canonical), fetchedAt: Date.now(), bytes: Buffer.byteLength(text) };
  } catch (error) {
    const apiError = toUpstreamError(error);
    logLine({
      event: 'events_upstream_failed',
      status,
      code: apiError.code,
      reason: apiError.message,
      duration_ms: Date.now() - started,
      upstream: describe(url),
    });
    throw apiError;
  }
}

function parseFeed(text: string): UpstreamFeed {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed('is not JSON');
  }
  const parsed = upstreamFeedSchema.safeParse(json);
  if (!parsed.success) throw malformed('is not {events: [objects], total: integer, scraped_at_max: string|null}');
  // Pass the upstream's own object through (not zod's copy) so unknown fields survive.
  return json as UpstreamFeed;
}

function malformed(what: string): ApiError {
  return new ApiError('upstream_error', `The events upstream's answer ${what}`);
}

function unavailable(message: string): ApiError {
  return new ApiError('upstream_unavailable', message, {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}

/** Refused, unresolvable, reset or too slow: 503. Anything else the upstream did wrong: 502. */
function toUpstreamError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const name = (error as { name?: unknown })?.name;
  if (name === 'TimeoutError') return unavailable('The events upstream did not answer in time');
  if (name === 'AbortError') return unavailable('The events upstream request was cancelled');
  const code = networkCode(error);
  if (code) return unavailable(`The events upstream could not be reached (${code})`);
  return new ApiError('upstream_error', 'The events upstream request failed');
}

const NETWORK_CODES =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|UND_ERR_(CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT|SOCKET|CLOSED))$/;

/** undici wraps the system error: TypeError('fetch failed', { cause: { code } }), sometimes nested. */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return code;
    current = cause;
  }
  return undefined;
}

/** Origin and path only: the operator's URL may carry an API key in its query. */
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
