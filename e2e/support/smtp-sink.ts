// A real SMTP server (smtp-server) on a free loopback port that keeps what it receives,
// for tests that check mail as a provider would get it.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SinkMail {
  to: string[];
  /** The message as sent: headers and body, still transfer-encoded. */
  raw: string;
  at: number;
}

export interface SmtpSink {
  /** What to put in SMTP_URL. */
  url: string;
  mails: SinkMail[];
  close(): Promise<void>;
}

/** `beforeAnswer` runs once a mail is in, before the sender hears "250 OK" (e.g. to kill it mid-send). */
export async function startSmtpSink(beforeAnswer?: (mail: SinkMail) => Promise<void> | void): Promise<SmtpSink> {
  const mails: SinkMail[] = [];
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        mails.push(mail);
        await beforeAnswer?.(mail);
        callback();
      });
    },
  });
  // A sender killed mid-send (crash-mail.test.ts does it on purpose) resets its connection: smtp-server
  // reports that as an 'error' event, which with no listener ended the test run as an uncaught exception.
  sink.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const { port } = sink.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => sink.close(() => resolve())),
  };
}
