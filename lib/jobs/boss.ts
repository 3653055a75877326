// Background jobs on pg-boss: durable in PostgreSQL, so a crash loses nothing.
// One instance per process, kept on globalThis so route bundles share it.
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';

export const QUEUES = {
  /** Email a fresh magic sign-in link (and a "This wasn't me" link) to a user: { userId, occasion?: 'registration' | 'request' } */
  magicLinkMail: 'mail-magic-link',
  /** Tell the address a new account has it, with a "This wasn't me" link but no sign-in link: { userId } */
  accountCreatedMail: 'mail-account-created',
  /** Place a location the offline gazetteer missed, via GEOCODER_URL: { userId, label } */
  geocodeLocation: 'geocode-location',
  /** Re-import EVENTS_FEEDS into the built-in events directory and look after the sample: {} */
  eventsRefresh: 'events-refresh',
  /** Run image moderation on a stored photo: { photoId } */
  photoModeration: 'photo-moderation',
  /** Delete the blobs of a retired (replaced, cleared or rejected) photo: { photoId } */
  photoDeletion: 'photo-deletion',
  /** Push a notification to a user's devices: a PushJob (lib/notifications/push.ts) */
  push: 'push-notify',
  /** Every minute: store "expired" on unanswered past proposals, wake inboxes of plans that just ended, send due reminders, run check-ins: {} */
  plansSweep: 'plans-sweep',
  /** Mail one plan reminder, unless turned off: { reminderId } (lib/plans/reminder-mail.ts) */
  reminderMail: 'mail-plan-reminder',
  /** Ask "All good?" by mail during a shared plan: { planId, userId } (lib/plans/checkins.ts) */
  checkinMail: 'mail-plan-checkin',
  /** The one mail to a trusted contact after an unanswered check-in: { planId, userId } */
  contactMail: 'mail-checkin-contact',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

type QueuePolicy = Omit<PgBoss.Queue, 'name'>;
const DEFAULT_POLICY: QueuePolicy = { retryLimit: 5, retryDelay: 10, retryBackoff: true };
/**
 * Queues whose failures come from outside services retry longer: a moderation
 * provider outage of hours must not lose a verdict (30 s doubling with jitter, 12 retries over ~1.5-3 days).
 */
const QUEUE_POLICIES: Partial<Record<QueueName, QueuePolicy>> = {
  [QUEUES.photoModeration]: { retryLimit: 12, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
  [QUEUES.photoDeletion]: { retryLimit: 12, retryDelay: 30, retryBackoff: true },
  // A stately queue holds at most one waiting and one running job.
  [QUEUES.eventsRefresh]: { policy: 'stately', retryLimit: 3, retryDelay: 60, retryBackoff: false },
  [QUEUES.plansSweep]: { policy: 'stately', retryLimit: 1, retryDelay: 30, retryBackoff: false },
};

export type JobHandler = (data: Record<string, unknown>) => Promise<void>;

const holder = globalThis as unknown as { __buddyBoss?: PgBoss };

export async function startBoss(connectionString: string): Promise<PgBoss> {
  if (holder.__buddyBoss) return holder.__buddyBoss;
  const boss = new PgBoss({ connectionString, schema: 'pgboss', max: 4 });
  boss.on('error', (error) =>
    process.stderr.write(`${JSON.stringify({ level: 'error', message: 'job queue', error: String(error) })}\n`),
  );
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, { name, ...(QUEUE_POLICIES[name] ?? DEFAULT_POLICY) });
  }
  holder.__buddyBoss = boss;
  return boss;
}

export function getBoss(): PgBoss {
  if (!holder.__buddyBoss) throw new Error('The job queue is not started');
  return holder.__buddyBoss;
}

export async function stopBoss(): Promise<void> {
  const boss = holder.__buddyBoss;
  holder.__buddyBoss = undefined;
  if (boss) await boss.stop({ graceful: true, wait: true, timeout: 5000 });
}

/** Enqueues inside the caller's transaction: the job exists if and only if the transaction commits. */
// biome-ignore lint/suspicious/noExplicitAny: any schema's transaction will do; pg-boss writes its own tables
export async function enqueue(trx: Kysely<any>, queue: QueueName, data: Record<string, unknown>): Promise<void> {
  await getBoss().send(queue, data, {
    db: {
      executeSql: async (text: string, values: unknown[]) => {
        const result = await trx.executeQuery(CompiledQuery.raw(text, values));
        return { rows: result.rows as unknown[] };
      },
    },
  });
}

/**
 * Each queue is worked in batches; a job that throws is failed on its own (and
 * retried with backoff) while the rest of its batch completes, so one bad job
 * never re-runs its neighbours (no duplicate mails).
 */
export async function registerWorkers(handlers: Record<QueueName, JobHandler>): Promise<void> {
  const boss = getBoss();
  for (const [queue, handler] of Object.entries(handlers) as [QueueName, JobHandler][]) {
    await boss.work<Record<string, unknown>>(queue, { pollingIntervalSeconds: 0.5, batchSize: 20 }, async (jobs) => {
      for (const job of jobs) {
        try {
          await handler(job.data);
        } catch (error) {
          await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) });
        }
      }
    });
  }
}
