// The account area: onboarding checklist, profile editing, settings, connected assistants, password.
import {
  baseUrl,
  expect,
  expectAccessible,
  isDesktop,
  PASSWORD,
  query,
  register,
  screenshot,
  signIn,
  signInWithForm,
  test,
} from './support';

test('every account page reads well and is accessible @phone', async ({ page, request }, testInfo) => {
  test.slow(); // six pages, each through axe, on a machine that may be busy
  const user = await register(request, {
    displayName: 'Olive Onboard',
    aboutMe: 'Likes long walks.',
    activities: ['hiking'],
    agentName: 'SignupBot',
    agentSessionId: 'chat-42',
  });
  const moved = await request.patch(`${baseUrl()}/api/v1/me.json`, {
    headers: { authorization: `Bearer ${user.token}` },
    data: { location: 'Lisbon' },
  });
  expect(moved.status()).toBe(200);
  // An assistant that acted without a key of its own: a token may name only its own agent now
  // (issue 28), so its action is one recorded before that rule, as stored.
  await query('insert into agent_actions (user_id, action, agent_name) values ($1, $2, $3)', [
    user.id,
    'update_profile',
    'Concierge <AI>',
  ]);
  await signIn(page, user.email);

  // Overview: the onboarding checklist.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Olive Onboard');
  const checklist = page.getByRole('list', { name: 'Onboarding checklist' });
  await expect(checklist.getByRole('listitem')).toHaveCount(9);
  await expect(checklist.getByRole('listitem').filter({ hasText: 'A few words about you' })).toContainText('(done)');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'Where you are' })).toContainText('(done)');
  await expect(checklist.getByRole('listitem').filter({ hasText: 'A photo' })).toContainText('(missing)');
  await expect(page.getByText('5 of 9 done')).toBeVisible();
  // The brand is the way home; none of the four tabs is the overview.
  await expect(page.getByRole('link', { name: 'Buddy Match home' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('navigation', { name: 'Account' }).locator('[aria-current]')).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'account-overview');

  // Each missing item links to its field, and the cursor lands in it.
  await checklist.getByRole('link', { name: 'Gender' }).click();
  await page.waitForURL('**/account/profile#profile-gender');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile');
  await expect(page.getByLabel('Gender')).toBeFocused();
  await expect(page.getByLabel('Where you are')).toHaveValue('Lisbon');
  await expect(
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }),
  ).toHaveAttribute('aria-current', 'page');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'profile-edit');

  // Settings sit behind the person's photo.
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'settings');

  await page.getByRole('link', { name: /^Connected assistants/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connected assistants');
  const assistants = page.getByRole('list', { name: 'Your assistants' });
  const assistant = (name: string) =>
    assistants.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });
  await expect(assistant('SignupBot').getByRole('list', { name: 'What SignupBot did' })).toHaveText(
    'Created your account',
  );
  await expect(assistant('SignupBot')).toContainText('Connected');
  const key = assistant('SignupBot').getByRole('list', { name: 'SignupBot: connections' }).getByRole('listitem');
  await expect(key).toContainText('Key given when it created your account');
  await expect(key).toContainText('Full access');
  await expect(key).toContainText('chat-42');
  await expect(assistant('Concierge <AI>').getByRole('list', { name: 'What Concierge <AI> did' })).toHaveText(
    'Updated your profile once',
  );
  await expect(assistant('Concierge <AI>')).toContainText('It has no access of its own');
  await expect(page.getByRole('list', { name: 'Recent actions' })).toContainText('SignupBot created the account');
  await expect(page.getByText('(session chat-42)')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'agents');

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: /^Password/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Change your password');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'password');
});

test.describe('on the desktop', () => {
  test.beforeEach(({}, testInfo) =>
    test.skip(!isDesktop(testInfo), 'the flows once; every page is checked at phone size above'),
  );

  test('editing the profile uses the API’s rules and plain-English fields', async ({ page, request }) => {
    const user = await register(request, { displayName: 'Eddie Edit', location: 'Berlin' });
    await signIn(page, user.email, PASSWORD, '/account/profile');

    await page.getByLabel('About you').fill('Weekend climber. <b>Not bold</b>');
    await page.getByLabel('Activities', { exact: true }).fill('bouldering, board games, underwater basket weaving');
    await page.getByLabel('When you’re free').fill('weekends and Wednesday evenings');
    await page.getByLabel('Gender').selectOption('non_binary');
    await page.getByRole('button', { name: 'Save profile' }).click();
    const status = page.getByRole('status').filter({ hasText: 'Your profile is saved.' });
    await expect(status).toBeVisible();
    await expect(status).toContainText('We understood your availability as:');
    await expect(status).toContainText('We didn’t recognise the activity “underwater basket weaving”');
    await expect(page.getByLabel('When you’re free')).toHaveValue('weekends and Wednesday evenings');

    const me = await (
      await request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } })
    ).json();
    expect(me.profile).toMatchObject({
      aboutMe: 'Weekend climber. <b>Not bold</b>',
      gender: 'non_binary',
      availability_text: 'weekends and Wednesday evenings',
    });
    expect(me.profile.activities).toEqual(['rock_climbing', 'board_games']);

    // A value the API refuses is shown on its field, and nothing is stored.
    await page.getByLabel('Birthday').fill(new Date().toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please fix the fields marked below.' })).toBeVisible();
    await expect(page.getByLabel('Birthday')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#profile-birthday-error')).toHaveText('You need to be 13 or older');
    await expectAccessible(page);
    const after = await (
      await request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } })
    ).json();
    expect(after.profile.birthday).toBeNull();

    // Photo: choosing a file shows a preview before anything is uploaded.
    await page.getByLabel('Choose a photo').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    await expect(page.getByRole('img', { name: 'Preview of the photo you chose' })).toHaveAttribute('src', /^blob:/);
    await expect(page.getByRole('button', { name: 'Upload this photo' })).toBeEnabled();
  });

  test('revoking an access token stops it on the API at once', async ({ page, request }) => {
    const user = await register(request, { displayName: 'Tara Tokens', agentName: 'RevokeBot' });
    const me = () => request.get(`${baseUrl()}/api/v1/me.json`, { headers: { authorization: `Bearer ${user.token}` } });
    expect((await me()).status()).toBe(200);

    await signIn(page, user.email, PASSWORD, '/account/agents');
    const assistant = page
      .getByRole('list', { name: 'Your assistants' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2, name: 'RevokeBot' }) });
    const token = assistant.getByRole('list', { name: 'RevokeBot: connections' }).getByRole('listitem');
    await expect(token).toContainText('Active');
    await token.getByRole('button', { name: 'Disconnect RevokeBot (Key given when it created your account)' }).click();
    await expect(token.locator('.tag')).toHaveText('Revoked');
    await expect(token.getByRole('button', { name: /^Disconnect/ })).toHaveCount(0);
    await expect(assistant.locator('.token-head .tag').first()).toHaveText('Disconnected');

    const refused = await me();
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe('unauthorized');
  });

  test('changing the password', async ({ page, request }) => {
    test.slow(); // five submits, a sign-out and a sign-in
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

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/signin?signedOut=1');
    await signInWithForm(page, user.email, 'a fresh passphrase');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Paula Pass');
  });
});
