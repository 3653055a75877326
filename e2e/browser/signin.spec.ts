// Signing in from the links the API hands out, by email link and by password.
import { baseUrl, expect, expectAccessible, freshIp, isDesktop, outboxLink, register, screenshot, signInWithForm, test, watchPage, PASSWORD } from './support';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test.describe('the mobile sign-in link', () => {
  test('first use signs in, a second use explains and offers a new link', async ({ browser, request, problems }, testInfo) => {
    const phone = !isDesktop(testInfo);
    const context = await browser.newContext({
      ...(phone ? { userAgent: IPHONE_UA, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
      extraHTTPHeaders: { 'x-forwarded-for': freshIp() },
    });
    const page = watchPage(await context.newPage(), problems);
    const user = await register(request, { displayName: 'Mika Mobile' });
    const token = new URL(user.signinUrl).searchParams.get('token')!;

    await page.goto(user.signinUrl);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Buddy Match');
    await expect(page.getByText('This link signs you in as Mika Mobile')).toBeVisible();
    const appLink = page.getByRole('link', { name: 'Open in the Buddy Match app' });
    if (phone) {
      await expect(appLink).toHaveAttribute('href', `buddymatch://signin?token=${token}`);
    } else {
      await expect(appLink).toHaveCount(0);
    }
    await expectAccessible(page);
    await screenshot(page, testInfo, 'signin-link-valid');

    await page.getByRole('button', { name: phone ? 'Continue in this browser' : 'Sign in' }).click();
    await page.waitForURL('**/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Mika Mobile');

    // The same link again, in a fresh browser: it explains instead of signing in.
    const fresh = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': freshIp() } });
    const again = watchPage(await fresh.newPage(), problems);
    await again.goto(user.signinUrl);
    await expect(again.getByRole('heading', { level: 1 })).toHaveText('This sign-in link has already been used');
    await expect(again.getByRole('button', { name: 'Email me a sign-in link' })).toBeVisible();
    await expectAccessible(again);
    await screenshot(again, testInfo, 'signin-link-used');
    await again.goto(`${baseUrl()}/account`);
    await again.waitForURL('**/signin?callbackUrl=%2Faccount');
    await fresh.close();
    await context.close();
  });

  test('an expired link explains, and its form emails a fresh link that works', async ({ page, request }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    const user = await register(request, { displayName: 'Ezra Expired' });
    await page.goto(`${user.signinUrl.replace(/token=.*/, 'token=bm_sl_not-a-real-link')}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This sign-in link isn’t valid');

    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.waitForURL('**/signin/check-email');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your email');
    await expectAccessible(page);
    await screenshot(page, testInfo, 'check-email');

    const link = await outboxLink(user.email);
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Ezra Expired');
  });
});

test.describe('password sign-in', () => {
  test('signs in, and pauses after five wrong passwords', async ({ browser, request, problems }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': freshIp() } });
    const page = watchPage(await context.newPage(), problems);
    const user = await register(request, { displayName: 'Pat Password' });

    await page.goto(`${baseUrl()}/signin`);
    await expectAccessible(page);
    await screenshot(page, testInfo, 'signin');

    const attempt = async (password: string) => {
      await page.getByLabel('Email', { exact: true }).first().fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      // Wait for the page Auth.js redirects back to, not the alert still on the old page.
      const landed = page.waitForResponse((r) => r.url().includes('/signin?') && r.request().method() === 'GET');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await landed;
    };
    for (let i = 1; i <= 5; i++) {
      await attempt(`wrong password ${i}`);
      await expect(page.getByRole('alert').filter({ hasText: 'That email and password don’t match' })).toBeVisible();
    }
    await attempt(PASSWORD);
    await expect(page.getByRole('alert').filter({ hasText: 'Too many wrong passwords' })).toBeVisible();
    await expect(page).toHaveURL(/code=rate_limited/);
    await expectAccessible(page);
    await screenshot(page, testInfo, 'signin-rate-limited');

    // Another account from the same browser is not affected by this account's pause.
    const other = await register(request, { displayName: 'Quinn Other' });
    await signInWithForm(page, other.email);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Quinn Other');
    await context.close();
  });

  test('signs out', async ({ page, request }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    const user = await register(request, { displayName: 'Sam Signout' });
    await signInWithForm(page, user.email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin?signedOut=1');
    await expect(page.getByRole('status')).toContainText('You’re signed out');
    await page.goto(`${baseUrl()}/account/profile`);
    await page.waitForURL('**/signin?callbackUrl=%2Faccount%2Fprofile');
  });
});
