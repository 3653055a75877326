// Next.js's own compression is gzip. The app's scripts and styles under /_next/static never
// change once built (their names are their content's hash), so the build compresses each one
// with brotli at its best once (scripts/build-stamp.ts writes `<file>.br` beside it), and a
// browser that accepts br gets that: about 15% fewer bytes than gzip for the same JavaScript,
// which is what keeps a signed-in page under its budget (e2e/browser/js-budget.spec.ts).
// Anything else (no .br, no br in Accept-Encoding, a Range request) goes on to Next.js.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';

const STATIC_PREFIX = '/_next/static/';
/** Where a build keeps those files, from the checkout's root. */
export const STATIC_DIR = '.next/static';
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
};

/** True when the request asks for br (and does not refuse it with q=0). */
export function acceptsBrotli(acceptEncoding: string | string[] | undefined): boolean {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding?.trim() !== 'br') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Serves a precompressed static file; false when Next.js should answer instead. */
export function answerBrotliStatic(req: http.IncomingMessage, res: http.ServerResponse, staticDir: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '';
  if (!url.startsWith(STATIC_PREFIX) || url.includes('?') || req.headers.range) return false;
  const type = TYPES[path.extname(url)];
  if (!type || !acceptsBrotli(req.headers['accept-encoding'])) return false;
  let relative: string;
  try {
    relative = decodeURIComponent(url.slice(STATIC_PREFIX.length));
  } catch {
    return false;
  }
  // Hashed names only: no dot segments, no way out of the folder.
  if (relative.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return false;
  const file = path.join(staticDir, relative);
  if (!file.startsWith(staticDir + path.sep)) return false;
  let body: Buffer;
  try {
    body = fs.readFileSync(`${file}.br`);
  } catch {
    return false;
  }
  res.statusCode = 200;
  res.setHeader('content-type', type);
  res.setHeader('content-encoding', 'br');
  res.setHeader('vary', 'Accept-Encoding');
  res.setHeader('cache-control', 'public, max-age=31536000, immutable');
  res.setHeader('content-length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/** Writes `<file>.br` beside every script and stylesheet of a build (brotli quality 11). */
export async function precompressStatic(staticDir: string): Promise<number> {
  const { brotliCompress, constants } = await import('node:zlib');
  const { promisify } = await import('node:util');
  const compress = promisify(brotliCompress);
  let count = 0;
  for (const entry of fs.readdirSync(staticDir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !TYPES[path.extname(file)]) continue;
    const source = fs.readFileSync(file);
    const compressed = await compress(source, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
    });
    fs.writeFileSync(`${file}.br`, compressed);
    count += 1;
  }
  return count;
}
