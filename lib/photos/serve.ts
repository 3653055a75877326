// Serving locally stored blobs (the local driver only). Keys are random and never
// reused, so responses are cacheable forever; anything that is not exactly one of
// our keys is a 404, which makes path traversal impossible.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { BLOB_CACHE_SECONDS, contentTypeForKey, type BlobStore, LocalBlobStore } from './storage';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  'cross-origin-resource-policy': 'cross-origin',
};

function notFound(): Response {
  return new Response('Not found', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS },
  });
}

export async function localBlobResponse(store: BlobStore, key: string, method: 'GET' | 'HEAD'): Promise<Response> {
  if (!(store instanceof LocalBlobStore)) return notFound();
  const file = store.pathFor(key);
  if (!file) return notFound();
  // Opened before answering (and measured through the handle), so a file deleted
  // meanwhile is a clean 404, never a broken 200.
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return notFound();
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    return notFound();
  }
  const headers = {
    'content-type': contentTypeForKey(key),
    'content-length': String(stat.size),
    'cache-control': `public, max-age=${BLOB_CACHE_SECONDS}, immutable`,
    ...SECURITY_HEADERS,
  };
  if (method === 'HEAD') {
    await handle.close();
    return new Response(null, { status: 200, headers });
  }
  const stream = handle.createReadStream(); // closes the handle when done
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: 200, headers });
}
