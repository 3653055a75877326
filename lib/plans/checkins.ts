// Check-in (issue 29 §6), run by the minute sweep like reminders: at a shared, confirmed
// plan's start plus PLAN_CHECKIN_DELAY the person is asked "All good?" (push, mail, and the
// plan page), and with no "I'm fine" within PLAN_CHECKIN_ANSWER_WINDOW the trusted contact
// gets ONE mail with the plan's page. Each step marks its row in the transaction that
// queues its jobs, so a crash loses nothing and nothing is sent twice. A shared meetup
// (issue 45) is checked in on the same way while it is not cancelled (leaving it revokes the
// share): the same jobs, mails and limits, the meetup's page instead of the plan's.
//
// Mail holds fixed wording only (the security model, docs/security.md, keeps text anyone chose out
// of mail: no names, activity or place), and the contact mail, to an address that is no
// member's, carries an unsubscribe that suppresses the address itself.
import { sql } from 'kysely';
import type { Database } from '@/db';
import { randomSecret, sha256 } from '../core/secrets';
import { enqueue, QUEUES } from '../jobs/boss';
import { type MailSettings, sendMail } from '../notifications/mail';
import { mailableFirstName } from '../notifications/mail-names';
import {
  contactUnsubscribeToken,
  isSuppressed,
  mailPreferences,
  oneClickUnsubscribeHeaders,
  unsubscribeToken,
} from '../notifications/mail-preferences';
import type { PushJob } from '../notifications/push-job';
import {
  SHARE_KEPT_HOURS,
  SHARE_KINDS,
  SHARE_PREFIX,
  type ShareKind,
  type ShareRef,
  selectShare,
  sharedThingPage,
  sharePagePath,
  updateShare,
} from './share';
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

/** A check-in mail's job: of a plan (as before meetups had shares) or of a meetup. */
export type CheckinMailJob =
  | { planId: string; userId: string; [key: string]: unknown }
  | { meetupId: string; userId: string; [key: string]: unknown };

const jobOf = (ref: ShareRef): CheckinMailJob =>
  ref.kind === 'plan' ? { planId: ref.id, userId: ref.userId } : { meetupId: ref.id, userId: ref.userId };

const refOf = (job: CheckinMailJob): ShareRef =>
  typeof job.meetupId === 'string'
    ? { kind: 'meetup', id: job.meetupId, userId: job.userId }
    : { kind: 'plan', id: String(job.planId), userId: job.userId };

/** A plan's check-ins still running: on, not answered, no contact mail decided, link not revoked. */
function runningPlans(trx: Database) {
  return trx
    .selectFrom('plan_shares as s')
    .innerJoin('plans as p', 'p.id', 's.plan_id')
    .where('s.checkin', '=', true)
    .where('s.checkin_fine_at', 'is', null)
    .where('s.contact_mail', 'is', null)
    .where('s.revoked_at', 'is', null)
    .where('p.status', '=', 'confirmed');
}

/**
 * A meetup's, the same, while it is not cancelled (`p` is the meetup). A share is made only by
 * someone holding a seat, under the meetup's lock, and a seat given up revokes it in that
 * transaction (lib/meetups/share.ts, seats.ts): a share not revoked is a seat still held.
 */
function runningMeetups(trx: Database) {
  return trx
    .selectFrom('meetup_shares as s')
    .innerJoin('meetups as p', 'p.id', 's.meetup_id')
    .where('s.checkin', '=', true)
    .where('s.checkin_fine_at', 'is', null)
    .where('s.contact_mail', 'is', null)
    .where('s.revoked_at', 'is', null)
    .where('p.status', '=', 'open');
}

interface Due {
  ref: ShareRef;
  push: PushJob;
}

