// Entity tags: a short hash that names a value, and the If-None-Match comparison. The domain tags its cached
// answers with them; lib/http/conditional.ts turns a match into a 304.
import { createHash } from 'node:crypto';

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
