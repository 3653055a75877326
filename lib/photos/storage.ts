// One storage interface, two drivers: files under DATA_DIR/blobs served by the app
// (local), or Vercel Blob when BLOB_READ_WRITE_TOKEN is set. Keys are random
// (128 bits) and never reused, so a URL can be cached forever and cannot be guessed.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { del, put } from '@vercel/blob';

export type StorageDriver = 'local' | 'vercel-blob';

export interface BlobRef {
  key: string;
  url: string;
}

export interface BlobStore {
  readonly driver: StorageDriver;
  put(key: string, data: Buffer, contentType: string): Promise<BlobRef>;
  /** The stored bytes, or null when the blob does not exist. */
  get(ref: BlobRef): Promise<Buffer | null>;
  /** Deletes the blobs; deleting a missing blob is not an error. */
  delete(refs: readonly BlobRef[]): Promise<void>;
}

/** One year, for a photo moderation has passed: a key is never reused, so its bytes never change. */
export const BLOB_CACHE_SECONDS = 31_536_000;
/**
 * A photo not yet judged (or judged and rejected) must be able to disappear from
 * caches: at most a minute. Vercel Blob fixes the header at upload and accepts no
 * less than 60 s, so its photos keep this one for good (see VercelBlobStore.put).
 */
export const UNJUDGED_BLOB_CACHE_SECONDS = 60;

// photos/<22 base64url chars>.webp and its thumbnail photos/<same>-t.webp
const KEY_PATTERN = /^photos\/[A-Za-z0-9_-]{22}(?:-t)?\.webp$/;

export function isValidBlobKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function newPhotoKeys(): { image: string; thumbnail: string } {
  const id = randomBytes(16).toString('base64url');
  return { image: `photos/${id}.webp`, thumbnail: `photos/${id}-t.webp` };
}

export function contentTypeForKey(key: string): string {
  return key.endsWith('.webp') ? 'image/webp' : 'application/octet-stream';
}

export class LocalBlobStore implements BlobStore {
  readonly driver = 'local' as const;

  /** `root` is DATA_DIR/blobs; URLs are `${publicBaseUrl}/blobs/<key>`. */
  constructor(
    readonly root: string,
    private readonly publicBaseUrl: string,
  ) {}

  /** The file for a key, or null for anything that is not one of our keys (no traversal). */
  pathFor(key: string): string | null {
    if (!isValidBlobKey(key)) return null;
    const file = path.resolve(this.root, key);
    return file.startsWith(path.resolve(this.root) + path.sep) ? file : null;
  }

  async put(key: string, data: Buffer, _contentType: string): Promise<BlobRef> {
    const file = this.pathFor(key);
    if (!file) throw new Error(`Invalid blob key ${key}`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written under a temporary name and renamed, so a half-written file is never served.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temp, data, { flag: 'wx' });
    await fs.rename(temp, file);
    return { key, url: `${this.publicBaseUrl}/blobs/${key}` };
  }

  async get(ref: BlobRef): Promise<Buffer | null> {
    const file = this.pathFor(ref.key);
    if (!file) return null;
    try {
      return await fs.readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(refs: readonly BlobRef[]): Promise<void> {
    for (const ref of refs) {
      const file = this.pathFor(ref.key);
      if (file) await fs.rm(file, { force: true });
    }
  }
}

export class VercelBlobStore implements BlobStore {
  readonly driver = 'vercel-blob' as const;

  constructor(private readonly token: string) {}

  async put(key: string, data: Buffer, contentType: string): Promise<BlobRef> {
    const result = await put(key, data, {
      access: 'public',
      token: this.token,
      contentType,
      addRandomSuffix: false,
      allowOverwrite: false,
      // Fixed at upload, before moderation has run: a rejected photo must leave caches
      // within a minute of its deletion, so every photo gets Vercel's minimum max-age.
      // Browsers then revalidate kept photos each minute (a cheap 304 from Vercel's CDN).
      cacheControlMaxAge: UNJUDGED_BLOB_CACHE_SECONDS,
    });
    return { key, url: result.url };
  }

  async get(ref: BlobRef): Promise<Buffer | null> {
    const res = await fetch(ref.url, { signal: AbortSignal.timeout(20_000) });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`Blob storage answered HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  async delete(refs: readonly BlobRef[]): Promise<void> {
    if (refs.length === 0) return;
    await del(
      refs.map((ref) => ref.url),
      { token: this.token },
    );
  }
}

export function createBlobStore(settings: {
  blobReadWriteToken: string | undefined;
  dataDir: string;
  publicBaseUrl: string;
}): BlobStore {
  return settings.blobReadWriteToken
    ? new VercelBlobStore(settings.blobReadWriteToken)
    : new LocalBlobStore(path.join(settings.dataDir, 'blobs'), settings.publicBaseUrl);
}
