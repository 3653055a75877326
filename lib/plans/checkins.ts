// Check-in (issue 29 §6), run by the minute sweep like reminders: at a shared, confirmed
// plan's start plus PLAN_CHECKIN_DELAY the person is asked "All good?" (push, mail, and the
// plan page), and with no "I'm fine" within PLAN_CHECKIN_ANSWER_WINDOW the trusted contact
// gets ONE mail with the plan's page. Each step marks its row in the transaction that
// queues its jobs, so a crash loses nothing and nothing is sent twice.
//
// Mail holds fixed wording only (the security model, docs/security.md, keeps text anyone chose out
// of mail: no names, activity or place), and the contact mail, to an address that is no
// member's, carries an unsubscribe that suppresses the address itself.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { randomSecret, sha256 } from '../core/secrets';
import { enqueue, QUEUES } from '../jobs/boss';
import { type MailSettings, sendMail } from '../notifications/mail';
import {
  contactUnsubscribeToken,
  isSuppressed,
  mailPreferences,
  oneClickUnsubscribeHeaders,
  unsubscribeToken,
} from '../notifications/mail-preferences';
import type { PushJob } from '../notifications/push-job';
import { SHARE_KEPT_HOURS, SHARE_PREFIX, sharePagePath } from './share';
import type { LimitRule } from '../limits/rules';

/** The check-in settings, read from the environment by lib/config.ts. */
export interface PlanCheckinConfig {
  /** PLAN_CHECKIN_DELAY: after the start. */
  delaySeconds: number;
  /** PLAN_CHECKIN_ANSWER_WINDOW: after the question, before the contact is mailed. */
  answerSeconds: number;
  /** Mails to trusted contacts one account may cause in a rolling window (limits.plan_contact_mails). */
  contactMails: LimitRule;
}

export interface CheckinMailJob extends Record<string, unknown> {
  planId: string;
  userId: string;
}

/** Check-ins still running: on, not answered, no contact mail decided, link not revoked. */
function running(trx: Database) {
  return trx
    .selectFrom('plan_shares as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .where('s.checkin', '=', true)
    .where('s.checkin_fine_at', 'is', null)
    .where('s.contact_mail', 'is', null)
    .where('s.revoked_at', 'is', null)
    .where('p.status', '=', 'confirmed');
}

/** The sweep's part: asks the check-ins that are due, then mails the contacts of the unanswered ones. */
export async function runCheckins(
  db: Database,
  cfg: PlanCheckinConfig,
  now = new Date(),
): Promise<{ asked: number; escalated: number }> {
  const asked = await db.transaction().execute(async (trx) => {
    const due = await running(trx)
      .select(['s.plan_id', 's.user_id', 'p.chat_id'])
      .where('s.checkin_asked_at', 'is', null)
      .where(sql<boolean>`p.starts_at + make_interval(secs => ${cfg.delaySeconds}) <= ${now}`)
      // Past the page's life there is nothing left to look after.
      .where(sql<boolean>`p.ends_at + make_interval(hours => ${SHARE_KEPT_HOURS}) > ${now}`)
      .limit(200)
      .forUpdate('s')
      .skipLocked()
      .execute();
    for (const row of due) {
      const push: PushJob = {
        kind: 'plan_checkin',
        recipientId: row.user_id,
        planId: row.plan_id,
        chatId: row.chat_id,
      };
      await enqueue(trx, QUEUES.push, push);
      await enqueue(trx, QUEUES.checkinMail, { planId: row.plan_id, userId: row.user_id } satisfies CheckinMailJob);
      await trx
        .updateTable('plan_shares')
        .set({ checkin_asked_at: now })
        .where('plan_id', '=', row.plan_id)
        .where('user_id', '=', row.user_id)
        .execute();
    }
    return due.length;
  });
  const escalated = await db.transaction().execute(async (trx) => {
    const unanswered = await running(trx)
      .select(['s.plan_id', 's.user_id', 's.contact_email'])
      .where(sql<boolean>`s.checkin_asked_at + make_interval(secs => ${cfg.answerSeconds}) <= ${now}`)
      .limit(200)
      .forUpdate('s')
      .skipLocked()
      .execute();
    for (const row of unanswered) {
      const outcome = await contactMailOutcome(trx, row.user_id, row.contact_email, cfg, now);
      if (outcome === 'sent')
        await enqueue(trx, QUEUES.contactMail, { planId: row.plan_id, userId: row.user_id } satisfies CheckinMailJob);
      await trx
        .updateTable('plan_shares')
        .set({ contact_mail: outcome, contact_mail_at: now })
        .where('plan_id', '=', row.plan_id)
        .where('user_id', '=', row.user_id)
        .execute();
    }
    return unanswered.length;
  });
  return { asked, escalated };
}

/** Once per share, and at most limits.plan_contact_mails per account, never to a suppressed address. */
async function contactMailOutcome(
  trx: Database,
  userId: string,
  email: string | null,
  cfg: PlanCheckinConfig,
  now: Date,
): Promise<'sent' | 'rate_limited' | 'suppressed'> {
  if (!email || (await isSuppressed(trx, email))) return 'suppressed';
  const recent = await trx
    .selectFrom('plan_shares')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('contact_mail', '=', 'sent')
    .where('contact_mail_at', '>', new Date(now.getTime() - cfg.contactMails.windowSeconds * 1000))
    .executeTakeFirstOrThrow();
  return Number(recent.n) >= cfg.contactMails.points ? 'rate_limited' : 'sent';
}

export interface CheckinMailSettings extends MailSettings {
  baseUrl: string;
  unsubscribeKey: string;
  answerSeconds: number;
}

const minutesText = (seconds: number) => (seconds < 120 ? `${seconds} seconds` : `${Math.round(seconds / 60)} minutes`);

/** "All good?" to the person, unless they answered already or turned check-in mail off. */
export async function sendCheckinMail(
  db: Database,
  job: CheckinMailJob,
  settings: CheckinMailSettings,
  messageId?: string,
) {
  const row = await db
    .selectFrom('plan_shares as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.checkin_fine_at', 's.revoked_at', 'u.email'])
    .where('s.plan_id', '=', job.planId)
    .where('s.user_id', '=', job.userId)
    .executeTakeFirst();
  if (!row?.email || row.checkin_fine_at || row.revoked_at) return;
  if (!(await mailPreferences(db, job.userId)).checkins) return;
  await sendMail(
    {
      to: row.email,
      subject: 'All good? Your Buddy Match check-in',
      text: [
        'Hello,',
        '',
        'You asked us to check in during your plan. All good?',
        '',
        `Tell us you are fine: ${settings.baseUrl}/account/plans/${job.planId}`,
        '',
        `If you do not answer within ${minutesText(settings.answerSeconds)}, we will send your trusted contact ` +
          'the link to your plan, as you asked.',
        '',
        `Stop check-in mail: ${settings.baseUrl}/account/settings`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, unsubscribeToken(settings.unsubscribeKey, job.userId)),
      messageId,
    },
    settings,
  );
}

