// Meetup mail: a seat given or offered, and reminders before the start. Fixed wording only, as
// the plan reminder mail (lib/plans/reminder-mail.ts): the security model keeps text another person
// chose (activity, place, names) out of mail, so it says when, on the recipient's clock, and links
// to the meetup on this site. Sent only while the person wants reminder mail (settings).
import type { Database } from '@/db';
import { type MailSettings, sendMail } from '../notifications/mail';
import { mailPreferences, oneClickUnsubscribeHeaders, unsubscribeToken } from '../notifications/mail-preferences';
import { mailWhen } from '../notifications/mail-time';

export interface MeetupMailJob extends Record<string, unknown> {
  userId: string;
  meetupId: string;
  event: 'promoted' | 'offered' | 'reminder';
}

export interface MeetupMailSettings extends MailSettings {
  baseUrl: string;
  unsubscribeKey: string;
}

const SUBJECTS: Record<MeetupMailJob['event'], string> = {
  promoted: 'A seat opened up: you are in',
  offered: 'A seat is yours if you take it in 30 minutes',
  reminder: 'Reminder: your Buddy Match meetup is coming up',
};

/** Sends one meetup mail, unless it no longer holds (the seat went, the meetup was cancelled) or mail is off. */
export async function sendMeetupMail(
  db: Database,
  job: MeetupMailJob,
  settings: MeetupMailSettings,
  messageId?: string,
) {
  const row = await db
    .selectFrom('meetups as m')
    .innerJoin('users as u', (join) => join.on('u.id', '=', job.userId))
    .leftJoin('meetup_attendees as a', (join) =>
      join.onRef('a.meetup_id', '=', 'm.id').on('a.user_id', '=', job.userId),
    )
    .select(['m.status', 'm.starts_at', 'm.host_id', 'u.email', 'u.timezone', 'a.status as attendee_status'])
    .where('m.id', '=', job.meetupId)
    .executeTakeFirst();
  if (row?.status !== 'open' || !row.email) return;
  const still =
    job.event === 'offered'
      ? row.attendee_status === 'offered'
      : row.attendee_status === 'confirmed' || (job.event === 'reminder' && row.host_id === job.userId);
  if (!still || new Date(row.starts_at).getTime() <= Date.now()) return;
  if (!(await mailPreferences(db, job.userId)).reminders) return;
  const when = mailWhen(new Date(row.starts_at), row.timezone);
  const link = `${settings.baseUrl}/account/meetups/${job.meetupId}`;
  const lines = {
    promoted: [`Someone left, and their seat is now yours: the meetup starts ${when}.`, `See it, or leave it: ${link}`],
    offered: [
      `A seat opened up in the meetup that starts ${when}. It is held for you for 30 minutes, then offered to the next person waiting.`,
      `Take it: ${link}`,
    ],
    reminder: [`Your meetup starts ${when}.`, `See what, where and who: ${link}`],
  }[job.event];
  await sendMail(
    {
      to: row.email,
      subject: SUBJECTS[job.event],
      text: ['Hello,', '', ...lines, '', `Stop this mail: ${settings.baseUrl}/account/settings`].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, unsubscribeToken(settings.unsubscribeKey, job.userId)),
      messageId,
    },
    settings,
  );
}
