// The account area: onboarding checklist, profile editing, agents, tokens, password.
import { baseUrl, expect, expectAccessible, isDesktop, PASSWORD, register, screenshot, signIn, signInWithForm, test } from './support';

test('every account page reads well and is accessible', async ({ page, request }, testInfo) => {
  const user = await register(request, {
    displayName: 'Olive Onboard',
    aboutMe: 'Likes long walks.',
    activities: ['hiking'],
    agentName: 'SignupBot',
    agentSessionId: 'chat-42',
  });
  await request.patch(`${baseUrl()}/api/v1/me.json`, {
    headers: { authorization: `Bearer ${user.token}` },
    data: { location: 'Lisbon', agentName: 'Concierge <AI>' },
  });
  await signIn(page, user.email);

  // Overview: the onboarding checklist.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Olive Onboard');
  const checklist = page.getByRole('list', { name: 'Onboarding checklist' });
  await expect(checklist.getByRole('listitem')).toHaveCount(9);
  await expect(checklist.getByRole('listitem').filter({ hasText: 'A few words about you' })).toContainText('(done)');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Where you are' })).toContainText('(done)');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'A photo' })).toContainText('(missing)');
  await expect(page.getByText('5 of 9 done')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'account-overview');

  const menu = page.getByRole('navigation', { name: 'Account' });
  await menu.getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile');
  await expect(page.getByLabel('Where you are')).toHaveValue('Lisbon');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'profile-edit');

  await menu.getByRole('link', { name: 'Agents' }).click();
  const agents = page.getByRole('table', { name: 'Agents and what they did' });
  await expect(agents.getByRole('row').filter({ hasText: 'SignupBot' })).toContainText('created the account');
  await expect(agents.getByRole('row').filter({ hasText: 'Concierge <AI>' })).toContainText('updated the profile');
  await expect(page.getByText('(session chat-42)')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'agents');

  await menu.getByRole('link', { name: 'Access tokens' }).click();
  const token = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'SignupBot · registration' }) });
  await expect(token).toContainText('Full access');
  await expect(token).toContainText('chat-42');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'tokens');

  await menu.getByRole('link', { name: 'Password' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Change your password');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'password');
});

test.describe('on the desktop', () => {
  test.beforeEach(({}, testInfo) => test.skip(!isDesktop(testInfo), 'the flows once; every page is checked at phone size above'));

  test('editing the profile uses the API’s rules and plain-English fields', async ({ page, request }) => {
    const user = await register(request, { displayName: 'Eddie Edit', location: 'Berlin' });
    await signIn(page, user.email, PASSWORD, '/account/profile');

    await page.getByLabel('About you').fill('Weekend climber. <b>Not bold</b>');
    await page.getByLabel('Activities').fill('bouldering, board games, underwater basket weaving');
    await page.getByLabel('When you’re free').fill('weekends and Wednesday evenings');
    await page.getByLabel('Gender').selectOption('non_binary');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Your profile is saved.' });
    await expect(status).toBeVisible();
    await expect(status).toContainText('We understood your availability as:');
    await expect(status).toContainText('We didn’t recognise the activity “underwater basket weaving”');
    await expect(page.getByLabel('When you’re free')).toHaveValue('weekends and Wednesday evenings');

    const me = await (await request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } })).json();
    expect(me.profile).toMatchObject({ aboutMe: 'Weekend climber. <b>Not bold</b>', gender: 'non_binary', availability_text: 'weekends and Wednesday evenings' });
    expect(me.profile.activities).toEqual(['rock_climbing', 'board_games']);

    // A value the API refuses is shown on its field, and nothing is stored.
    await page.getByLabel('Birthday').fill(new Date().toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please fix the fields marked below.' })).toBeVisible();
    await expect(page.getByLabel('Birthday')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#profile-birthday-error')).toHaveText('You need to be 13 or older');
    await expectAccessible(page);
    const after = await (await request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } })).json();
    expect(after.profile.birthday).toBeNull();

    // Photo: choosing a file shows a preview before anything is uploaded.
    await page.getByLabel('Choose a photo').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
    });
    await expect(page.getByRole('img', { name: 'Preview of the photo you chose' })).toHaveAttribute('src', /^blob:/);
    await expect(page.getByRole('button', { name: 'Upload this photo' })).toBeEnabled();
  });

  test('revoking an access token stops it on the API at once', async ({ page, request }) => {
    const user = await register(request, { displayName: 'Tara Tokens', agentName: 'RevokeBot' });
    const me = () => request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } });
    expect((await me()).status()).toBe(200);

    await signIn(page, user.email, PASSWORD, '/account/tokens');
    const token = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'RevokeBot · registration' }) });
    await expect(token).toContainText('Active');
    await token.getByRole('button', { name: /^Revoke RevokeBot/ }).click();
    await expect(token.locator('.tag')).toHaveText('Revoked');
    await expect(token.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);

    const refused = await me();
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe('unauthorized');
  });

  test('changing the password', async ({ page, request }) => {
    const user = await register(request, { displayName: 'Paula Pass' });
    await signIn(page, user.email, PASSWORD, '/account/password');
    const submit = async (current: string, next: string, confirm: string) => {
      await page.getByLabel('Current password').fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('New password again').fill(confirm);
      await page.getByRole('button', { name: 'Change password' }).click();
    };
    await submit(PASSWORD, 'a fresh passphrase', 'a different one');
    await expect(page.getByRole('alert').filter({ hasText: 'The two new passwords are different.' })).toBeFocused();
    await submit('not my password', 'a fresh passphrase', 'a fresh passphrase');
    await expect(page.getByRole('alert').filter({ hasText: 'The current password is not correct' })).toBeFocused();
    await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page);
    await submit(PASSWORD, 'a fresh passphrase', 'a fresh passphrase');
    await expect(page.getByText('Your password is changed.')).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin?signedOut=1');
    await signInWithForm(page, user.email, 'a fresh passphrase');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Paula Pass');
  });
});
