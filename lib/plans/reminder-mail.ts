// The reminder mail (issue 29 §5; issue 46 §5: it has to be worth reading). It names what and with
// whom only in words this service vouches for: the activity as the catalog names it (never the
// proposer's own text) and the buddy's first name when it is a plain name (else "your buddy"), so no
// chosen text can turn the mail into someone else's message (docs/security.md). It says when, in the
// recipient's own zone, links to the plan's page, and carries the plan as an .ics in the same words
// (the same UID and SEQUENCE as the page's file, so a calendar keeps one event; the place is on the page).
import type { Database } from '@/db';
import { getActivity, matchActivity } from '../activities';
import { type MailSettings, sendMail } from '../notifications/mail';
import { mailPreferences, oneClickUnsubscribeHeaders, unsubscribeToken } from '../notifications/mail-preferences';
import { mailWhen } from '../notifications/mail-time';
import { mailableFirstName } from '../notifications/mail-names';
import { calendarSequence, eventsCalendar, ICalEventStatus, icsFileName, planPageUrl } from './calendar';

export interface ReminderMailSettings extends MailSettings {
  baseUrl: string;
  unsubscribeKey: string;
}

function leadText(minutes: number): string {
  if (minutes % (24 * 60) === 0) return minutes === 24 * 60 ? 'tomorrow' : `in ${minutes / (24 * 60)} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'in 1 hour' : `in ${minutes / 60} hours`;
  return `in ${minutes} minutes`;
}

/** The activity as the catalog names it ("Rock climbing"), when the plan's words are one of its activities. */
export function catalogActivityName(activity: string): string | null {
  const id = matchActivity(activity);
  return id ? (getActivity(id)?.name ?? null) : null;
}

/** "Rock climbing with Ana", "Rock climbing with your buddy", "your plan with Ana" or "your plan with your buddy". */
export function reminderWhat(activity: string, buddyName: string): { subject: string; sentence: string } {
  const name = catalogActivityName(activity);
  const buddy = mailableFirstName(buddyName) ?? 'your buddy';
  return name
    ? { subject: `${name.toLowerCase()} with ${buddy}`, sentence: `${name} with ${buddy}` }
    : { subject: `your plan with ${buddy}`, sentence: `Your plan with ${buddy}` };
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
    .innerJoin('users as buddy', (join) =>
      join.on((eb) =>
        eb(
          'buddy.id',
          '=',
          eb
            .case()
            .when('p.proposer_id', '=', eb.ref('r.user_id'))
            .then(eb.ref('p.recipient_id'))
            .else(eb.ref('p.proposer_id'))
            .end(),
        ),
      ),
    )
    .select([
      'r.user_id',
      'r.plan_id',
      'r.offset_minutes',
      'p.status',
      'p.starts_at',
      'p.activity',
      'p.ends_at',
      'p.calendar_uid',
      'p.sequence',
      'u.email',
      'u.timezone',
      'buddy.display_name as buddy_name',
    ])
    .where('r.id', '=', reminderId)
    .executeTakeFirst();
  if (row?.status !== 'confirmed' || !row.email) return;
  if (!(await mailPreferences(db, row.user_id)).reminders) return;
  const when = mailWhen(new Date(row.starts_at), row.timezone);
  const what = reminderWhat(row.activity, row.buddy_name ?? '');
  const calendar = {
    filename: icsFileName(what.sentence, row.starts_at),
    ics: eventsCalendar(
      [
        {
          uid: row.calendar_uid,
          sequence: calendarSequence({ sequence: row.sequence, status: 'confirmed' }),
          status: ICalEventStatus.CONFIRMED,
          start: new Date(row.starts_at),
          end: new Date(row.ends_at),
          summary: what.sentence,
          url: planPageUrl(settings.baseUrl, row.plan_id),
        },
      ],
      { host: new URL(settings.baseUrl).hostname, name: 'Buddy Match' },
    ),
  };
  await sendMail(
    {
      to: row.email,
      subject: `Reminder: ${what.subject}, ${leadText(row.offset_minutes)}`,
      text: [
        'Hello,',
        '',
        `${what.sentence} starts ${when}.`,
        '',
        `Where, the details, or to cancel: ${planPageUrl(settings.baseUrl, row.plan_id)}`,
        '',
        'It is attached for your calendar.',
        '',
        `Stop reminder mail: ${settings.baseUrl}/account/settings`,
      ].join('\n'),
      headers: oneClickUnsubscribeHeaders(settings.baseUrl, unsubscribeToken(settings.unsubscribeKey, row.user_id)),
      messageId,
      ...(calendar
        ? {
            attachments: [
              {
                filename: calendar.filename,
                content: calendar.ics,
                contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
              },
            ],
          }
        : {}),
    },
    settings,
  );
}
