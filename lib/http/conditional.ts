// ETags and conditional GETs for polled and cacheable JSON responses: an unchanged
// answer costs the client a 304 with no body.
import { etagOf, matchesIfNoneMatch } from '../core/etag';
import { Reply, type RouteRequest } from './route';

// The routes and doors take the tags from here with the replies that carry them.

export interface ConditionalOptions<T> {
  /** A tag computed by the caller (e.g. of the upstream bytes); else a weak tag of the body. */
  etag?: string;
  cacheControl?: string;
  /** Fields left out of the tag because they change on every call (a server clock, the next poll URL). */
  volatileKeys?: readonly (keyof T)[];
}

/** 200 with the body, or 304 without one when the caller already holds this version. */
export function conditionalReply<T extends Record<string, unknown>>(
  request: Pick<RouteRequest, 'headers'>,
  body: T,
  options: ConditionalOptions<T> = {},
): Reply<T> {
  const volatile = options.volatileKeys ?? [];
  const stable = Object.fromEntries(Object.entries(body).filter(([key]) => !volatile.includes(key as keyof T)));
  const etag = options.etag ?? etagOf(stable, { weak: true });
  const headers = { etag, 'cache-control': options.cacheControl ?? 'private, no-cache' };
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag))
    return new Reply<T>(null, { status: 304, headers });
  return new Reply(body, { headers });
}

/** The headers of a tagged answer, 200 or 304: the tag, and revalidate before each reuse. */
export function tagHeaders(etag: string): { etag: string; 'cache-control': string } {
  return { etag, 'cache-control': 'private, no-cache' };
}

/** A 304 for a caller who already holds `etag`; assignable to any endpoint's reply. */
export function notModified(etag: string): Reply<never> {
  return new Reply<never>(null, { status: 304, headers: tagHeaders(etag) });
}

/** A 200 tagged with a version the caller can send back in If-None-Match. */
export function taggedReply<T>(body: T, etag: string): Reply<T> {
  return new Reply(body, { headers: tagHeaders(etag) });
}
