// Signing in from the links the API hands out, by email link and by password.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import {
  baseUrl,
  expect,
  expectAccessible,
  freshIp,
  isDesktop,
  outboxLink,
  register,
  screenshot,
  signInWithForm,
  test,
  watchPage,
  PASSWORD,
} from './support';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

test.describe('the mobile sign-in link', () => {
  test('first use signs in, a second use explains and offers a new link @phone', async ({
    browser,
    request,
    problems,
  }, testInfo) => {
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
    // Issue 31 §1: no app is named (APP_LINK_URL unset), so even an iPhone gets no buddymatch:// button,
    // the dead end Safari calls "address is invalid": "Continue" is the one way on.
    await expect(page.getByRole('link', { name: /Buddy Match app/ })).toHaveCount(0);
    await expect(page.locator(`a[href*="${token}"]`)).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('button')).toHaveText(['Continue']);
    await expectAccessible(page);
    await screenshot(page, testInfo, 'signin-link-valid');

    await page.getByRole('button', { name: 'Continue' }).click();
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
    await page.getByRole('button', { name: 'Continue' }).click();
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
    const paused = page.getByRole('alert').filter({ hasText: 'Too many wrong passwords' });
    await expect(paused).toBeVisible();
    await expect(paused).toContainText(/Try again in 1[45] minutes\./);
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
    // Sign out lives in Settings, behind the person's photo.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin?signedOut=1');
    await expect(page.getByRole('status')).toContainText('You’re signed out');
    await page.goto(`${baseUrl()}/account/profile`);
    await page.waitForURL('**/signin?callbackUrl=%2Faccount%2Fprofile');
  });
});

test.describe('return paths', () => {
  test('a signed-in visitor sent to /signin with an off-site callbackUrl stays on the site', async ({
    browser,
    request,
    problems,
  }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': freshIp() } });
    const page = watchPage(await context.newPage(), problems);
    const user = await register(request, { displayName: 'Reese Redirect' });
    await signInWithForm(page, user.email);
    const site = new URL(baseUrl()).origin;

    // What the attack relies on: Chromium drops a tab in a URL, so "/<tab>/evil.example" is another host.
    expect(await page.evaluate(() => new URL('/\t/evil.example', location.href).host)).toBe('evil.example');

    for (const callbackUrl of [
      '/%09/evil.example',
      '/%0a/evil.example',
      '/%5Cevil.example',
      '%2F%2Fevil.example',
      '/%252F/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ]) {
      await page.goto(`${baseUrl()}/signin?callbackUrl=${callbackUrl}`);
      await page.waitForURL(`${site}/account`);
      expect(new URL(page.url()).origin, callbackUrl).toBe(site);
    }
    // A path of our own, with its query, is followed.
    await page.goto(`${baseUrl()}/signin?callbackUrl=${encodeURIComponent('/account/profile?from=signin')}`);
    await page.waitForURL(`${site}/account/profile?from=signin`);
    await context.close();
  });

  test('signing in from a link with an off-site callbackUrl lands on /account', async ({
    browser,
    request,
    problems,
  }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': freshIp() } });
    const page = watchPage(await context.newPage(), problems);
    const user = await register(request, { displayName: 'Tab Trap' });
    await page.goto(`${baseUrl()}/signin?callbackUrl=/%09/evil.example`);
    await page.getByLabel('Email', { exact: true }).first().fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${new URL(baseUrl()).origin}/account`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Tab Trap');
    await context.close();
  });
});

test.describe('the client address in server actions', () => {
  test('a wrong current password on the password page is counted under the browser’s own address', async ({
    browser,
    request,
    problems,
  }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    const ip = freshIp();
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': ip } });
    const page = watchPage(await context.newPage(), problems);
    const user = await register(request, { displayName: 'Ada Address' });
    await signInWithForm(page, user.email);
    await page.goto(`${baseUrl()}/account/password`);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('New password again').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('region', { name: 'Change password' }).getByRole('alert')).toContainText('not correct');

    const db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ ip: string }>(
        `select ip from auth_attempts where kind = 'password_failure' and account_key = $1`,
        [user.email.toLowerCase()],
      );
      expect(rows.map((r) => r.ip)).toEqual([ip]);
    } finally {
      await db.end();
    }
    const log = fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, 'server.log'), 'utf8');
    expect(log).not.toContain('client_ip_unverified');
    await context.close();
  });
});

test.describe('web signup', () => {
  test('issue 30: a retry after the account was made sends a sign-in link at once, and says so', async ({
    page,
    request,
  }, testInfo) => {
    test.skip(!isDesktop(testInfo), 'one viewport is enough for this flow');
    test.setTimeout(90_000);
    // The first submit created the account, and its answer never arrived.
    const user = await register(request, { displayName: 'Ivy Interrupted' });
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
    await page.goto(`${baseUrl()}/signup`);
    await page.getByLabel('Email (required)').fill(user.email);
    await page.getByLabel('Name (required)').fill('Ivy Interrupted');
    await page.getByLabel('Activities').fill('hiking');
    await page.getByLabel('When you are free').fill('weekends');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect(
      page.getByRole('heading', { name: 'This email already has an account — we’ve sent a sign-in link to it' }),
    ).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, testInfo, 'signup-retry-link-sent');
    await page.goto(await outboxLink(user.email));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Ivy Interrupted');
  });
});
