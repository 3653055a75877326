// The mail digest (issue 31 §4) for people no push reaches (no app token, no browser
// subscription; on an iPhone, Safari outside a home-screen install has no Web Push): how
// many unread messages and buddy requests wait, at most one mail an hour, never counting a
// muted chat, none when nothing is newer than the last digest. It shares the preferences
// (`digests`) and the one unsubscribe link with the plan reminders (mail-preferences.ts).
//
// Crash-safe and single: a push that reached no device calls scheduleDigest, which marks the
// person's row due and queues the job in one transaction (a burst of messages queues one);
// the job (mail-digest) sends through sendOncePerJob, so a retry of a sent digest sends none.
import { mayMeetByAgeSql } from '../ages/worlds';
import { sql } from 'kysely';
import type { Database } from '@/db';
import { enqueue, QUEUES } from '../jobs/boss';
import { type MailSettings, sendMail } from './mail';
import { namesInWords } from './mail-names';
import { mailPreferences, oneClickUnsubscribeHeaders, unsubscribeToken } from './mail-preferences';

/** Digests are at least this far apart, whatever MAIL_DIGEST_DELAY says. */
export const DIGEST_INTERVAL_MS = 60 * 60 * 1000;

export interface DigestMailSettings extends MailSettings {
  baseUrl: string;
  unsubscribeKey: string;
}

export interface DigestJob {
  userId: string;
}

/**
 * Queues the person's digest `delaySeconds` from now (giving them time to read it in the
 * app), or an hour after the last one, unless one is already waiting. A waiting mark older
 * than an hour past due is a job that gave up, so it no longer holds new digests back.
 */
