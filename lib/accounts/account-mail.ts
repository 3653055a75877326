// The words of the account mails. Registration does not verify the address, so whoever
// registers chooses every field of the account (display name, agent name, slug, about
// text) and the mail goes to someone who may never have heard of them. So these mails
// carry no text from the account at all: not as link text, not as plain text a mail
// client might turn into a link ("Click here https://evil.example"), not in the subject.
// Every link is one of ours, labelled with our own words; the HTML part escapes
// everything it interpolates.
import type { MailMessage } from '../notifications/mail';

/** registration: an assistant's register call; web_signup: the person's own /signup form. */
export const SIGNIN_MAIL_OCCASIONS = ['registration', 'web_signup', 'request'] as const;
export type SigninMailOccasion = (typeof SIGNIN_MAIL_OCCASIONS)[number];

export interface SigninMailInput {
  occasion: SigninMailOccasion;
  signinUrl: string;
  signinMinutes: number;
  notMeUrl: string;
  notMeDays: number;
}

export interface AccountCreatedNoticeInput {
  /** Where a person asks for a sign-in link by email (our /signin page). */
  signinPageUrl: string;
  notMeUrl: string;
  notMeDays: number;
}

type Mail = Omit<MailMessage, 'to'>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const CREATED =
  'A Buddy Match account was just created with this email address, usually by an AI assistant acting for the owner of the address.';

/** How the sign-in mail begins, by why it was sent. */
const SIGNIN_OPENINGS: Record<SigninMailOccasion, string> = {
  registration: CREATED,
  // Issue 46 §5: a person who signed up on the site was told an assistant "usually" did it.
  web_signup: 'A Buddy Match account was just created with this email address on the Buddy Match website.',
  request: 'Someone asked for a link to sign in to the Buddy Match account of this email address.',
};

function notMeParagraph(days: number): string {
  return (
    'This wasn’t me: if you never signed up for Buddy Match, someone else used your address. ' +
    `Disable that account with the link below: whoever holds it loses it at once, and your address is free again. The link works for ${days} days.`
  );
}

function html(paragraphs: string[], links: { url: string; label: string; after: number }[]): string {
  const blocks = paragraphs.map((p, i) => {
    const link = links.find((l) => l.after === i);
    const anchor = link ? `\n<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : '';
    return `<p>${escapeHtml(p)}</p>${anchor}`;
  });
  return `<!doctype html>\n<html><body>\n${blocks.join('\n')}\n</body></html>\n`;
}

/** The sign-in mail: a single-use sign-in link, and the "This wasn't me" link. */
export function signinMail(input: SigninMailInput): Mail {
  const opening = SIGNIN_OPENINGS[input.occasion];
  const signin = `Sign in with this link (single use, valid for ${input.signinMinutes} minutes):`;
  const ignore =
    'If you did not ask for a sign-in link but did sign up, you can ignore this email: the link is no use to anyone who cannot read your mail.';
  const notMe = notMeParagraph(input.notMeDays);
  return {
    subject: 'Your sign-in link',
    text: ['Hello,', '', opening, '', signin, input.signinUrl, '', ignore, '', notMe, input.notMeUrl, ''].join('\n'),
    html: html(
      ['Hello,', opening, signin, ignore, notMe],
      [
        { url: input.signinUrl, label: 'Sign in to Buddy Match', after: 2 },
        { url: input.notMeUrl, label: 'This wasn’t me', after: 4 },
      ],
    ),
  };
}

/**
 * Sent at registration when the agent asked not to email the sign-in link
 * (emailMagicLink: false): no sign-in link, but the owner of the address still learns
 * of the account and can disown it.
 */
export function accountCreatedNotice(input: AccountCreatedNoticeInput): Mail {
  const signin = `The assistant that created it was given the sign-in link. To get one by email instead, use “Email me a sign-in link” on ${input.signinPageUrl}`;
  const notMe = notMeParagraph(input.notMeDays);
  return {
    subject: 'A Buddy Match account was created with your email address',
    text: ['Hello,', '', CREATED, '', signin, '', notMe, input.notMeUrl, ''].join('\n'),
    html: html(['Hello,', CREATED, signin, notMe], [{ url: input.notMeUrl, label: 'This wasn’t me', after: 3 }]),
  };
}
