// The magic-link email: minted by the job (not the request) so no secret sits in the queue.
import type { Database } from '@/db';
import { sendMail, type MailSettings } from '../notifications/mail';
import { createSigninLink, SIGNIN_LINK_TTL_SECONDS } from './signin-links';

export async function sendMagicLinkMail(db: Database, userId: string, settings: MailSettings & { baseUrl: string }): Promise<void> {
  const user = await db.selectFrom('users').select(['email', 'display_name']).where('id', '=', userId).executeTakeFirst();
  if (!user) return; // deleted since: nothing to send
  const link = await createSigninLink(db, userId, 'email', settings.baseUrl);
  const minutes = Math.round(SIGNIN_LINK_TTL_SECONDS / 60);
  await sendMail(
    {
      to: user.email,
      subject: 'Your sign-in link',
      text: [
        `Hi ${user.display_name},`,
        '',
        `Sign in to your buddy account with this link (single use, valid for ${minutes} minutes):`,
        link.url,
        '',
        'If you did not ask for this, you can ignore this email.',
      ].join('\n'),
    },
    settings,
  );
}
