// The profile editor for thumbs (issue 17 §7), at phone and desktop width: activities as
// removable chips with suggestions from the catalog and renamings said, free time as a
// week of buttons in step with its text both ways, a "Take or choose a photo" button
// that uploads, examples from the person's own city and dates in their own language.
import sharp from 'sharp';
import type { APIRequestContext, Page } from '@playwright/test';
import { baseUrl, expect, expectAccessible, isDesktop, PASSWORD, register, screenshot, signIn, test } from './support';

// The browser speaks German: dates on the page must follow it.
test.use({ locale: 'de-DE' });
// Several axe runs per test on a shared, busy machine.
test.beforeEach(() => test.setTimeout(90_000));

/** Tess (Lisbon, hiking, free at weekends) on her profile page; returns a reader of her profile through the API. */
async function openEditor(page: Page, request: APIRequestContext) {
  const user = await register(request, {
    displayName: 'Tess Thumbs',
    location: 'Lisbon',
    birthday: '1991-03-04',
    activities: ['hiking'],
    availability_text: 'weekends',
  });
  await signIn(page, user.email, PASSWORD, '/account/profile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile');
  return async () => {
    const res = await request.get(`${baseUrl()}/api/v1/me.json`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    return (await res.json()).profile;
  };
}

test('activities are chips: catalog suggestions, renamings said, added, removed and saved', async ({
  page,
  request,
}) => {
  const profile = await openEditor(page, request);
  const chips = page.getByRole('list', { name: 'Your activities' });
  const chipNames = chips.locator('.chip-name');
  const input = page.getByLabel('Activities', { exact: true });
  await expect(chipNames).toHaveText(['Hiking']);
  // Suggestions: the catalog's names, as the input's list.
  await expect(input).toHaveAttribute('list', 'profile-activities-options');
  await expect(page.locator('#profile-activities-options option[value="Board Games"]')).toHaveCount(1);

  // A catalog alias becomes its activity at once, and the renaming is said.
  await input.fill('bouldering');
  await input.press('Enter');
  await expect(chipNames).toHaveText(['Hiking', 'Rock Climbing']);
  const renamings = page.getByRole('list', { name: 'How we read your activities' });
  await expect(renamings).toHaveText('bouldering → Rock Climbing');
  await expect(input).toHaveValue('');
  // Own words stay as written until the server places them on save.
  await input.fill('board game');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(chipNames).toHaveText(['Hiking', 'Rock Climbing', 'board game']);
  await page.getByRole('button', { name: 'Remove Hiking' }).click();
  await expect(chipNames).toHaveText(['Rock Climbing', 'board game']);
  await expect(input).toBeFocused();
  await expectAccessible(page);

  // Saving keeps them; the server's reading of "board game" is said too.
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: '✓ Saved' })).toBeVisible();
  await expect(renamings.getByRole('listitem')).toHaveText(['bouldering → Rock Climbing', 'board game → Board Games']);
  await expect(chipNames).toHaveText(['Rock Climbing', 'Board Games']);
  expect((await profile()).activities).toEqual(['rock_climbing', 'board_games']);
  await page.reload();
  await expect(chipNames).toHaveText(['Rock Climbing', 'Board Games']);

  // Removing a chip and saving removes it from the profile.
  await page.getByRole('button', { name: 'Remove Rock Climbing' }).click();
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: '✓ Saved' })).toBeVisible();
  expect((await profile()).activities).toEqual(['board_games']);
});

