// Issue 12, section 5, as a person meets it: "This wasn't me" from the mail, the
// first-sign-in question about assistants, and "revoke all" when changing the password.
import { Client } from 'pg';
import {
  baseUrl,
  expect,
  expectAccessible,
  isDesktop,
  notMeLinkIn,
  outboxLink,
  PASSWORD,
  register,
  screenshot,
  signIn,
  test,
} from './support';

const me = (request: import('@playwright/test').APIRequestContext, token: string) =>
  request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${token}` } });

async function sql(text: string, values: unknown[]) {
  const db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query(text, values);
  } finally {
    await db.end();
  }
}

test('"This wasn\'t me" from the sign-in mail disables the account a stranger made @phone', async ({
  page,
  request,
}, testInfo) => {
  const attacker = await register(request, {
    displayName: 'Click here https://evil.example',
    agentName: '<a href="https://evil.example">Sign in</a>',
    emailMagicLink: true,
  });
  let mail = '';
  const link = await outboxLink(attacker.email, new Set(), (raw) => {
    mail = raw;
    return notMeLinkIn(raw);
  });
  expect(mail).not.toMatch(/evil|Click here/i);
  expect(link.startsWith(`${baseUrl()}/signin/not-me?token=`)).toBe(true);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Disable this Buddy Match account?');
  await expect(page.getByText(attacker.email)).toBeVisible();
  await expect(page.getByText('evil.example')).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'not-me-confirm');
  expect((await me(request, attacker.token)).status(), 'opening the page must not act').toBe(200);

  await page.getByRole('button', { name: 'Disable this account' }).click();
  await page.waitForURL(/\/signin\/not-me\?token=.*&done=1$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The account is disabled');
  await expect(page.getByRole('status')).toContainText(
    'Done. The account that was made with your email address is disabled',
  );
  await expect(
    page.getByText('every assistant’s access is revoked and every signed-in browser is signed out'),
  ).toBeVisible();
  await expect(page.getByText('Your email address is free again')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'not-me-done');

  const refused = await me(request, attacker.token);
  expect(refused.status()).toBe(401);
  expect((await page.goto(attacker.profileUrl))!.status()).toBe(404);

  // The same link again: nothing more to do, and the page says so.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has already been used');
  await expect(page.getByRole('status')).toContainText('The account it was sent about is disabled');
  await expect(page.getByRole('button', { name: 'Disable this account' })).toHaveCount(0);
});

test.describe('on the desktop', () => {
  test.beforeEach(({}, testInfo) =>
    test.skip(!isDesktop(testInfo), 'the flows once; the "This wasn\'t me" page is checked at phone size above'),
  );

  test('a used-up, unknown or expired "This wasn\'t me" link explains itself and offers a fresh email', async ({
    page,
    request,
  }, testInfo) => {
    await page.goto(`${baseUrl()}/signin/not-me?token=bm_nm_not-a-real-link`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link isn’t valid');
    await expect(page.getByText('Nothing was changed.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Email me a sign-in link' })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, testInfo, 'not-me-unknown');

    const user = await register(request, { displayName: 'Late Reader', emailMagicLink: true });
    const link = await outboxLink(user.email, new Set(), notMeLinkIn);
    const token = new URL(link).searchParams.get('token')!;
    await sql(
      `update not_me_links set expires_at = now() - interval '1 second' where token_hash = sha256(convert_to($1, 'UTF8'))`,
      [token],
    );
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has expired');
    await expect(page.getByText('“This wasn’t me” links work for 30 days. Nothing was changed.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Disable this account' })).toHaveCount(0);
    await expectAccessible(page);
    expect((await me(request, user.token)).status()).toBe(200);
  });

  test('on first sign-in the person keeps or revokes each assistant that holds a token', async ({
    page,
    request,
  }, testInfo) => {
    const user = await register(request, { displayName: 'Fran First', agentName: 'HelperBot' });
    // A second token: the mobile link traded for an app token (someone else may hold the link).
    const exchanged = await request.post(`${baseUrl()}/api/v1/signin/link.json`, {
      data: { token: new URL(user.signinUrl).searchParams.get('token') },
    });
    expect(exchanged.status()).toBe(200);
    const appToken = (await exchanged.json()).auth.token as string;

    await signIn(page, user.email);
    const banner = page.getByRole('region', { name: 'Check who can act for you' });
    await expect(banner).toContainText('2 assistants hold access to your account');
    await expectAccessible(page);
    await banner.getByRole('link', { name: 'Review your assistants' }).click();
    await page.waitForURL('**/account/agents');

    const prompt = page.getByRole('region', { name: 'Do you know these assistants?' });
    const items = prompt.getByRole('list', { name: 'Assistants to confirm' }).getByRole('listitem');
    await expect(items).toHaveCount(2);
    const helper = items.filter({
      has: page.getByRole('heading', { name: 'HelperBot (key given when it created your account)' }),
    });
    const app = items.filter({ has: page.getByRole('heading', { name: 'Signed in to the mobile app' }) });
    await expect(helper).toContainText('Full access');
    await expect(helper).toContainText('Last used');
    await expect(app).toContainText('Created');
    await expectAccessible(page);
    await screenshot(page, testInfo, 'confirm-assistants');

    await app.getByRole('button', { name: /^Revoke Signed in to the mobile app/ }).click();
    await expect(items).toHaveCount(1);
    expect((await me(request, appToken)).status()).toBe(401);
    expect((await me(request, user.token)).status()).toBe(200);

    await helper.getByRole('button', { name: /^Keep HelperBot/ }).click();
    await expect(prompt).toHaveCount(0);
    expect((await me(request, user.token)).status()).toBe(200);
    // What each assistant did is still there below.
    const helperEntry = page
      .getByRole('list', { name: 'Your assistants' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'HelperBot' }) });
    await expect(helperEntry.getByRole('list', { name: 'What HelperBot did' })).toHaveText('Created your account');

    await page.goto(`${baseUrl()}/account`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Fran First');
    await expect(page.getByRole('region', { name: 'Check who can act for you' })).toHaveCount(0);
    const tokens = await (
      await request.get(`${baseUrl()}/api/v1/me/tokens.json`, { headers: { authorization: `Bearer ${user.token}` } })
    ).json();
    const kept = tokens.tokens.find((t: { label: string }) => t.label === 'registration');
    expect(kept.confirmed_at).not.toBeNull();
  });

  // Issue 46 §2: the notice sits below what the person came for, and "Not now" keeps it away until a
  // newer assistant holds access.
  test('the home screen tells of assistants once, below the rest; Not now keeps it away until a new one', async ({
    page,
    request,
  }) => {
    const user = await register(request, { displayName: 'Nina Notice', agentName: 'NoticeBot' });
    await signIn(page, user.email);
    const notice = page.getByRole('region', { name: 'Check who can act for you' });
    await expect(notice).toContainText('An assistant holds access to your account');
    // Below what the person came for (here, finishing their profile), not above it.
    const order = await page.locator('h2').allTextContents();
    expect(order.indexOf('Finish your profile')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('Check who can act for you')).toBeGreaterThan(order.indexOf('Finish your profile'));
    await notice.getByRole('button', { name: 'Not now' }).click();
    await expect(notice).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Nina Notice');
    await expect(notice).toHaveCount(0);
    // A new assistant: the mobile link traded for an app token brings it back, naming both.
    const exchanged = await request.post(`${baseUrl()}/api/v1/signin/link.json`, {
      data: { token: new URL(user.signinUrl).searchParams.get('token') },
    });
    expect(exchanged.status()).toBe(200);
    await page.reload();
    await expect(notice).toContainText('2 assistants hold access to your account');
  });

  test('changing the password can sign out everywhere and revoke every assistant token', async ({ page, request }) => {
    const user = await register(request, { displayName: 'Rita Revoke', agentName: 'OldBot' });
    await signIn(page, user.email, PASSWORD, '/account/password');
    const submit = async (current: string, next: string) => {
      await page.getByLabel('Current password').fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('New password again').fill(next);
      await page.getByRole('button', { name: 'Change password' }).click();
    };
    const revokeAll = page.getByRole('checkbox', { name: 'Sign out everywhere and revoke all assistant tokens' });

    // Box not ticked: the password changes, assistants keep their access, and the page says so.
    await expect(revokeAll).not.toBeChecked();
    await submit(PASSWORD, 'first new passphrase');
    await expect(page.getByRole('status').filter({ hasText: 'Your password is changed.' })).toContainText(
      'Assistants keep their access',
    );
    expect((await me(request, user.token)).status()).toBe(200);

    // Ticked, but the current password is wrong: nothing happens, tokens still work.
    await revokeAll.check();
    await submit('not my password', 'second new passphrase');
    await expect(page.getByRole('alert').filter({ hasText: 'The current password is not correct' })).toBeVisible();
    expect((await me(request, user.token)).status()).toBe(200);

    await revokeAll.check();
    await expectAccessible(page);
    await submit('first new passphrase', 'second new passphrase');
    await expect(page.getByRole('status').filter({ hasText: 'Your password is changed.' })).toContainText(
      'The one assistant token was revoked: no assistant can act for you until it is given access again.',
    );
    expect((await me(request, user.token)).status()).toBe(401);
    // This browser stays signed in.
    // The old tokens page leads to Connected assistants.
    await page.goto(`${baseUrl()}/account/tokens`);
    await page.waitForURL('**/account/agents');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connected assistants');
    await expect(page.getByText('No assistant can act for you now.')).toBeVisible();
  });
});
