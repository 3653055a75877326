// The account mails, minted by the job (not the request) so no secret sits in the queue:
// the sign-in mail (registration, "email me a link") and, when registration was asked not
// to email the sign-in link, a notice that the account exists. Both carry a "This wasn't
// me" link (lib/accounts/not-me-links.ts). A disabled account is sent nothing.
import type { Database } from '@/db';
import { sendMail, type MailSettings } from '../notifications/mail';
import { accountCreatedNotice, signinMail, type SigninMailOccasion } from './account-mail';
import { createNotMeLink, NOT_ME_LINK_TTL_SECONDS } from './not-me-links';
import { createSigninLink, SIGNIN_LINK_TTL_SECONDS } from './signin-links';

type AccountMailSettings = MailSettings & { baseUrl: string };

/** The recipient, if the account still exists and is not disabled. Only the address: nothing the registrant chose goes into a mail. */
async function liveRecipient(db: Database, userId: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return user?.email ?? null;
}

const days = (seconds: number) => Math.round(seconds / 86_400);

export async function sendMagicLinkMail(
  db: Database,
  userId: string,
  settings: AccountMailSettings,
  occasion: SigninMailOccasion = 'request',
  messageId?: string,
): Promise<void> {
  const to = await liveRecipient(db, userId);
  if (!to) return; // deleted or disabled since: nothing to send
  const link = await createSigninLink(db, userId, 'email', settings.baseUrl);
  const notMe = await createNotMeLink(db, userId, settings.baseUrl);
  const mail = signinMail({
    occasion,
    signinUrl: link.url,
    signinMinutes: Math.round(SIGNIN_LINK_TTL_SECONDS / 60),
    notMeUrl: notMe.url,
    notMeDays: days(notMe.expiresInSeconds),
  });
  await sendMail({ to, ...mail, messageId }, settings);
}

export async function sendAccountCreatedNotice(
  db: Database,
  userId: string,
  settings: AccountMailSettings,
  messageId?: string,
): Promise<void> {
  const to = await liveRecipient(db, userId);
  if (!to) return;
  const notMe = await createNotMeLink(db, userId, settings.baseUrl);
  const mail = accountCreatedNotice({
    signinPageUrl: `${settings.baseUrl}/signin`,
    notMeUrl: notMe.url,
    notMeDays: days(NOT_ME_LINK_TTL_SECONDS),
  });
  await sendMail({ to, ...mail, messageId }, settings);
}