test('free time is a week of buttons in step with its text both ways, and saving keeps it @phone', async ({
  page,
  request,
}, testInfo) => {
  const profile = await openEditor(page, request);
  const week = page.getByRole('table', { name: 'Tap the parts of the week you’re usually free' });
  const text = page.getByLabel('When you’re free');
  const cell = (name: string) => week.getByRole('button', { name, exact: true });
  // The week shows the text…
  await expect(text).toHaveValue('weekends');
  await expect(cell('Saturday morning')).toHaveAttribute('aria-pressed', 'true');
  await expect(cell('Sunday evening')).toHaveAttribute('aria-pressed', 'true');
  await expect(cell('Wednesday evening')).toHaveAttribute('aria-pressed', 'false');
  // …tapping changes the text…
  await cell('Wednesday evening').click();
  await expect(cell('Wednesday evening')).toHaveAttribute('aria-pressed', 'true');
  await expect(text).toHaveValue('Wednesday evening; Saturday and Sunday, all day');
  await cell('Sunday morning').click();
  await expect(text).toHaveValue('Wednesday evening; Saturday, all day; Sunday noon–midnight');
  // …and typing changes the week, a part only partly free shown as such.
  await text.fill('Tuesday 7pm-9pm');
  await expect(cell('Tuesday evening')).toHaveAttribute('aria-pressed', 'mixed');
  await expect(cell('Saturday morning')).toHaveAttribute('aria-pressed', 'false');
  await text.fill('Tuesday evenings');
  await expect(cell('Tuesday evening')).toHaveAttribute('aria-pressed', 'true');
  await cell('Friday evening').click();
  await expect(text).toHaveValue('Tuesday and Friday evenings (5pm–midnight)');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'profile-editor-week');

  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: '✓ Saved' })).toBeVisible();
  const saved = await profile();
  expect(saved.availability_text).toBe('Tuesday and Friday evenings (5pm–midnight)');
  expect(saved.schedule_summary).toBe('Tuesday and Friday evenings (5pm–midnight)');
  await page.reload();
  await expect(text).toHaveValue('Tuesday and Friday evenings (5pm–midnight)');
  await expect(cell('Friday evening')).toHaveAttribute('aria-pressed', 'true');
  await expect(cell('Saturday morning')).toHaveAttribute('aria-pressed', 'false');
});

test('the photo button uploads; examples come from the person’s city and dates are in their language', async ({
  page,
  request,
}, testInfo) => {
  const profile = await openEditor(page, request);
  await expect(page.getByLabel('About you')).toHaveAttribute('placeholder', /New in Lisbon/);
  await expect(page.getByLabel('Where you are')).toHaveAttribute('placeholder', 'Like “Lisbon”');
  await expect(page.locator('#profile-location-help')).toContainText('like “Lisbon”');
  await expect(page.locator('#profile-birthday-help')).toContainText('4. März 1991');
  await expect(page.getByText(/^Last changed \d{1,2}\. \p{L}+ \d{4}/u)).toBeVisible();

  // A button-like label for a hidden file input that takes any image (the camera too).
  await expect(page.locator('#photo-file')).toHaveAttribute('accept', 'image/*');
  const photoButton = page.locator('label[for="photo-file"]');
  await expect(photoButton).toHaveText('Take or choose a photo');
  await expect(photoButton).toBeVisible();
  expect((await photoButton.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .png()
    .toBuffer();
  await page.getByLabel('Take or choose a photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('img', { name: 'Preview of the photo you chose' })).toHaveAttribute('src', /^blob:/);
  expect((await profile()).photoURL).toBeNull();
  await page.getByRole('button', { name: 'Upload this photo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Photo uploaded.' })).toBeVisible();
  await expect.poll(async () => (await profile()).photoURL).not.toBeNull();
  await expectAccessible(page);
  if (!isDesktop(testInfo)) await screenshot(page, testInfo, 'profile-editor-photo');
});

test('the time zone follows the place until the person picks one, and Automatic gives it back', async ({
  page,
  request,
}) => {
  const profile = await openEditor(page, request);
  const zone = page.getByLabel('Time zone');
  await expect(zone).toHaveValue('');
  await expect(page.locator('#profile-timezone-help')).toContainText('Europe/Lisbon');
  await expectAccessible(page);

  await zone.selectOption('Asia/Kolkata');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: '✓ Saved' })).toBeVisible();
  expect(await profile()).toMatchObject({ timezone: 'Asia/Kolkata', timezone_source: 'person' });
  await page.reload();
  await expect(zone).toHaveValue('Asia/Kolkata');

  await zone.selectOption('');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: '✓ Saved' })).toBeVisible();
  expect(await profile()).toMatchObject({ timezone: 'Europe/Lisbon', timezone_source: 'coords' });
});

test('a birthday that crosses 18 is refused with the way out, and the stored one kept', async ({
  page,
  request,
}, testInfo) => {
  test.skip(!isDesktop(testInfo), 'the message under a field reads the same at both sizes');
  const profile = await openEditor(page, request);
  const birthday = page.getByLabel('Birthday');
  await expect(page.locator('#profile-birthday-help')).toContainText('You must be 13 or older');
  await birthday.fill(`${new Date().getUTCFullYear() - 15}-05-01`);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.locator('#profile-birthday-error')).toContainText('contact the operator');
  await expect(birthday).toHaveAttribute('aria-invalid', 'true');
  expect((await profile()).birthday).toBe('1991-03-04');
});
