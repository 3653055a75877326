// Issue 17 §5, human words where people look: bad input on every form page is answered
// in sentences a person would say (never zod's "Too small: expected string to have >=1
// characters"), focus moves to the error summary after a refused submit, and a
// successful one shows "Saved" by its button. At both widths, with axe, under the
// strict CSP (the fixture fails a test on any violation).
import type { Page } from '@playwright/test';
import { signupLink } from '@/lib/signup-link';
import { baseUrl, expect, expectAccessible, freshIp, PASSWORD, register, screenshot, signIn, test } from './support';

// Registration and password checks hash with a memory-hard hash: answers can take seconds.
const ANSWER = { timeout: 20_000 };
test.describe.configure({ timeout: 90_000 });

/** What a validator says when nobody wrote its words (zod's defaults and codes). */
const RAW_VALIDATOR_TEXT =
  /expected|received|>=|<=|Invalid input|Too small|Too big|Unrecognized key|invalid_type|invalid_format|nonoptional|\bNaN\b|\bundefined\b/i;

async function expectNoRawValidatorText(page: Page) {
  // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees (innerText skips hidden nodes), not the DOM's
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(RAW_VALIDATOR_TEXT);
}

/** Lets a form post what the browser's own checks (required, minlength, type=email) would stop, as a script or old browser can. */
async function skipBrowserChecks(page: Page) {
  await page.evaluate(() =>
    document.querySelectorAll('form').forEach((form) => {
      form.noValidate = true;
    }),
  );
}

const young = () => new Date(Date.now() - 5 * 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);

test('profile editor: refusals in words with focus on the summary; a save says Saved by the button', async ({
  page,
  request,
}, testInfo) => {
  const user = await register(request, { displayName: 'Wendy Words', location: 'Lisbon' });
  await signIn(page, user.email, PASSWORD, '/account/profile');

  await page.getByLabel('Name').fill('');
  await page.getByLabel('Birthday').fill(young());
  await page.getByRole('button', { name: 'Save profile' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please fix the fields marked below.' });
  await expect(summary).toBeFocused();
  await expect(summary.getByRole('link', { name: 'Name: Enter your name' })).toBeVisible();
  await expect(summary.getByRole('link', { name: 'Birthday: You need to be 13 or older' })).toBeVisible();
  await expect(page.locator('#profile-displayName-error')).toHaveText('Enter your name');
  await expectNoRawValidatorText(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'words-profile-errors');

  // The summary's link takes the person to the field.
  await summary.getByRole('link', { name: 'Name: Enter your name' }).click();
  await expect(page.getByLabel('Name')).toBeFocused();

  await page.getByLabel('Name').fill('Wendy');
  await page.getByLabel('Birthday').fill('1990-04-21');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  const me = await (
    await request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } })
  ).json();
  expect(me.profile).toMatchObject({ displayName: 'Wendy', birthday: '1990-04-21' });
  // Editing again takes the notice away: it spoke of the last save.
  await page.getByLabel('About you').fill('Hi');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toHaveCount(0);
  await expectAccessible(page);
});

test('password form: refusals in words with focus on the summary; a change says so by the button', async ({
  page,
  request,
}, testInfo) => {
  const user = await register(request, { displayName: 'Pat Words' });
  await signIn(page, user.email, PASSWORD, '/account/password');
  await skipBrowserChecks(page);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('New password again').fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please fix the fields marked below.' });
  await expect(summary).toBeFocused(ANSWER);
  await expect(summary.getByRole('link', { name: 'Current password: Enter your current password' })).toBeVisible();
  await expect(
    summary.getByRole('link', { name: 'New password: Use at least 8 characters for the new password' }),
  ).toBeVisible();
  await expectNoRawValidatorText(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'words-password-errors');

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('a fresh long passphrase');
  await page.getByLabel('New password again').fill('a fresh long passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible(ANSWER);
  await expect(page.getByText('Your password is changed.')).toBeVisible();
});

test('sign-in: a refused password and a malformed email are said in words, with focus on them', async ({
  page,
  request,
}) => {
  const user = await register(request, { displayName: 'Sid Words' });
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  await page.goto(`${baseUrl()}/signin`);
  await page.getByLabel('Email', { exact: true }).first().fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That email and password don’t match' })).toBeFocused(ANSWER);
  await expectNoRawValidatorText(page);
  await expectAccessible(page);

  // A malformed address for a link is stopped by the browser with its own words (the
  // server answers any address alike, so nobody learns which ones have accounts).
  const linkEmail = page.locator('#link-email');
  await linkEmail.fill('not an email');
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page).toHaveURL(/\/signin(\?|$)/);
  expect(await linkEmail.evaluate((el) => (el as HTMLInputElement).validity.valid)).toBe(false);
  expect(await linkEmail.evaluate((el) => (el as HTMLInputElement).validationMessage)).not.toBe('');
  await expectNoRawValidatorText(page);
});

test('signup: bad input is said in words, focus on the summary', async ({ page }, testInfo) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  await page.goto(`${baseUrl()}/signup`);
  await page.getByLabel('Email (required)').fill('sam@');
  await page.getByLabel('Birthday').fill(young());
  await page.getByText('Or use a link to a photo').click();
  await page.getByLabel('Photo link').fill('ftp://example.com/me.jpg');
  await page.getByRole('button', { name: 'Create my account' }).click();
  const summary = page.getByRole('main').getByRole('alert');
  await expect(summary).toBeFocused(ANSWER);
  await expect(
    summary.getByRole('link', { name: 'Email: Enter a valid email address, like sam@example.com.' }),
  ).toBeVisible();
  await expect(summary.getByRole('link', { name: 'Name: Enter your name.' })).toBeVisible();
  await expect(summary.getByRole('link', { name: 'Birthday: You need to be 13 or older.' })).toBeVisible();
  await expect(
    summary.getByRole('link', { name: /^Photo: Enter a web address that starts with https:\/\// }),
  ).toBeVisible();
  await expectNoRawValidatorText(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'words-signup-errors');
});

test('signup-with-ai: a link with bad values is checked on review and answered in words', async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  const link = signupLink(baseUrl(), {
    email: 'robin-at-example.com',
    name: 'x'.repeat(70),
    gender: 'robot',
    birthday: 'last spring',
    activities: Array.from({ length: 25 }, (_, i) => `thing ${i}`).join(', '),
  });
  await page.goto(link);
  await expect(page.getByTestId('review-email-error')).toContainText('doesn’t look like an email address');
  await page.getByRole('button', { name: 'Create my account' }).click();
  const summary = page.getByRole('main').getByRole('alert');
  await expect(summary).toBeFocused(ANSWER);
  await expect(summary).toContainText('Email: Enter a valid email address');
  await expect(summary).toContainText('Name: Name can be at most 60 characters.');
  await expect(summary).toContainText('Gender: Choose one of the options.');
  await expectNoRawValidatorText(page);
  await expectAccessible(page);
});