/**
 * The one mail to the trusted contact. Its link is a fresh secret of its own, stored
 * hashed before the mail goes (a retry after a failed send makes another; the unsent one
 * was never seen). Nothing goes when "I'm fine" arrived after the sweep decided.
 */
export async function sendContactMail(
  db: Database,
  job: CheckinMailJob,
  settings: CheckinMailSettings,
  messageId?: string,
) {
  const row = await db
    .selectFrom('plan_shares')
    .select(['contact_email', 'checkin_fine_at', 'revoked_at', 'contact_mail'])
    .where('plan_id', '=', job.planId)
    .where('user_id', '=', job.userId)
    .executeTakeFirst();
  if (!row?.contact_email || row.checkin_fine_at || row.revoked_at || row.contact_mail !== 'sent') return;
  if (await isSuppressed(db, row.contact_email)) return;
  const secret = randomSecret(SHARE_PREFIX);
  await db
    .updateTable('plan_shares')
    .set({ contact_secret_hash: sha256(secret) })
    .where('plan_id', '=', job.planId)
    .where('user_id', '=', job.userId)
    .execute();
  const token = contactUnsubscribeToken(settings.unsubscribeKey, row.contact_email);
  await sendMail(
    {
      to: row.contact_email,
      subject: 'A Buddy Match check-in went unanswered',
      text: [
        'Hello,',
        '',
        'Someone who uses Buddy Match named you as their trusted contact for a meeting with a person they met ' +
          'on Buddy Match, and asked us to write to you if they did not answer a check-in.',
        '',
        `They have not answered for ${minutesText(settings.answerSeconds)}. This is the plan they shared with you ` +
          '(what, when, where and with whom):',
        '',
        `${settings.baseUrl}${sharePagePath(secret)}`,
        '',
        'They may simply not have seen the question. Try to reach them. If you believe they are in danger, ' +
          'call the local emergency number.',
        '',
        'We send this mail once for this plan, and no other mail unless someone names you again.',
        `Never receive mail from Buddy Match at this address: ${settings.baseUrl}/mail/stop?token=${token}`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, token),
      messageId,
    },
    settings,
  );
}
