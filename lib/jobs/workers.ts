// Wires each queue to its domain handler. Started by the server process (scripts/start.ts).
import { getDb } from '@/db';
import { sendMagicLinkMail } from '../accounts/magic-link-mail';
import { config } from '../config';
import { geocodeProfileLocation } from '../profiles/geocode-job';
import { runEventsRefresh, startEventsDirectory } from '../events/jobs';
import { QUEUES, registerWorkers, type JobHandler, type QueueName } from './boss';

export async function startWorkers(): Promise<void> {
  const cfg = config();
  const mail = { smtpUrl: cfg.smtpUrl, from: cfg.mailFrom, dataDir: cfg.dataDir, baseUrl: cfg.publicBaseUrl };
  const handlers: Record<QueueName, JobHandler> = {
    [QUEUES.magicLinkMail]: async (data) => sendMagicLinkMail(getDb(), String(data.userId), mail),
    [QUEUES.geocodeLocation]: async (data) => {
      if (cfg.geocoderUrl) await geocodeProfileLocation(getDb(), String(data.userId), String(data.label), cfg.geocoderUrl);
    },
    [QUEUES.eventsRefresh]: async () => runEventsRefresh(getDb(), cfg.events),
  };
  await registerWorkers(handlers);
  await startEventsDirectory(getDb(), cfg.events);
}
