// ETags and conditional GETs for cacheable JSON responses.
import { createHash } from 'node:crypto';
import { Reply } from './route';

/** A strong ETag of the exact JSON text that is sent. */
export function etagOf(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
}

/** RFC 9110 weak comparison: a W/ prefix on either side does not matter for GET. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** 200 with the body, or 304 without one when the caller already holds this version. */
export function conditionalReply<T>(request: Request, body: T, options: { etag?: string; cacheControl: string }): Reply<T> {
  const etag = options.etag ?? etagOf(JSON.stringify(body));
  const headers = { etag, 'cache-control': options.cacheControl };
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) return new Reply<T>(null, { status: 304, headers });
  return new Reply(body, { headers });
}
