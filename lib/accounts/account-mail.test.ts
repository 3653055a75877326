import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accountCreatedNotice, escapeHtml, signinMail } from './account-mail';

const base = 'https://buddy.example';
const signinUrl = `${base}/signin/link?token=bm_sl_abc-DEF_123`;
const notMeUrl = `${base}/signin/not-me?token=bm_nm_xyz-789`;

const mails = {
  'sign-in mail at registration': signinMail({
    occasion: 'registration',
    signinUrl,
    signinMinutes: 60,
    notMeUrl,
    notMeDays: 30,
  }),
  'sign-in mail on request': signinMail({ occasion: 'request', signinUrl, signinMinutes: 60, notMeUrl, notMeDays: 30 }),
  'sign-in mail after a web signup': signinMail({
    occasion: 'web_signup',
    signinUrl,
    signinMinutes: 60,
    notMeUrl,
    notMeDays: 30,
  }),
  'account-created notice': accountCreatedNotice({ signinPageUrl: `${base}/signin`, notMeUrl, notMeDays: 30 }),
};

describe('account mails', () => {
  // Issue 46 §5: a person who signed up on the site themselves was told an AI assistant usually does it.
  it('say who made the account as it was made: an assistant, or the person on the website', () => {
    expect(mails['sign-in mail at registration'].text).toContain('usually by an AI assistant');
    const web = mails['sign-in mail after a web signup'];
    expect(web.text).toContain('created with this email address on the Buddy Match website');
    expect(`${web.text}${web.html}`).not.toMatch(/assistant/i);
  });

  it.each(Object.entries(mails))('%s: every link is ours and labelled with our words', (_name, mail) => {
    const urls = [...`${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${base}/`)).toBe(true);
    const anchors = [...mail.html!.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({
      href: m[1],
      label: m[2],
    }));
    expect(anchors.map((a) => a.label)).toEqual(expect.arrayContaining(['This wasn’t me']));
    for (const a of anchors) expect(['Sign in to Buddy Match', 'This wasn’t me']).toContain(a.label);
    expect(anchors.find((a) => a.label === 'This wasn’t me')!.href).toBe(notMeUrl);
    expect(mail.text).toContain(notMeUrl);
    expect(mail.text).toMatch(/works for 30 days/);
  });

  it('puts the sign-in link only in the sign-in mails', () => {
    expect(mails['sign-in mail at registration'].text).toContain(signinUrl);
    expect(mails['sign-in mail on request'].text).toContain(signinUrl);
    expect(mails['account-created notice'].text).not.toContain('/signin/link');
  });

  it('escapes whatever it interpolates into HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    fc.assert(
      fc.property(fc.string(), (value) => {
        const escaped = escapeHtml(value);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&(lt|gt|quot|#39|amp);/g, '')).not.toContain('&');
      }),
      { seed: 12, numRuns: 300 },
    );
    const mail = signinMail({
      occasion: 'request',
      signinUrl: `${base}/signin/link?token=a&b="c"`,
      signinMinutes: 60,
      notMeUrl,
      notMeDays: 30,
    });
    expect(mail.html).toContain('href="https://buddy.example/signin/link?token=a&amp;b=&quot;c&quot;"');
  });
});
