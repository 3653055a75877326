// Background jobs on pg-boss: durable in PostgreSQL, so a crash loses nothing.
// One instance per process, kept on globalThis so route bundles share it.
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { expectedAtShutdown } from '../core/stopping';

export const QUEUES = {
  /** Email a fresh magic sign-in link (and a "This wasn't me" link) to a user: { userId, occasion?: 'registration' | 'web_signup' | 'request' } */
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
  /** Mail a person no push reaches what waits for them, at most hourly: { userId } (lib/notifications/digest.ts) */
  digestMail: 'mail-digest',
  /** A seat offered for a while has run out: pass it to the next on the waitlist: { meetupId, userId } (lib/meetups/seats.ts) */
  meetupOfferExpiry: 'meetup-offer-expiry',
  /** Mail a person that a meetup seat is theirs, offered to them, or starts soon: a MeetupMailJob (lib/meetups/mail.ts) */
  meetupMail: 'mail-meetup',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * A queue's pg-boss options plus how many jobs a worker takes at once. pg-boss retries a job left
 * `active` (its worker killed) only once `expireInSeconds` has passed and its maintenance has run,
 * so each queue's expiry fits its work: seconds for mail and push, more for photos and imports.
 * A batch that outlives the expiry is failed whole, so batch × a job's worst time stays under it.
 */
type QueuePolicy = Omit<PgBoss.Queue, 'name'> & {
  expireInSeconds: number;
  batchSize: number;
  /** Run a batch's jobs side by side (independent sends), so a batch takes one job's worst time, not the sum. */
  parallel?: boolean;
};

/** How often pg-boss looks for expired jobs (its default, 120 s, would add up to two minutes to a crash). */
export const MAINTENANCE_INTERVAL_SECONDS = 10;

/**
 * How often pg-boss checks whether a schedule (the minute sweep) is due: one small statement.
 * Its default, 30 s, adds up to half a minute to a reminder or a check-in on top of the minute
 * itself; on a loaded machine a reminder due in 20 s took more than 100 s to be queued.
 */
export const CRON_MONITOR_INTERVAL_SECONDS = 5;

/**
 * A finished job (its data: an id, a place to look up, a notification) moves to pg-boss's archive
 * after this long, and leaves the archive JOB_ARCHIVE_KEPT_DAYS later. pg-boss's own defaults,
 * stated here so the privacy page can say them (lib/legal/retention.ts).
 */
export const JOB_ARCHIVED_AFTER_SECONDS = 12 * 3600;
export const JOB_ARCHIVE_KEPT_DAYS = 7;

// Mail: a send has 15 s at most (lib/notifications/mail.ts) and a batch's sends run side by side, so a
// batch fits in 20 s; a job killed mid-send is retried ~20-40 s later, and carries the same Message-ID.
// (A worker fetches every 0.5 s: a batch of 10 keeps up with 20 mails a second per instance.)
const MAIL: QueuePolicy = {
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 20,
  batchSize: 10,
  parallel: true,
};
const QUEUE_POLICIES: Record<QueueName, QueuePolicy> = {
  [QUEUES.magicLinkMail]: MAIL,
  [QUEUES.accountCreatedMail]: MAIL,
  [QUEUES.reminderMail]: MAIL,
  [QUEUES.checkinMail]: MAIL,
  [QUEUES.contactMail]: MAIL,
  [QUEUES.digestMail]: MAIL,
  [QUEUES.meetupMail]: MAIL,
  // One meetup's row lock and a few writes: seconds; the minute sweep catches any that fails for good.
  [QUEUES.meetupOfferExpiry]: {
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    batchSize: 10,
  },
  // A device or push service that does not answer in 10 s is given up on (server/workers.ts); side by
  // side, 20 a batch fit in 30 s, and every message and request makes one, so the queue must keep up.
  [QUEUES.push]: {
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 30,
    batchSize: 20,
    parallel: true,
  },
  [QUEUES.geocodeLocation]: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 60, batchSize: 5 },
  // Outside services fail for hours: 30 s doubling with jitter, 12 retries over ~1.5-3 days, lose no verdict.
  [QUEUES.photoModeration]: {
    retryLimit: 12,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
    batchSize: 5,
  },
  [QUEUES.photoDeletion]: { retryLimit: 12, retryDelay: 30, retryBackoff: true, expireInSeconds: 120, batchSize: 10 },
  // A stately queue holds at most one waiting and one running job. A feed import may take minutes.
  [QUEUES.eventsRefresh]: {
    policy: 'stately',
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: false,
    expireInSeconds: 900,
    batchSize: 1,
  },
  [QUEUES.plansSweep]: {
    policy: 'stately',
    retryLimit: 1,
    retryDelay: 30,
    retryBackoff: false,
    expireInSeconds: 120,
    batchSize: 1,
  },
};

/** The queue options pg-boss stores (without this app's batch size). */
export function queueOptions(name: QueueName): Omit<PgBoss.Queue, 'name'> {
  const { batchSize: _batchSize, parallel: _parallel, ...options } = QUEUE_POLICIES[name];
  return options;
}

/** A job's handler; `jobId` stays the same across retries, so a send can be keyed on it. */
export type JobHandler = (data: Record<string, unknown>, jobId: string) => Promise<void>;

const holder = globalThis as unknown as { __buddyBoss?: PgBoss };

export async function startBoss(connectionString: string): Promise<PgBoss> {
  if (holder.__buddyBoss) return holder.__buddyBoss;
  const boss = new PgBoss({
    connectionString,
    schema: 'pgboss',
    max: 4,
    maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
    cronMonitorIntervalSeconds: CRON_MONITOR_INTERVAL_SECONDS,
    archiveCompletedAfterSeconds: JOB_ARCHIVED_AFTER_SECONDS,
    deleteAfterDays: JOB_ARCHIVE_KEPT_DAYS,
  });
  boss.on('error', (error) => {
    if (expectedAtShutdown(error)) return;
    process.stderr.write(`${JSON.stringify({ level: 'error', message: 'job queue', error: String(error) })}\n`);
  });
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    // createQueue leaves an existing queue as it is, so a changed policy is written by updateQueue.
    await boss.createQueue(name, { name, ...queueOptions(name) });
    await boss.updateQueue(name, { name, ...queueOptions(name) });
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
export async function enqueue(
  // biome-ignore lint/suspicious/noExplicitAny: any schema's transaction will do; pg-boss writes its own tables
  trx: Kysely<any>,
  queue: QueueName,
  data: Record<string, unknown>,
  when: { startAfter?: Date } = {},
): Promise<void> {
  await getBoss().send(queue, data, {
    ...when,
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
    const { batchSize, parallel } = QUEUE_POLICIES[queue];
    const run = async (job: PgBoss.Job<Record<string, unknown>>) => {
      try {
        await handler(job.data, job.id);
      } catch (error) {
        await boss.fail(queue, job.id, { message: error instanceof Error ? error.message : String(error) });
      }
    };
    await boss.work<Record<string, unknown>>(queue, { pollingIntervalSeconds: 0.5, batchSize }, async (jobs) => {
      if (parallel) await Promise.all(jobs.map(run));
      else for (const job of jobs) await run(job);
    });
  }
}
