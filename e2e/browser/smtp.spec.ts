// The emailed magic link through a real SMTP conversation: a second stack sends its
// mail to an smtp-server sink started here, and the test signs in with what arrived.
import { type SinkMail, type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { startStack, type Stack } from '../support/stack';
import { expect, expectAccessible, freshIp, isDesktop, notMeLinkIn, register, signinLinkIn, test } from './support';

test.describe('magic link by SMTP', () => {
  test.describe.configure({ timeout: 180_000 });
  let sink: SmtpSink | undefined;
  let stack: Stack;
  const inbox = (): SinkMail[] => sink?.mails ?? [];

  test.beforeAll(async ({}, testInfo) => {
    if (!isDesktop(testInfo)) return;
    // A stack of its own (a PostgreSQL and a server): the 30 s hook default ran out at load 7.
    testInfo.setTimeout(120_000);
    sink = await startSmtpSink();
    stack = await startStack({ SMTP_URL: sink.url, MAIL_FROM: 'buddies@example.com' });
  });

  test.afterAll(async () => {
    await stack?.stop();
    await sink?.close();
  });

  async function mailTo(email: string, skip = 0): Promise<SinkMail> {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const found = inbox().filter((m) => m.to.includes(email));
      if (found.length > skip) return found[skip]!;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no mail to ${email} reached the SMTP sink`);
  }

  test('registration mails a link that signs the person in, and "email me a link" sends another', async ({
    page,
    request,
  }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one stack with SMTP is enough');
    const user = await register(request, { displayName: 'Sasha Smtp', emailMagicLink: true }, stack.baseUrl);

    const first = await mailTo(user.email);
    expect(first.raw).toMatch(/^From: buddies@example\.com/m);
    expect(first.raw).toMatch(/^Subject: Your sign-in link/m);
    const link = signinLinkIn(first.raw)!;
    expect(link.startsWith(`${stack.baseUrl}/signin/link?token=`)).toBe(true);
    expect(link).not.toBe(user.signinUrl); // its own single-use link, not the one the agent got
    // The owner of the address can disown an account they never made, from the same mail.
    expect(notMeLinkIn(first.raw)!.startsWith(`${stack.baseUrl}/signin/not-me?token=bm_nm_`)).toBe(true);
    expect(first.raw).toMatch(/^Content-Type: multipart\/alternative/m);

    await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.baseUrl}/account`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Sasha Smtp');
    await expectAccessible(page);

    // Sign out (in Settings, behind the photo), then ask for a new link from the sign-in page.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin?signedOut=1');
    await page.getByRole('textbox', { name: 'Email' }).last().fill(user.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.waitForURL('**/signin/check-email');
    const second = await mailTo(user.email, 1);
    const again = signinLinkIn(second.raw)!;
    expect(again).not.toBe(link);
    await page.goto(again);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${stack.baseUrl}/account`);
  });
});
