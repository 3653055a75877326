// Outgoing mail: through SMTP_URL when set, otherwise into the local outbox
// (DATA_DIR/mail/*.eml) so a fresh install works with no mail server.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { logLine } from '../http/log';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
}

export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
}

export async function sendMail(message: MailMessage, settings: MailSettings): Promise<void> {
  const envelope = { from: settings.from, ...message };
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
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
