// Wires each queue to its domain handler. Started by the server process (scripts/start.ts).
import { getDb } from '@/db';
import { sendMagicLinkMail } from '../accounts/magic-link-mail';
import { config } from '../config';
import { deliverPush, expoPushProvider, logPushProvider } from '../notifications/push';
import { QUEUES, registerWorkers, type JobHandler, type QueueName } from './boss';

export async function startWorkers(): Promise<void> {
  const cfg = config();
  const mail = { smtpUrl: cfg.smtpUrl, from: cfg.mailFrom, dataDir: cfg.dataDir, baseUrl: cfg.publicBaseUrl };
  const push = cfg.pushProvider === 'expo' ? expoPushProvider(cfg.expoAccessToken) : logPushProvider();
  const handlers: Record<QueueName, JobHandler> = {
    [QUEUES.magicLinkMail]: async (data) => sendMagicLinkMail(getDb(), String(data.userId), mail),
    [QUEUES.push]: async (data) => deliverPush(getDb(), data, push),
  };
  await registerWorkers(handlers);
}
