// Photos from the camera or the files (issue 31 §2), at phone and desktop size: the web signup
// takes one and it shows on the profile; a profile without a photo sees a teaser in Discover
// (a rounded count, nobody named), adds one in a single step and is sent back to see people.
// Playwright sets the file on the hidden input, as the camera or the file picker would.
import path from 'node:path';
import {
  baseUrl,
  completePerson,
  expect,
  expectAccessible,
  freshIp,
  isDesktop,
  PASSWORD,
  query,
  register,
  screenshot,
  signIn,
  test,
  uniqueEmail,
} from './support';

/** A real photo (0.1 MB, EXIF-rotated) from the pipeline's own fixtures. */
const PHOTO = path.join(process.cwd(), 'lib/photos/fixtures/curies-orientation-6.jpg');
const ANSWER = { timeout: 20_000 };

async function expectNoSidewaysScroll(page: import('@playwright/test').Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width on ${page.url()}`).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('web signup takes a photo from the camera or a file, and the profile shows it @phone', async ({
  page,
}, testInfo) => {
  test.setTimeout(60_000);
  const email = uniqueEmail('photo-signup');
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  await page.goto(`${baseUrl()}/signup`);
  await page.getByLabel('Email (required)').fill(email);
  await page.getByLabel('Name (required)').fill('Marie Photo');
  const chooser = page.locator('#field-photo-file');
  await expect(chooser).toHaveAttribute('accept', 'image/*');
  await expect(page.locator('label[for="field-photo-file"]')).toHaveText('Take or choose a photo');
  await chooser.setInputFiles(PHOTO);
  await expect(page.getByRole('img', { name: 'You, as others will see you' })).toBeVisible();
  await expect(page.locator('label[for="field-photo-file"]')).toHaveText('Choose another photo');
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'signup-photo-chosen');

  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  await expect(page.getByTestId('browser-signin')).toHaveText('You’re signed in on this browser.', ANSWER);
  // Only the photo is left to nobody: the rest of the profile was not given.
  await expect(page.getByTestId('onboarding-missing')).not.toContainText('a photo');

  // Stored through the photo pipeline, as a registration photo.
  const [row] = await query<{ source: string; photo_url: string }>(
    `select p.source, u.photo_url from users u join photos p on p.id = u.photo_id where u.email = $1`,
    [email],
  );
  expect(row?.source).toBe('register');

  await page.goto(`${baseUrl()}/account/profile`);
  const current = page.getByRole('img', { name: 'Current photo of Marie Photo' });
  await expect(current).toBeVisible();
  expect(await current.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  // The profile editor's hidden file input no longer widens the page (it made it 426 px on a phone).
  await expectNoSidewaysScroll(page);
});

test('Discover teases a profile without a photo; "Add a photo" completes it and shows people @phone', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  // A town of each project's own, used by no other spec, so the count is exact: five hikers there.
  const location = isDesktop(testInfo) ? 'Castelo Branco' : 'Chaves';
  for (const name of ['Ana', 'Bea', 'Cai', 'Dora', 'Eli']) await completePerson(request, `${name} Hikes`, { location });
  const newcomer = await register(request, {
    displayName: 'Nina Newcomer',
    aboutMe: 'New in town, happy to walk anywhere.',
    location,
    gender: 'female',
    birthday: '1994-02-03',
    activities: ['hiking'],
    availability_text: 'weekends',
  });

  await signIn(page, newcomer.email, PASSWORD, '/account/discover');
  await expect(page.getByTestId('discover-teaser')).toHaveText(
    'At least 5 people near you like hiking. Add a photo to say hi.',
  );
  // A count only: nobody's name or photo is on the page.
  await expect(page.getByText('Ana Hikes')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'discover-teaser');

  await page.getByRole('link', { name: 'Add a photo' }).click();
  await page.waitForURL('**/account/photo?return=%2Faccount%2Fdiscover');
  await expect(page.getByRole('heading', { level: 1, name: 'Add a photo' })).toBeVisible();
  await expectAccessible(page);
  await page.locator('#photo-file').setInputFiles(PHOTO);
  await expect(page.getByRole('img', { name: 'Preview of the photo you chose' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'add-photo-preview');

  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL('**/account/discover', ANSWER);
  await expect(page.getByRole('status').filter({ hasText: /match/ })).toHaveText('5 people match');
  await expect(page.getByTestId('discover-teaser')).toHaveCount(0);
  await expectAccessible(page);
});
