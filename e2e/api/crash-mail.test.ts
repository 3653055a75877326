// Issue 33 §4: a server killed with kill -9 while it sends sign-in mail left those jobs
// `active` in pg-boss for its 15-minute default expiry, so a person waited a quarter of an
// hour for their link. Here a server of its own (its own database, so no other worker
// takes its jobs) mails a real SMTP sink that is slow to answer; it is killed mid-send,
// restarted, and every registration it acknowledged must get its mail within 60 s.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '@/db';
import { sendOncePerJob } from '@/lib/notifications/mail';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { freshDatabaseOn, startServerProcess, type ServerProcess } from '../support/stack';
import { api, uniqueEmail } from './client';

interface Received {
  to: string;
  messageId: string;
  at: number;
}

/** How long the sink holds each mail before it answers 250; the kill comes before that timer can fire. */
const SINK_ANSWER_DELAY_MS = 300;

const inbox: Received[] = [];
/** Called when the sink has a mail whose sender is still waiting for the answer. */
let onMailInFlight: (() => void) | undefined;
let sink: SmtpSink | undefined;
let database: { url: string; drop: () => Promise<void> };
let server: ServerProcess | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  sink = await startSmtpSink(async (mail) => {
    const messageId = /^Message-ID:\s*(\S+)/im.exec(mail.raw)?.[1] ?? '';
    for (const to of mail.to) inbox.push({ to, messageId, at: mail.at });
    onMailInFlight?.();
    await new Promise((resolve) => setTimeout(resolve, SINK_ANSWER_DELAY_MS));
  });
  database = await freshDatabaseOn(inject('databaseUrl'));
  env = {
    SMTP_URL: sink.url,
    MAIL_FROM: 'buddies@example.com',
    REGISTRATION_LIMIT_PER_HOUR: '1000',
  };
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await database?.drop();
}, 60_000);

async function startServer(): Promise<ServerProcess> {
  return startServerProcess({
    databaseUrl: database.url,
    dataDir: inject('dataDir'),
    env,
    logName: 'server-crash-mail.log',
  });
}

describe('a crash while mail is sent', () => {
  it('every acknowledged registration gets its mail within 60 s of a restart; copies share a Message-ID', async () => {
    server = await startServer();
    const base = server.baseUrl;
    const acknowledged: string[] = [];
    let stop = false;
    // Three clients register one after another until the kill; only a 201 is a promise kept.
    const clients = Array.from({ length: 3 }, async () => {
      while (!stop) {
        const email = uniqueEmail('crash-mail');
        try {
          const res = await api('POST', '/api/v1/register.json', { base, body: { email, displayName: 'Crash Mail' } });
          if (res.status === 201) acknowledged.push(email);
          else if (!stop) throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (!stop) throw error;
        }
      }
    });
    // Kill once a few mails went out and one more is on the wire, its sender waiting for the 250.
    await new Promise<void>((resolve) => {
      onMailInFlight = () => {
        if (inbox.length >= 3) resolve();
      };
    });
    onMailInFlight = undefined;
    const inFlight = inbox.at(-1)!.to;
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    const killed = server.child;
    if (killed.exitCode === null && killed.signalCode === null) await new Promise((r) => killed.once('exit', r));
    expect(acknowledged).toContain(inFlight);
    expect(acknowledged.length).toBeGreaterThanOrEqual(3);

    server = await startServer();
    const restarted = Date.now();
    const missing = () => acknowledged.filter((email) => !inbox.some((m) => m.to === email));
    const inFlightCopies = () => inbox.filter((m) => m.to === inFlight).length;
    while ((missing().length > 0 || inFlightCopies() < 2) && Date.now() - restarted < 60_000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(missing()).toEqual([]);
    // The mail cut off mid-send went again (at least once), as the same message.
    expect(inFlightCopies()).toBeGreaterThanOrEqual(2);
    for (const email of acknowledged) {
      const ids = new Set(inbox.filter((m) => m.to === email).map((m) => m.messageId));
      expect([...ids]).toEqual([expect.stringMatching(/^<[0-9a-f-]{36}@example\.com>$/)]);
    }
  }, 180_000);

  it('a job that finished sending leaves a marker, and a retry of it sends nothing', async () => {
    const db = createDb(database.url, 1);
    try {
      // Every mail job the first test completed is marked by its pg-boss id.
      const { rows } = await sql<{ unmarked: number; marked: number }>`
        select count(*) filter (where m.job_id is null)::int as unmarked, count(m.job_id)::int as marked
        from pgboss.job j left join mail_sends m on m.job_id = j.id
        where j.name = 'mail-magic-link' and j.state = 'completed'`.execute(db);
      expect(rows[0]!.unmarked).toBe(0);
      expect(rows[0]!.marked).toBeGreaterThan(0);
      const sent = await db.selectFrom('mail_sends').select('job_id').executeTakeFirstOrThrow();
      const sends: string[] = [];
      const send = async (messageId: string) => void sends.push(messageId);
      await sendOncePerJob(db, sent.job_id, 'buddies@example.com', send);
      expect(sends).toEqual([]);
      const fresh = randomUUID();
      await sendOncePerJob(db, fresh, 'buddies@example.com', send);
      await sendOncePerJob(db, fresh, 'buddies@example.com', send);
      expect(sends).toEqual([`<${fresh}@example.com>`]);
    } finally {
      await db.destroy();
    }
  });
});
