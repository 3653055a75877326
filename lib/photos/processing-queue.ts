// At most `concurrency` sharp jobs at once in this process, whoever asks (uploads,
// photoURL downloads, registration photos, the local moderation check). A decoded
// 40-megapixel image holds over 100 MB, so decoding without a cap lets a burst of
// uploads exhaust memory. Requests wait in a bounded line; past it they are refused
// at once with 503 and Retry-After instead of piling up their bodies in memory.
//
// The web routes (Next's bundle) and the job workers (server/start.ts) load this
// module separately, so the queue's state lives on globalThis: one cap per process.
// Each copy keeps its own class around it, so the 503 it throws is an ApiError of the
// caller's own module graph (instanceof holds in the route wrapper).
import pLimit, { type LimitFunction } from 'p-limit';
import { ApiError } from '../core/errors';
import { logLine } from '../core/log';

export interface ProcessingLimits {
  /** Jobs running at once. */
  concurrency: number;
  /** Requests allowed to wait for a slot; one more is refused with 503. */
  maxWaiting: number;
}

export interface ProcessingStats {
  active: number;
  waiting: number;
  /** The most jobs that ever ran at once (never above concurrency). */
  peakActive: number;
  completed: number;
  refused: number;
}

/** Until a few jobs have been timed: about what a 5 MB photo takes on one core. */
const INITIAL_JOB_SECONDS = 1;
const MAX_RETRY_AFTER_SECONDS = 60;

/** What every copy of this module shares for one set of limits. */
interface QueueState {
  limit: LimitFunction;
  active: number;
  peakActive: number;
  completed: number;
  refused: number;
  /** Moving average of a job's duration, for an honest Retry-After. */
  averageJobSeconds: number;
}

function newState(limits: ProcessingLimits): QueueState {
  return {
    limit: pLimit(limits.concurrency),
    active: 0,
    peakActive: 0,
    completed: 0,
    refused: 0,
    averageJobSeconds: INITIAL_JOB_SECONDS,
  };
}

export class ProcessingQueue {
  private readonly state: QueueState;

  constructor(
    readonly limits: ProcessingLimits,
    state?: QueueState,
  ) {
    this.state = state ?? newState(limits);
  }

  private get limit(): LimitFunction {
    return this.state.limit;
  }

  /**
   * Runs `job` once a slot is free. When `maxWaiting` requests are already waiting it
   * throws 503 service_unavailable with Retry-After at once (nothing is queued).
   */
  run<T>(job: () => Promise<T>): Promise<T> {
    if (this.limit.activeCount >= this.limits.concurrency && this.limit.pendingCount >= this.limits.maxWaiting) {
      this.state.refused++;
      const retryAfter = this.retryAfterSeconds();
      const { active, waiting, peakActive, completed, refused } = this.stats();
      logLine({
        event: 'photo_processing_busy',
        active,
        waiting,
        peak_active: peakActive,
        completed,
        refused,
        concurrency: this.limits.concurrency,
        max_waiting: this.limits.maxWaiting,
        retry_after: retryAfter,
      });
      return Promise.reject(
        new ApiError('service_unavailable', 'The server is busy processing other photos; nothing was stored', {
          hint: `Send the photo again in ${retryAfter} second${retryAfter === 1 ? '' : 's'} (the Retry-After header).`,
          retryAfterSeconds: retryAfter,
        }),
      );
    }
    return this.schedule(job);
  }

  /**
   * Background work (moderation jobs) waits its turn however long the line is: the job
   * runner already bounds how many it starts, and refusing would only retry it later.
   */
  runBackground<T>(job: () => Promise<T>): Promise<T> {
    return this.schedule(job);
  }

  stats(): ProcessingStats {
    const { active, peakActive, completed, refused } = this.state;
    return { active, waiting: this.limit.pendingCount, peakActive, completed, refused };
  }

  private schedule<T>(job: () => Promise<T>): Promise<T> {
    const state = this.state;
    return this.limit(async () => {
      state.active++;
      state.peakActive = Math.max(state.peakActive, state.active);
      const started = performance.now();
      try {
        return await job();
      } finally {
        state.active--;
        state.completed++;
        const seconds = (performance.now() - started) / 1000;
        state.averageJobSeconds = 0.8 * state.averageJobSeconds + 0.2 * seconds;
      }
    });
  }

  /** About when a slot frees up for a newcomer: the line ahead of it, shared by every slot. */
  private retryAfterSeconds(): number {
    const ahead = this.limit.pendingCount + this.state.active;
    const seconds = Math.ceil((ahead / this.limits.concurrency) * this.state.averageJobSeconds);
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds));
  }
}

const holder = globalThis as unknown as { __buddyPhotoProcessing?: Map<string, QueueState> };
const queues = new Map<string, ProcessingQueue>();

/**
 * The queue for these limits. Every copy of this module in the process (the routes'
 * and the job workers') runs its jobs under the same cap and counters.
 */
export function processingQueue(limits: ProcessingLimits): ProcessingQueue {
  const id = `${limits.concurrency}/${limits.maxWaiting}`;
  let queue = queues.get(id);
  if (!queue) {
    holder.__buddyPhotoProcessing ??= new Map();
    let state = holder.__buddyPhotoProcessing.get(id);
    if (!state) holder.__buddyPhotoProcessing.set(id, (state = newState(limits)));
    queues.set(id, (queue = new ProcessingQueue(limits, state)));
  }
  return queue;
}
