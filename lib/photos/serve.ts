// Serving locally stored blobs (the local driver only). Anything that is not exactly
// one of our keys is a 404, which makes path traversal impossible. Whether and how
// long a photo may be cached is decided here, at serve time, from its row:
//   - the current photo, passed by moderation: one year, immutable (keys are never reused);
//   - the current photo, not judged yet: a minute, so a rejection reaches every cache soon;
//   - rejected, replaced, cleared or unknown: 404 with no-store at once, even while its
//     file still waits for the photo-deletion job.
import type { Database } from '@/db';
import { matchesIfNoneMatch } from '../core/etag';
import {
  BLOB_CACHE_SECONDS,
  contentTypeForKey,
  isValidBlobKey,
  LocalBlobStore,
  UNJUDGED_BLOB_CACHE_SECONDS,
  type BlobStore,
} from './storage';

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

export type BlobServingState = 'passed' | 'unjudged';

/**
 * Whether the photo behind a blob key may be served, and as what: null unless it is
 * someone's current photo and moderation has not removed it. One indexed lookup
 * (photos_image_key_idx); a thumbnail key is its image key with "-t".
 */
export async function blobServingState(db: Database, key: string): Promise<BlobServingState | null> {
  const imageKey = key.replace(/-t\.webp$/, '.webp');
  const row = await db
    .selectFrom('photos')
    .select(['status', 'moderation'])
    .where('image_key', '=', imageKey)
    .executeTakeFirst();
  if (row?.status !== 'active' || row.moderation === 'removed') return null;
  return row.moderation === 'kept' ? 'passed' : 'unjudged';
}

export function blobCacheControl(state: BlobServingState): string {
  return state === 'passed'
    ? `public, max-age=${BLOB_CACHE_SECONDS}, immutable`
    : `public, max-age=${UNJUDGED_BLOB_CACHE_SECONDS}`;
}

/**
 * The response for GET /blobs/{key}. `stateOf` says what may be served (in the app,
 * `blobServingState` over the database); it runs before the file is touched.
 */
export async function localBlobResponse(
  store: BlobStore,
  key: string,
  request: Request,
  stateOf: (key: string) => Promise<BlobServingState | null>,
): Promise<Response> {
  if (!(store instanceof LocalBlobStore) || !isValidBlobKey(key)) return notFound();
  const state = await stateOf(key);
  if (!state) return notFound();
  // A key's bytes never change, so the key itself is a strong validator: an unjudged
  // photo revalidated every minute costs a 304, not the image again.
  const headers = {
    'content-type': contentTypeForKey(key),
    'cache-control': blobCacheControl(state),
    etag: `"${key.slice(key.lastIndexOf('/') + 1, -'.webp'.length)}"`,
    ...SECURITY_HEADERS,
  };
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), headers.etag))
    return new Response(null, { status: 304, headers });
  // Processed photos are small (a WEBP of at most 1600 px), so they are read whole:
  // a file deleted meanwhile is a clean 404, never a broken 200. (Next.js drops
  // Content-Length from route handler responses and sends them chunked.)
  const data = await store.get({ key, url: '' });
  if (!data) return notFound();
  return new Response(new Uint8Array(data), { status: 200, headers });
}