/** Check-ins of one kind to ask now (locked: a parallel sweep skips them). */
async function dueToAsk(trx: Database, kind: ShareKind, cfg: PlanCheckinConfig, now: Date): Promise<Due[]> {
  const started = sql<boolean>`p.starts_at + make_interval(secs => ${cfg.delaySeconds}) <= ${now}`;
  // Past the page's life there is nothing left to look after.
  const alive = sql<boolean>`p.ends_at + make_interval(hours => ${SHARE_KEPT_HOURS}) > ${now}`;
  if (kind === 'plan') {
    const rows = await runningPlans(trx)
      .select(['s.plan_id', 's.user_id', 'p.chat_id'])
      .where('s.checkin_asked_at', 'is', null)
      .where(started)
      .where(alive)
      .limit(200)
      .forUpdate('s')
      .skipLocked()
      .execute();
    return rows.map((row) => ({
      ref: { kind, id: row.plan_id, userId: row.user_id },
      push: { kind: 'plan_checkin', recipientId: row.user_id, planId: row.plan_id, chatId: row.chat_id },
    }));
  }
  const rows = await runningMeetups(trx)
    .select(['s.meetup_id', 's.user_id'])
    .where('s.checkin_asked_at', 'is', null)
    .where(started)
    .where(alive)
    .limit(200)
    .forUpdate('s')
    .skipLocked()
    .execute();
  return rows.map((row) => ({
    ref: { kind, id: row.meetup_id, userId: row.user_id },
    push: { kind: 'meetup_checkin', recipientId: row.user_id, meetupId: row.meetup_id },
  }));
}

/** Check-ins of one kind asked and not answered within the window (locked, as above). */
async function unanswered(
  trx: Database,
  kind: ShareKind,
  cfg: PlanCheckinConfig,
  now: Date,
): Promise<{ ref: ShareRef; contactEmail: string | null }[]> {
  const late = sql<boolean>`s.checkin_asked_at + make_interval(secs => ${cfg.answerSeconds}) <= ${now}`;
  const rows =
    kind === 'plan'
      ? await runningPlans(trx)
          .select(['s.plan_id as id', 's.user_id', 's.contact_email'])
          .where(late)
          .limit(200)
          .forUpdate('s')
          .skipLocked()
          .execute()
      : await runningMeetups(trx)
          .select(['s.meetup_id as id', 's.user_id', 's.contact_email'])
          .where(late)
          .limit(200)
          .forUpdate('s')
          .skipLocked()
          .execute();
  return rows.map((row) => ({ ref: { kind, id: row.id, userId: row.user_id }, contactEmail: row.contact_email }));
}

/** The sweep's part: asks the check-ins that are due, then mails the contacts of the unanswered ones. */
export async function runCheckins(
  db: Database,
  cfg: PlanCheckinConfig,
  now = new Date(),
): Promise<{ asked: number; escalated: number }> {
  const asked = await db.transaction().execute(async (trx) => {
    let count = 0;
    for (const kind of SHARE_KINDS) {
      for (const { ref, push } of await dueToAsk(trx, kind, cfg, now)) {
        await enqueue(trx, QUEUES.push, push);
        await enqueue(trx, QUEUES.checkinMail, jobOf(ref));
        await updateShare(trx, ref).set({ checkin_asked_at: now }).execute();
        count++;
      }
    }
    return count;
  });
  const escalated = await db.transaction().execute(async (trx) => {
    let count = 0;
    for (const kind of SHARE_KINDS) {
      for (const { ref, contactEmail } of await unanswered(trx, kind, cfg, now)) {
        const outcome = await contactMailOutcome(trx, ref.userId, contactEmail, cfg, now);
        if (outcome === 'sent') await enqueue(trx, QUEUES.contactMail, jobOf(ref));
        await updateShare(trx, ref).set({ contact_mail: outcome, contact_mail_at: now }).execute();
        count++;
      }
    }
    return count;
  });
  return { asked, escalated };
}

/**
 * Once per share, and at most limits.plan_contact_mails per account (plans and meetups together),
 * never to a suppressed address.
 */