export async function scheduleDigest(db: Database, userId: string, delaySeconds: number): Promise<void> {
  if (!(await mailPreferences(db, userId)).digests) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('mail_digests')
      .values({ user_id: userId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    const row = await trx
      .selectFrom('mail_digests')
      .select(['due_at', 'last_sent_at'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const now = Date.now();
    if (row.due_at && row.due_at.getTime() > now - DIGEST_INTERVAL_MS) return;
    const due = new Date(Math.max(now + delaySeconds * 1000, (row.last_sent_at?.getTime() ?? 0) + DIGEST_INTERVAL_MS));
    await trx.updateTable('mail_digests').set({ due_at: due }).where('user_id', '=', userId).execute();
    await enqueue(trx, QUEUES.digestMail, { userId } satisfies DigestJob, { startAfter: due });
  });
}

export interface DigestNews {
  messages: number;
  chats: number;
  requests: number;
  /** The newest item counted: the next digest counts only what is newer. */
  newest: Date | null;
  /** Display names of who wrote and who asked (a few of each), for the mail to name. */
  writers?: readonly string[];
  askers?: readonly string[];
}

/** Senders a digest reads to name: one more than it shows, so it knows to say "and others". */
const NAMES_READ = 4;

/** Unread messages in chats not muted and pending requests, newer than `since`, from people not blocked. */
// Compared at millisecond precision, as a JS Date keeps `covered_until` (PostgreSQL keeps microseconds).
export async function digestNews(db: Database, userId: string, since: Date | null): Promise<DigestNews> {
  const notBlocked = (senderColumn: 'm.sender_id' | 'r.sender_id') =>
    sql<boolean>`not exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = ${sql.ref(senderColumn)})`;
  const unreadMessages = () =>
    db
      .selectFrom('messages as m')
      .innerJoin('chat_members as cm', (join) =>
        join.onRef('cm.chat_id', '=', 'm.chat_id').on('cm.user_id', '=', userId),
      )
      .where('cm.muted', '=', false)
      .where('m.sender_id', '!=', userId)
      .whereRef('m.id', '>', 'cm.last_read_message_id')
      .$if(since !== null, (q) => q.where(sql`date_trunc('milliseconds', m.created_at)`, '>', since!))
      .where(notBlocked('m.sender_id'));
  const pendingRequests = () =>
    db
      .selectFrom('buddy_requests as r')
      .where('r.recipient_id', '=', userId)
      .where('r.state', '=', 'pending')
      .$if(since !== null, (q) => q.where(sql`date_trunc('milliseconds', r.created_at)`, '>', since!))
      .where(notBlocked('r.sender_id'))
      // As the inbox: a request from someone now of the other world by age is no one's.
      .where(
        mayMeetByAgeSql(
          sql<string | null>`(select birthday from users where id = r.sender_id)`,
          sql<string | null>`(select birthday from users where id = r.recipient_id)`,
        ),
      );
  const messages = await unreadMessages()
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      sql<string>`count(distinct m.chat_id)`.as('chats'),
      sql<Date | null>`max(date_trunc('milliseconds', m.created_at))`.as('newest'),
    ])
    .executeTakeFirstOrThrow();
  const requests = await pendingRequests()
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      sql<Date | null>`max(date_trunc('milliseconds', r.created_at))`.as('newest'),
    ])
    .executeTakeFirstOrThrow();
  // Who, newest first: a few distinct senders of the rows counted, with their names in the same read.
  const namesOf = (senders: { sender_id: string; display_name: string }[]) =>
    [...new Map(senders.map((row) => [row.sender_id, row.display_name])).values()].slice(0, NAMES_READ);
  const [writers, askers] = await Promise.all([
    Number(messages.count) > 0
      ? unreadMessages()
          .innerJoin('users as s', 's.id', 'm.sender_id')
          .select(['m.sender_id', 's.display_name'])
          .orderBy('m.id', 'desc')
          .limit(50)
          .execute()
          .then(namesOf)
      : [],
    Number(requests.count) > 0
      ? pendingRequests()
          .innerJoin('users as s', 's.id', 'r.sender_id')
          .select(['r.sender_id', 's.display_name'])
          .orderBy('r.created_at', 'desc')
          .limit(50)
          .execute()
          .then(namesOf)
      : [],
  ]);
  const times = [messages.newest, requests.newest].filter((t): t is Date => t !== null).map((t) => new Date(t));
  return {
    messages: Number(messages.count),
    chats: Number(messages.chats),
    requests: Number(requests.count),
    newest: times.length > 0 ? new Date(Math.max(...times.map((t) => t.getTime()))) : null,
    writers,
    askers,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Counts, and who (issue 46 §5): first names only when they are plainly names (mail-names.ts), never
 * a message's words; docs/security.md keeps text another person chose out of mail.
 */
export function digestText(news: DigestNews, baseUrl: string): { subject: string; lines: string[] } {
  const parts: string[] = [];
  const lines: string[] = [];
  const from = (names: readonly string[] | undefined) => {
    const words = namesInWords(names ?? []);
    return words ? ` from ${words}` : '';
  };
  if (news.messages > 0) {
    parts.push(plural(news.messages, 'unread message', 'unread messages'));
    lines.push(
      `${plural(news.messages, 'unread message', 'unread messages')}${from(news.writers)} in ${plural(news.chats, 'chat', 'chats')}: ${baseUrl}/account/chats`,
    );
  }
  if (news.requests > 0) {
    parts.push(plural(news.requests, 'buddy request', 'buddy requests'));
    lines.push(
      `${plural(news.requests, 'buddy request', 'buddy requests')}${from(news.askers)} to answer: ${baseUrl}/account/requests`,
    );
  }
  return { subject: `Buddy Match: ${parts.join(' and ')}`, lines };
}

/**
 * The job: within the hour of the last digest it moves itself to the hour's end; otherwise it
 * clears the waiting mark (so what arrives from now on schedules the next one) and mails what
 * is new, if anything. Runs inside sendOncePerJob, with the job's fixed Message-ID.
 */
export async function sendDigestMail(
  db: Database,
  job: DigestJob,
  settings: DigestMailSettings,
  messageId?: string,
): Promise<void> {
  const { userId } = job;
  const state = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('mail_digests')
      .select(['last_sent_at', 'covered_until'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    const next = (row.last_sent_at?.getTime() ?? 0) + DIGEST_INTERVAL_MS;
    if (next > Date.now()) {
      await trx
        .updateTable('mail_digests')
        .set({ due_at: new Date(next) })
        .where('user_id', '=', userId)
        .execute();
      await enqueue(trx, QUEUES.digestMail, { userId } satisfies DigestJob, { startAfter: new Date(next) });
      return null;
    }
    await trx.updateTable('mail_digests').set({ due_at: null }).where('user_id', '=', userId).execute();
    return row;
  });
  if (!state) return;
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (!user?.email || !(await mailPreferences(db, userId)).digests) return;
  const news = await digestNews(db, userId, state.covered_until);
  if (news.messages === 0 && news.requests === 0) return;
  const { subject, lines } = digestText(news, settings.baseUrl);
  await sendMail(
    {
      to: user.email,
      subject,
      text: [
        'Hello,',
        '',
        'Waiting for you on Buddy Match:',
        '',
        ...lines.map((line) => `- ${line}`),
        '',
        `At most one such mail an hour. Stop them: ${settings.baseUrl}/account/settings`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, unsubscribeToken(settings.unsubscribeKey, userId)),
      messageId,
    },
    settings,
  );
  await db
    .updateTable('mail_digests')
    .set({ last_sent_at: sql<Date>`now()`, covered_until: news.newest })
    .where('user_id', '=', userId)
    .execute();
}
