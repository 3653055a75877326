// Serving locally stored blobs (the local driver only). Keys are random and never
// reused, so responses are cacheable forever; anything that is not exactly one of
// our keys is a 404, which makes path traversal impossible.
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

export async function localBlobResponse(store: BlobStore, key: string): Promise<Response> {
  if (!(store instanceof LocalBlobStore)) return notFound();
  // Processed photos are small (a WEBP of at most 1600 px), so they are read whole:
  // a file deleted meanwhile is a clean 404, never a broken 200. (Next.js drops
  // Content-Length from route handler responses and sends them chunked.)
  const data = await store.get({ key, url: '' });
  if (!data) return notFound();
  return new Response(new Uint8Array(data), {
    status: 200,
    headers: {
      'content-type': contentTypeForKey(key),
      'cache-control': `public, max-age=${BLOB_CACHE_SECONDS}, immutable`,
      ...SECURITY_HEADERS,
    },
  });
}
