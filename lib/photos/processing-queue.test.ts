// The cap on concurrent sharp jobs: a queue with a bounded line, never a crash.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../core/errors';
import { LocalImageProvider } from '../moderation/images';
import { processPhoto } from './image';
import { ProcessingQueue, processingQueue } from './processing-queue';
import { makeImage } from '@/e2e/support/photos/test-images';
import { errorBody, errorHeaders, errorStatus } from '../http/error-response';

/** A job that runs until released, recording how many ran at once. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, job: () => released.then(() => 'done') };
}

async function settle<T>(promises: Promise<T>[]) {
  const results = await Promise.allSettled(promises);
  return {
    done: results.filter((r) => r.status === 'fulfilled').length,
    refused: results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as unknown),
  };
}

describe('ProcessingQueue', () => {
  it('runs at most `concurrency` jobs at once and lets the rest wait their turn', async () => {
    const queue = new ProcessingQueue({ concurrency: 2, maxWaiting: 10 });
    const { release, job } = gate();
    const pending = Array.from({ length: 8 }, () => queue.run(job));
    await new Promise((r) => setImmediate(r));
    expect(queue.stats()).toMatchObject({ active: 2, waiting: 6, peakActive: 2 });
    release();
    expect(await settle(pending)).toEqual({ done: 8, refused: [] });
    expect(queue.stats()).toMatchObject({ active: 0, waiting: 0, peakActive: 2, completed: 8, refused: 0 });
  });

  it('refuses at once with 503 and Retry-After when the line is full, queueing nothing', async () => {
    const queue = new ProcessingQueue({ concurrency: 1, maxWaiting: 2 });
    const { release, job } = gate();
    const pending = Array.from({ length: 10 }, () => queue.run(job));
    const outcome = settle(pending);
    await new Promise((r) => setImmediate(r));
    // One runs, two wait, seven were turned away without joining the line.
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 2, refused: 7 });
    release();
    const { done, refused } = await outcome;
    expect(done).toBe(3);
    expect(refused).toHaveLength(7);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError.code).toBe('service_unavailable');
      expect(errorStatus(apiError)).toBe(503);
      expect(Number(errorHeaders(apiError)['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(errorHeaders(apiError)['retry-after'])).toBeLessThanOrEqual(60);
      expect(errorBody(apiError).error.hint).toMatch(/again in \d+ seconds?/);
    }
    // Once the line has room again, work is accepted.
    expect(await queue.run(async () => 'later')).toBe('later');
  });

  it('a failing job frees its slot and reaches its caller unchanged', async () => {
    const queue = new ProcessingQueue({ concurrency: 1, maxWaiting: 1 });
    await expect(queue.run(async () => Promise.reject(new Error('corrupt')))).rejects.toThrow('corrupt');
    expect(await queue.run(async () => 'next')).toBe('next');
    expect(queue.stats().active).toBe(0);
  });

  it('lets background work wait however long the line is, still within the cap', async () => {
    const queue = new ProcessingQueue({ concurrency: 1, maxWaiting: 0 });
    const { release, job } = gate();
    const background = Array.from({ length: 5 }, () => queue.runBackground(job));
    await new Promise((r) => setImmediate(r));
    expect(queue.stats()).toMatchObject({ active: 1, waiting: 4 });
    // A request meanwhile finds the line full.
    await expect(queue.run(job)).rejects.toMatchObject({ code: 'service_unavailable' });
    release();
    expect(await settle(background)).toEqual({ done: 5, refused: [] });
    expect(queue.stats().peakActive).toBe(1);
  });

  it('is one cap per process for the same limits, even across copies of the module (routes and job workers)', async () => {
    const a = processingQueue({ concurrency: 1, maxWaiting: 7 });
    expect(processingQueue({ concurrency: 1, maxWaiting: 7 })).toBe(a);
    // Another copy of this module (as Next's bundle and the workers each load one)
    // shares the state on globalThis, so its jobs wait for ours.
    vi.resetModules();
    const copy = (await import('./processing-queue')).processingQueue({ concurrency: 1, maxWaiting: 7 });
    expect(copy).not.toBe(a);
    const { release, job } = gate();
    const running = a.run(job);
    const waiting = copy.run(job);
    await new Promise((r) => setImmediate(r));
    expect(copy.stats()).toMatchObject({ active: 1, waiting: 1 });
    release();
    await Promise.all([running, waiting]);
    expect(a.stats().peakActive).toBe(1);
  });
});

// Real image work on a 2-core machine shared with the API tests: more than the default 5 s.
describe('real sharp work through the queue', { timeout: 30_000 }, () => {
  it('processes many parallel photos and moderation checks without ever exceeding the cap', async () => {
    const queue = new ProcessingQueue({ concurrency: 2, maxWaiting: 64 });
    const images = await Promise.all(
      Array.from({ length: 6 }, (_, i) => makeImage('jpeg', { width: 1800, height: 1200, colour: `#${i}${i}3366` })),
    );
    const provider = new LocalImageProvider(queue);
    const work = [
      ...images.map((bytes) => processPhoto(bytes, 'image/jpeg', 'photo', queue)),
      ...images.map((bytes) => provider.check(bytes)),
    ];
    const results = await Promise.all(work);
    expect(results).toHaveLength(12);
    expect(queue.stats()).toMatchObject({ active: 0, waiting: 0, completed: 12, refused: 0, peakActive: 2 });
  });

  it('turns an overflow of uploads into clean 503s while the rest succeed', async () => {
    const queue = new ProcessingQueue({ concurrency: 1, maxWaiting: 2 });
    const image = await makeImage('png', { width: 1200, height: 900 });
    const { done, refused } = await settle(Array.from({ length: 8 }, () => processPhoto(image, null, 'photo', queue)));
    expect(done).toBe(3);
    expect(refused.map((e) => (e as ApiError).code)).toEqual(Array(5).fill('service_unavailable'));
    expect(queue.stats().peakActive).toBe(1);
  });

  it('refuses bad bytes before queueing: they never take a slot', async () => {
    const queue = new ProcessingQueue({ concurrency: 1, maxWaiting: 0 });
    const { release, job } = gate();
    const busy = queue.run(job);
    // The queue is full, yet a non-image is still told what is wrong with it.
    await expect(processPhoto(Buffer.from('not an image at all'), null, 'photo', queue)).rejects.toMatchObject({
      code: 'photo_unsupported_format',
    });
    release();
    await busy;
  });
});
