// ETags and conditional GETs for polled and cacheable JSON responses: an unchanged
// answer costs the client a 304 with no body.
import { createHash } from 'node:crypto';
import { Reply } from './route';

/**
 * A strong tag of exact bytes (a JSON string), or a weak one (W/) of a value whose
 * serialisation may differ in fields that do not matter (see volatileKeys below).
 */
export function etagOf(value: unknown, options: { weak?: boolean } = {}): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 32);
  return options.weak ? `W/"${hash}"` : `"${hash}"`;
}

/** True when an If-None-Match header lists this tag (weak comparison, as RFC 9110 asks for GET). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

export interface ConditionalOptions<T> {
  /** A tag computed by the caller (e.g. of the upstream bytes); else a weak tag of the body. */
  etag?: string;
  cacheControl?: string;
  /** Fields left out of the tag because they change on every call (a server clock, the next poll URL). */
  volatileKeys?: readonly (keyof T)[];
}

/** 200 with the body, or 304 without one when the caller already holds this version. */
export function conditionalReply<T extends Record<string, unknown>>(
  request: Pick<Request, 'headers'>,
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
