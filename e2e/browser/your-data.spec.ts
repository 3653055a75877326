// Issue 31: "Download my data" gives a file, and "Delete my account" asks first, then
// leaves the person signed out with their account gone. What only a browser shows: the
// download, the confirmation step and where the person lands. The API test
// (e2e/api/account-data.test.ts) checks the export's content and the deletion's effects.
import fs from 'node:fs';
import { baseUrl, expect, expectAccessible, PASSWORD, register, signIn, test } from './support';

test('Settings: download my data, then delete my account with the password', async ({ page, request }) => {
  test.slow(); // a download, axe and a deletion, on a machine that may be busy
  const user = await register(request, { displayName: 'Dana Departing' });
  await signIn(page, user.email, PASSWORD, '/account/settings');
  const section = page.getByRole('region', { name: 'Your data' });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^buddy-match-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
  expect(data.profile).toMatchObject({ email: user.email, displayName: 'Dana Departing' });

  await section.getByRole('button', { name: 'Delete my account' }).click();
  const confirm = section.getByRole('form', { name: 'Delete my account' });
  await expect(confirm).toContainText('a deleted member');
  await expectAccessible(page);
  // "Keep my account" backs out; nothing happened.
  await confirm.getByRole('button', { name: 'Keep my account' }).click();
  await expect(section.getByRole('button', { name: 'Delete my account' })).toBeVisible();

  await section.getByRole('button', { name: 'Delete my account' }).click();
  // A password, when given, must be right even just after signing in.
  await confirm.getByLabel(/password/i).fill('not my password');
  await confirm.getByRole('button', { name: 'Delete my account for good' }).click();
  await expect(confirm.getByRole('alert')).toContainText('not correct');

  await confirm.getByLabel(/password/i).fill(PASSWORD);
  await confirm.getByRole('button', { name: 'Delete my account for good' }).click();
  await page.waitForURL('**/signin?deleted=1');
  await expect(page.getByRole('status')).toContainText('Your account is deleted');
  // Signed out: the account area sends the visitor to sign in again.
  await page.goto(`${baseUrl()}/account/settings`);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  const profile = await request.get(`${baseUrl()}/u/${user.slug}`);
  expect(profile.status()).toBe(404);
});
