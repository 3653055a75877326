// Wires each queue to its domain handler. Started by the server process (server/start.ts).
import { createDb, getDb } from '@/db';
import { directDatabaseUrl } from '@/lib/core/database-env';
import { startReviewAccount } from './review-account';
import { SIGNIN_MAIL_OCCASIONS } from '@/lib/accounts/account-mail';
import { sendAccountCreatedNotice, sendMagicLinkMail } from '@/lib/accounts/magic-link-mail';
import { config } from '@/lib/config';
import { geocodeProfileLocation } from '@/lib/profiles/geocode-job';
import { runEventsRefresh, startEventsDirectory } from '@/lib/events/jobs';
import { createImageModerationProvider } from '@/lib/moderation/images';
import { deleteRetiredPhotoBlobs, moderatePhoto } from '@/lib/photos/moderation';
import { photoServicesFrom } from '@/lib/photos/services';
import { deliverPush, expoPushProvider, logPushProvider } from '@/lib/notifications/push';
import { loadVapidKeys } from '@/lib/notifications/web-push';
import { sweepPlans } from '@/lib/plans/plans';
import { sendReminderMail } from '@/lib/plans/reminder-mail';
import { sendDueReminders } from '@/lib/plans/reminders';
import { type CheckinMailJob, runCheckins, sendCheckinMail, sendContactMail } from '@/lib/plans/checkins';
import { loadUnsubscribeKey } from '@/lib/notifications/mail-preferences';
import { pruneMailSends, sendOncePerJob } from '@/lib/notifications/mail';
import { pruneSpentCounters } from '@/lib/accounts/prune-counters';
import { type DigestJob, scheduleDigest, sendDigestMail } from '@/lib/notifications/digest';
import { getBoss, QUEUES, registerWorkers, type JobHandler, type QueueName } from '@/lib/jobs/boss';
import { type MeetupMailJob, sendMeetupMail } from '@/lib/meetups/mail';
import { sendDueMeetupReminders } from '@/lib/meetups/reminders';
import { expireDueOffers, expireOffer } from '@/lib/meetups/seats';

export async function startWorkers(): Promise<void> {
  const cfg = config();
  const mail = { smtpUrl: cfg.smtpUrl, from: cfg.mailFrom, dataDir: cfg.dataDir, baseUrl: cfg.publicBaseUrl };
  const { store, processing } = photoServicesFrom(cfg);
  const imageModeration = createImageModerationProvider(cfg, processing);
  const push = cfg.pushProvider === 'expo' ? expoPushProvider(cfg.expoAccessToken) : logPushProvider();
  const web = {
    vapid: await loadVapidKeys(getDb(), cfg.vapid, cfg.publicBaseUrl),
    policy: {
      allowLoopbackPorts: cfg.webPushAllowLoopbackPorts,
      allowedHosts: cfg.webPushAllowedHosts,
      timeoutMs: 10_000,
    },
  };
  const checkinMailSettings = async () => ({
    ...mail,
    unsubscribeKey: await loadUnsubscribeKey(getDb()),
    answerSeconds: cfg.planCheckin.answerSeconds,
  });
  const handlers: Record<QueueName, JobHandler> = {
    // Each mail once per job (a retry after a crash mid-send may repeat it, under the same Message-ID).
    [QUEUES.magicLinkMail]: async (data, jobId) =>
      sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendMagicLinkMail(
          getDb(),
          String(data.userId),
          mail,
          SIGNIN_MAIL_OCCASIONS.find((occasion) => occasion === data.occasion) ?? 'request',
          messageId,
        ),
      ),
    [QUEUES.accountCreatedMail]: async (data, jobId) =>
      sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendAccountCreatedNotice(getDb(), String(data.userId), mail, messageId),
      ),
    [QUEUES.geocodeLocation]: async (data) => {
      if (cfg.geocoderUrl)
        await geocodeProfileLocation(getDb(), String(data.userId), String(data.label), cfg.geocoderUrl);
    },
    [QUEUES.eventsRefresh]: async () => runEventsRefresh(getDb(), cfg.events),
    [QUEUES.photoModeration]: async (data) => {
      await moderatePhoto(getDb(), String(data.photoId), { store, provider: imageModeration });
    },
    [QUEUES.photoDeletion]: async (data) => {
      await deleteRetiredPhotoBlobs(getDb(), String(data.photoId), store);
    },
    [QUEUES.push]: async (data) => {
      const delivered = await deliverPush(getDb(), data, push, web);
      // Nobody's device heard of a new message or request: it goes into their mail digest.
      const kind = delivered?.notification.kind;
      if (delivered?.devices === 0 && (kind === 'message' || kind === 'buddy_request'))
        await scheduleDigest(getDb(), delivered.notification.recipientId, cfg.mailDigestDelaySeconds);
    },
    [QUEUES.plansSweep]: async () => {
      await sweepPlans(getDb());
      await sendDueReminders(getDb());
      await pruneMailSends(getDb());
      await pruneSpentCounters(getDb(), cfg);
      await runCheckins(getDb(), cfg.planCheckin);
      await sendDueMeetupReminders(getDb());
      await expireDueOffers(getDb());
    },
    [QUEUES.reminderMail]: async (data, jobId) => {
      const settings = { ...mail, unsubscribeKey: await loadUnsubscribeKey(getDb()) };
      await sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendReminderMail(getDb(), String(data.reminderId), settings, messageId),
      );
    },
    [QUEUES.checkinMail]: async (data, jobId) => {
      const settings = await checkinMailSettings();
      await sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendCheckinMail(getDb(), data as CheckinMailJob, settings, messageId),
      );
    },
    [QUEUES.contactMail]: async (data, jobId) => {
      const settings = await checkinMailSettings();
      await sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendContactMail(getDb(), data as CheckinMailJob, settings, messageId),
      );
    },
    [QUEUES.digestMail]: async (data, jobId) => {
      const settings = { ...mail, unsubscribeKey: await loadUnsubscribeKey(getDb()) };
      await sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendDigestMail(getDb(), data as unknown as DigestJob, settings, messageId),
      );
    },
    [QUEUES.meetupOfferExpiry]: async (data) => {
      await expireOffer(getDb(), { meetupId: String(data.meetupId), userId: String(data.userId) });
    },
    [QUEUES.meetupMail]: async (data, jobId) => {
      const settings = { ...mail, unsubscribeKey: await loadUnsubscribeKey(getDb()) };
      await sendOncePerJob(getDb(), jobId, mail.from, (messageId) =>
        sendMeetupMail(getDb(), data as MeetupMailJob, settings, messageId),
      );
    },
  };
  await registerWorkers(handlers);
  await getBoss().schedule(QUEUES.plansSweep, '* * * * *', {});
  await startEventsDirectory(getDb(), cfg.events);
  // Past any pooler (a session advisory lock serialises two starting processes), before serving.
  const direct = createDb(directDatabaseUrl()!, 1);
  try {
    await startReviewAccount(direct, {
      email: cfg.reviewAccount?.email ?? null,
      authSecret: cfg.authSecret,
      baseUrl: cfg.publicBaseUrl,
      limits: cfg.limits,
      reminderOffsets: cfg.planReminderOffsets,
      deleteBlobs: (refs) => store.delete(refs),
    });
  } finally {
    await direct.destroy();
  }
}
