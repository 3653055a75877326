// ETag / If-None-Match for polled GET endpoints: an unchanged answer costs the
// client a 304 with no body. The tag is a hash of the body, leaving out fields
// that change on every call (a server clock, the next poll URL).
import { createHash } from 'node:crypto';
import { Reply } from './route';

export function etagOf(body: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

/** True when an If-None-Match header lists this tag (weak comparison, as RFC 9110 asks for GET). */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

export function conditionalReply<T extends Record<string, unknown>>(request: Request, body: T, volatileKeys: readonly (keyof T)[] = []): Reply<T> {
  const stable = Object.fromEntries(Object.entries(body).filter(([key]) => !volatileKeys.includes(key as keyof T)));
  const etag = etagOf(stable);
  const headers = { etag, 'cache-control': 'private, no-cache' };
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) return new Reply<T>(null, { status: 304, headers });
  return new Reply(body, { headers });
}
