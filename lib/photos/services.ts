// What the photo domain needs from the outside world, built once from the config.
import type { FetchPolicy } from './fetch-url';
import { PHOTO_LIMITS } from './image';
import { processingQueue, type ProcessingQueue } from './processing-queue';
import { createBlobStore, type BlobStore } from './storage';

export interface PhotoServices {
  store: BlobStore;
  fetchPolicy: FetchPolicy;
  /** The process-wide cap on concurrent sharp jobs. */
  processing: ProcessingQueue;
}

export const PHOTO_FETCH_TIMEOUT_MS = 10_000;
export const PHOTO_FETCH_MAX_REDIRECTS = 3;

/** The settings photos are built from (lib/config.ts reads them from the environment). */
export type PhotoSettings = Parameters<typeof createBlobStore>[0] & {
  photoFetchAllowLoopbackPorts: readonly number[];
  photoProcessing: Parameters<typeof processingQueue>[0];
};

const cache = new WeakMap<PhotoSettings, PhotoServices>();

export function photoServicesFrom(cfg: PhotoSettings): PhotoServices {
  let services = cache.get(cfg);
  if (!services) {
    services = {
      store: createBlobStore(cfg),
      fetchPolicy: {
        allowLoopbackPorts: cfg.photoFetchAllowLoopbackPorts,
        timeoutMs: PHOTO_FETCH_TIMEOUT_MS,
        maxBytes: PHOTO_LIMITS.maxBytes,
        maxRedirects: PHOTO_FETCH_MAX_REDIRECTS,
      },
      processing: processingQueue(cfg.photoProcessing),
    };
    cache.set(cfg, services);
  }
  return services;
}
