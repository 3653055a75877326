// The gzip Next.js's server gives its answers (the `compression` middleware in its
// router), for answers our own doors write from a whole body (server/doors/route.ts):
// the same rules, so a route answers alike whichever door serves it. Types worth
// compressing say Vary: Accept-Encoding; bodies of 1 KB or more are gzipped when the
// client accepts gzip, unless Cache-Control says no-transform.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
/** The middleware's default threshold. */
export const COMPRESS_THRESHOLD_BYTES = 1024;
const COMPRESSIBLE = /^\s*(text\/|application\/(json|javascript|xml)\b|[^;]*\+(json|xml|text)\b)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** True when the Accept-Encoding header accepts gzip (by name or `*`, with a quality above 0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  let gzipQuality: number | undefined;
  let anyQuality: number | undefined;
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    if (name === 'gzip' || name === 'x-gzip') gzipQuality = quality;
    else if (name === '*') anyQuality = quality;
  }
  const quality = gzipQuality ?? anyQuality ?? 0;
  return Number.isFinite(quality) && quality > 0;
}

/** Adds `value` to a Vary header unless it is there already (or Vary is `*`). */
export function withVary(vary: string | undefined, value: string): string {
  if (!vary) return value;
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  return names.includes('*') || names.includes(value.toLowerCase()) ? vary : `${vary}, ${value}`;
}

/**
 * What to send for `body`: the headers to add (Vary, Content-Encoding) and the body,
 * gzipped where Next.js's server would have gzipped it (else as given: a string goes out
 * with the head in one write).
 */
export async function compressedAnswer<Body extends Buffer | string>(
  request: { method?: string; acceptEncoding?: string },
  response: {
    contentType: string | null;
    cacheControl: string | null;
    contentEncoding: string | null;
    vary: string | null;
  },
  body: Body,
): Promise<{ body: Body | Buffer; headers: Record<string, string> }> {
  if (!response.contentType || !COMPRESSIBLE.test(response.contentType)) return { body, headers: {} };
  if (response.cacheControl && NO_TRANSFORM.test(response.cacheControl)) return { body, headers: {} };
  const headers: Record<string, string> = { vary: withVary(response.vary ?? undefined, 'Accept-Encoding') };
  if (Buffer.byteLength(body) < COMPRESS_THRESHOLD_BYTES || request.method === 'HEAD') return { body, headers };
  if (response.contentEncoding && response.contentEncoding !== 'identity') return { body, headers };
  if (!acceptsGzip(request.acceptEncoding)) return { body, headers };
  return { body: await gzipAsync(body), headers: { ...headers, 'content-encoding': 'gzip' } };
}
