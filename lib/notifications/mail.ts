// Outgoing mail: through SMTP_URL when set, otherwise into the local outbox
// (DATA_DIR/mail/*.eml) so a fresh install works with no mail server.
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { Database } from '@/db';
import { logLine } from '../core/log';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
  /** A Message-ID fixed by the caller (mailMessageId), so a resend after a crash is folded with the first. */
  messageId?: string;
  /** Files sent with it, such as a plan's .ics. */
  attachments?: { filename: string; content: string; contentType: string }[];
}

export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}

/** Connect, greeting and idle-socket limits in ms (nodemailer's defaults are 2 min, 30 s and 10 min). */
export const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 };

/**
 * The Message-ID of the mail a job sends, the same on every retry of that job: delivery is at least
 * once across a crash, and mail clients fold copies that share a Message-ID.
 */
export function mailMessageId(jobId: string, from: string): string {
  const domain = /@([^\s>]+)/.exec(from)?.[1] ?? 'localhost';
  return `<${jobId}@${domain}>`;
}

/**
 * Runs a job's send unless a previous run of the same job already finished it: the marker is
 * written right after the SMTP server accepts the mail, so only a crash in between sends a copy.
 */
export async function sendOncePerJob(
  db: Database,
  jobId: string,
  from: string,
  send: (messageId: string) => Promise<void>,
): Promise<void> {
  const sent = await db.selectFrom('mail_sends').select('job_id').where('job_id', '=', jobId).executeTakeFirst();
  if (sent) return;
  await send(mailMessageId(jobId, from));
  await db
    .insertInto('mail_sends')
    .values({ job_id: jobId })
    .onConflict((c) => c.doNothing())
    .execute();
}

/** Markers outlive every retry of their job (minutes) by far; the minute sweep drops older ones. */
export async function pruneMailSends(db: Database): Promise<void> {
  await db.deleteFrom('mail_sends').where('sent_at', '<', sql<Date>`now() - interval '1 day'`).execute();
}

export async function sendMail(message: MailMessage, settings: MailSettings): Promise<void> {
  const envelope = { from: settings.from, ...message };
  if (settings.smtpUrl) {
    // Bounded, so a send ends well inside its job's expiry (lib/jobs/boss.ts) instead of being run twice.
    const transport = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS });
    await transport.sendMail(envelope);
    logLine({ event: 'mail_sent', via: 'smtp', subject: message.subject });
    return;
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(envelope);
  const dir = path.join(settings.dataDir, 'mail');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`,
  );
  await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
  // The body holds a sign-in link: log where it went, never what it says.
  logLine({ event: 'mail_written', via: 'outbox', file, subject: message.subject });
}
