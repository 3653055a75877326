// The reminder mail (issue 29 §5). Fixed wording only: the security model (docs/security.md) keeps
// text another person chose (activity, place, their name) out of mail, so it says when,
// in the recipient's own zone, and links to the plan on this site, where the rest is shown.
import type { Database } from '@/db';
import { type MailSettings, sendMail } from '../notifications/mail';
import { mailPreferences, oneClickUnsubscribeHeaders, unsubscribeToken } from '../notifications/mail-preferences';
import { mailWhen } from '../notifications/mail-time';

export interface ReminderMailSettings extends MailSettings {
  baseUrl: string;
  unsubscribeKey: string;
}

function leadText(minutes: number): string {
  if (minutes % (24 * 60) === 0) return minutes === 24 * 60 ? 'tomorrow' : `in ${minutes / (24 * 60)} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'in 1 hour' : `in ${minutes / 60} hours`;
  return `in ${minutes} minutes`;
}

/** Sends one reminder's mail, unless the plan is no longer confirmed or the person turned reminder mail off. */
export async function sendReminderMail(
  db: Database,
  reminderId: string,
  settings: ReminderMailSettings,
  messageId?: string,
) {
  const row = await db
    .selectFrom('plan_reminders as r')
    .innerJoin('plans as p', 'p.id', 'r.plan_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.user_id', 'r.plan_id', 'r.offset_minutes', 'p.status', 'p.starts_at', 'u.email', 'u.timezone'])
    .where('r.id', '=', reminderId)
    .executeTakeFirst();
  if (row?.status !== 'confirmed' || !row.email) return;
  if (!(await mailPreferences(db, row.user_id)).reminders) return;
  const when = mailWhen(new Date(row.starts_at), row.timezone);
  await sendMail(
    {
      to: row.email,
      subject: `Reminder: your Buddy Match plan is ${leadText(row.offset_minutes)}`,
      text: [
        'Hello,',
        '',
        `Your plan with your buddy starts ${when}.`,
        '',
        `See what, where and with whom, add it to your calendar or cancel it: ${settings.baseUrl}/account/chats`,
        '',
        `Stop reminder mail: ${settings.baseUrl}/account/settings`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, unsubscribeToken(settings.unsubscribeKey, row.user_id)),
      messageId,
    },
    settings,
  );
}