async function contactMailOutcome(
  trx: Database,
  userId: string,
  email: string | null,
  cfg: PlanCheckinConfig,
  now: Date,
): Promise<'sent' | 'rate_limited' | 'suppressed'> {
  if (!email || (await isSuppressed(trx, email))) return 'suppressed';
  const since = new Date(now.getTime() - cfg.contactMails.windowSeconds * 1000);
  let sent = 0;
  for (const table of ['plan_shares', 'meetup_shares'] as const) {
    const recent = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('contact_mail', '=', 'sent')
      .where('contact_mail_at', '>', since)
      .executeTakeFirstOrThrow();
    sent += Number(recent.n);
  }
  return sent >= cfg.contactMails.points ? 'rate_limited' : 'sent';
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
  const ref = refOf(job);
  const row = await selectShare(db, ref).select(['checkin_fine_at', 'revoked_at']).executeTakeFirst();
  if (!row || row.checkin_fine_at || row.revoked_at) return;
  const user = await db.selectFrom('users').select('email').where('id', '=', ref.userId).executeTakeFirst();
  if (!user?.email) return;
  if (!(await mailPreferences(db, ref.userId)).checkins) return;
  await sendMail(
    {
      to: user.email,
      subject: 'All good? Your Buddy Match check-in',
      text: [
        'Hello,',
        '',
        `You asked us to check in during your ${ref.kind}. All good?`,
        '',
        `Tell us you are fine: ${settings.baseUrl}${sharedThingPage(ref.kind, ref.id)}`,
        '',
        `If you do not answer within ${minutesText(settings.answerSeconds)}, we will send your trusted contact ` +
          `the link to your ${ref.kind}, as you asked.`,
        '',
        `Stop check-in mail: ${settings.baseUrl}/account/settings`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, unsubscribeToken(settings.unsubscribeKey, ref.userId)),
      messageId,
    },
    settings,
  );
}

/** The contact mail's words for what was shared (fixed: nothing anyone chose but the sharer's first name). */
const CONTACT_WORDS: Record<ShareKind, { meeting: string; shown: string }> = {
  plan: {
    meeting: 'a meeting with a person they met on Buddy Match',
    shown: 'This is the plan they shared with you (what, when, where and with whom):',
  },
  meetup: {
    meeting: 'a meetup with people they found on Buddy Match',
    shown: 'This is the meetup they shared with you (what, when and where):',
  },
};

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
  const ref = refOf(job);
  const row = await selectShare(db, ref)
    .select(['contact_email', 'checkin_fine_at', 'revoked_at', 'contact_mail'])
    .executeTakeFirst();
  if (!row?.contact_email || row.checkin_fine_at || row.revoked_at || row.contact_mail !== 'sent') return;
  if (await isSuppressed(db, row.contact_email)) return;
  const secret = randomSecret(SHARE_PREFIX);
  await updateShare(db, ref)
    .set({ contact_secret_hash: sha256(secret) })
    .execute();
  const token = contactUnsubscribeToken(settings.unsubscribeKey, row.contact_email);
  const words = CONTACT_WORDS[ref.kind];
  // Issue 46 §4: the friend is told who, by the sharer's first name when it is plainly a name.
  const sharer = await db.selectFrom('users').select('display_name').where('id', '=', ref.userId).executeTakeFirst();
  const who = mailableFirstName(sharer?.display_name ?? '');
  await sendMail(
    {
      to: row.contact_email,
      subject: who ? `${who}'s Buddy Match check-in went unanswered` : 'A Buddy Match check-in went unanswered',
      text: [
        'Hello,',
        '',
        `${who ?? 'Someone who uses Buddy Match'} named you as their trusted contact for ${words.meeting}, ` +
          'and asked us to write to you if they did not answer a check-in.',
        '',
        `They have not answered for ${minutesText(settings.answerSeconds)}. ${words.shown}`,
        '',
        `${settings.baseUrl}${sharePagePath(secret)}`,
        '',
        'They may simply not have seen the question. Try to reach them. If you believe they are in danger, ' +
          'call the local emergency number.',
        '',
        `We send this mail once for this ${ref.kind}, and no other mail unless someone names you again.`,
        `Never receive mail from Buddy Match at this address: ${settings.baseUrl}/mail/stop?token=${token}`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, token),
      messageId,
    },
    settings,
  );
}
