import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBlobResponse, type BlobServingState } from './serve';
import { startBlobApiStandIn, type BlobApiStandIn } from '@/e2e/support/photos/test-blob-api';
import { createBlobStore, isValidBlobKey, LocalBlobStore, newPhotoKeys, VercelBlobStore } from './storage';

describe('blob keys', () => {
  it('are random, 128-bit and pair an image with its thumbnail', () => {
    const a = newPhotoKeys();
    const b = newPhotoKeys();
    expect(a.image).toMatch(/^photos\/[A-Za-z0-9_-]{22}\.webp$/);
    expect(a.thumbnail).toBe(a.image.replace('.webp', '-t.webp'));
    expect(a.image).not.toBe(b.image);
    expect(isValidBlobKey(a.image) && isValidBlobKey(a.thumbnail)).toBe(true);
  });

  it.each([
    '../etc/passwd',
    'photos/../../etc/passwd',
    'photos/%2e%2e/x.webp',
    'photos/aaaaaaaaaaaaaaaaaaaaaa.webp/../../x',
    '/photos/aaaaaaaaaaaaaaaaaaaaaa.webp',
    'photos/aaaaaaaaaaaaaaaaaaaaaa.png',
    'photos/short.webp',
    'other/aaaaaaaaaaaaaaaaaaaaaa.webp',
  ])('rejects %s', (key) => {
    expect(isValidBlobKey(key)).toBe(false);
  });
});

describe('LocalBlobStore', () => {
  let root: string;
  let store: LocalBlobStore;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'blobs-'));
    store = new LocalBlobStore(path.join(root, 'blobs'), 'https://buddy.example');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const get = (headers: Record<string, string> = {}) => new Request('https://buddy.example/blobs/x', { headers });
  const always = (state: BlobServingState | null) => async () => state;

  it('stores, reads, serves and deletes a blob', async () => {
    const { image } = newPhotoKeys();
    const data = Buffer.from('RIFF....WEBPfake');
    const ref = await store.put(image, data, 'image/webp');
    expect(ref).toEqual({ key: image, url: `https://buddy.example/blobs/${image}` });
    expect(fs.readFileSync(path.join(root, 'blobs', image)).equals(data)).toBe(true);
    expect((await store.get(ref))?.equals(data)).toBe(true);
    expect(fs.readdirSync(path.join(root, 'blobs', 'photos')).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const res = await localBlobResponse(store, image, get(), always('passed'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);

    await store.delete([ref]);
    await store.delete([ref]); // idempotent
    expect(await store.get(ref)).toBeNull();
    expect((await localBlobResponse(store, image, get(), always('passed'))).status).toBe(404);
  });

  it('caches by moderation state: a year once passed, a minute until then, not at all when gone', async () => {
    const { image, thumbnail } = newPhotoKeys();
    await store.put(image, Buffer.from('RIFF....WEBPimg'), 'image/webp');
    await store.put(thumbnail, Buffer.from('RIFF....WEBPthumb'), 'image/webp');
    const asked: string[] = [];
    const serve = async (key: string, state: BlobServingState | null, headers: Record<string, string> = {}) =>
      localBlobResponse(store, key, get(headers), async (k) => {
        asked.push(k);
        return state;
      });

    const unjudged = await serve(image, 'unjudged');
    expect(unjudged.status).toBe(200);
    expect(unjudged.headers.get('cache-control')).toBe('public, max-age=60');
    expect(unjudged.headers.get('cache-control')).not.toMatch(/immutable/);
    expect((await serve(thumbnail, 'passed')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    // The file is still on disk, but the photo is rejected, retired or unknown: 404, uncached.
    const gone = await serve(image, null);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toBe('no-store');
    expect(fs.existsSync(path.join(root, 'blobs', image))).toBe(true);

    // Revalidation of an unchanged key is a 304 without the bytes; a gone photo is still 404.
    const etag = unjudged.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const revalidated = await serve(image, 'unjudged', { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
    expect((await serve(image, null, { 'if-none-match': etag })).status).toBe(404);
    expect(asked).toEqual([image, thumbnail, image, image, image]);
  });

  it('never writes or serves outside its root', async () => {
    fs.writeFileSync(path.join(root, 'secret.webp'), 'secret');
    await expect(store.put('../secret.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(/Invalid blob key/);
    expect(store.pathFor('photos/../../secret.webp')).toBeNull();
    let asked = false;
    const res = await localBlobResponse(store, '../secret.webp', get(), async () => {
      asked = true;
      return 'passed' as const;
    });
    expect(res.status).toBe(404);
    // Not one of our keys: refused before the database is even asked.
    expect(asked).toBe(false);
    expect(fs.readFileSync(path.join(root, 'secret.webp'), 'utf8')).toBe('secret');
  });

  it('is the driver when no Vercel token is configured', () => {
    expect(createBlobStore({ blobReadWriteToken: undefined, dataDir: root, publicBaseUrl: 'http://x' }).driver).toBe(
      'local',
    );
    expect(
      createBlobStore({ blobReadWriteToken: 'vercel_blob_rw_store1_secret', dataDir: root, publicBaseUrl: 'http://x' })
        .driver,
    ).toBe('vercel-blob');
  });
});

// The Vercel Blob driver against a local stand-in of the Blob API (the client
// library honours VERCEL_BLOB_API_URL), recording what the driver asks for.
describe('VercelBlobStore', () => {
  const TOKEN = 'vercel_blob_rw_teststore_s3cr3t';
  let standIn: BlobApiStandIn;
  const previous = process.env.VERCEL_BLOB_API_URL;

  beforeAll(async () => {
    standIn = await startBlobApiStandIn(TOKEN);
    process.env.VERCEL_BLOB_API_URL = standIn.apiUrl;
  });

  afterAll(async () => {
    if (previous === undefined) delete process.env.VERCEL_BLOB_API_URL;
    else process.env.VERCEL_BLOB_API_URL = previous;
    await standIn.close();
  });

  it('puts a public blob under our key with a one-minute cache (fixed before moderation runs), reads and deletes it', async () => {
    const store = new VercelBlobStore(TOKEN);
    const { image } = newPhotoKeys();
    const data = Buffer.from('RIFF....WEBPvercel');
    const ref = await store.put(image, data, 'image/webp');
    expect(ref).toEqual({ key: image, url: `${standIn.origin}/public/${image}` });

    const put = standIn.requests.find((r) => r.method === 'PUT')!;
    expect(new URL(put.url, standIn.origin).searchParams.get('pathname')).toBe(image);
    expect(put.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'x-content-type': 'image/webp',
      'x-cache-control-max-age': '60',
      'x-add-random-suffix': '0',
      'x-allow-overwrite': '0',
    });
    expect(put.body.equals(data)).toBe(true);

    expect((await store.get(ref))?.equals(data)).toBe(true);
    await store.delete([ref]);
    const deletion = standIn.requests.find((r) => r.url.endsWith('/delete'))!;
    expect(JSON.parse(deletion.body.toString())).toEqual({ urls: [ref.url] });
    expect(standIn.objects.has(image)).toBe(false);
    expect(await store.get(ref)).toBeNull();
  });

  it('surfaces a refused token as an error', async () => {
    const store = new VercelBlobStore('vercel_blob_rw_teststore_wrong');
    await expect(store.put(newPhotoKeys().image, Buffer.from('x'), 'image/webp')).rejects.toThrow();
  });
});
