// Public profile pages at user.profile_url: content, privacy, link previews, 404.
import { Client } from 'pg';
import { baseUrl, expect, expectAccessible, isDesktop, register, screenshot, test } from './support';

async function setPhoto(userId: string, photoUrl: string) {
  const db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query('update users set photo_url = $1 where id = $2', [photoUrl, userId]);
  } finally {
    await db.end();
  }
}

test('a complete profile shows strangers its public fields, never private ones, and previews well', async ({
  page,
  request,
}, testInfo) => {
  const user = await register(request, {
    displayName: 'Jo <Hiker>',
    aboutMe: 'Up for trails most weekends.\n<script>window.hacked = 1</script>',
    location: '221B Baker Street, London',
    coords: { latitude: 51.5237, longitude: -0.1585 },
    gender: 'female',
    birthday: '1990-04-02',
    activities: ['hiking', 'board games'],
    availability_text: 'weekends and Wednesday evenings',
  });
  await setPhoto(user.id, '/blobs/test-photo.png');

  const response = await page.goto(user.profileUrl);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['cache-control']).toMatch(/^public, .*s-maxage=\d+/);
  expect(response?.headers()['set-cookie']).toBeUndefined();

  // A stranger sees the first name and city, not age or gender (issue 17).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jo');
  const facts = page.getByRole('list', { name: 'About' });
  await expect(facts).not.toContainText('Woman');
  await expect(facts).not.toContainText(/\d{2}/);
  await expect(facts).toContainText('London');
  await expect(page.getByText('<script>window.hacked = 1</script>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
  await expect(page.getByRole('list').filter({ hasText: 'Hiking' })).toContainText(/board games/i);
  // A stored photo path is served as a URL of this site (lib/profiles/records.ts siteUrl).
  await expect(page.getByRole('img', { name: 'Photo of Jo' })).toHaveAttribute(
    'src',
    `${baseUrl()}/blobs/test-photo.png`,
  );

  // No weekly schedule for strangers: when someone is free is not theirs to know.
  await expect(page.getByRole('table')).toHaveCount(0);

  const html = await page.content();
  for (const secret of ['Baker', '51.5237', '-0.1585', '1990-04-02', user.email, 'Hiker'])
    expect(html).not.toContain(secret);

  const meta = (selector: string) => page.locator(selector).getAttribute('content');
  expect(await meta('meta[property="og:title"]')).toBe('Jo on Buddy Match');
  expect(await meta('meta[property="og:description"]')).toContain('Up for trails most weekends.');
  expect(await meta('meta[property="og:url"]')).toBe(user.profileUrl);
  expect(await meta('meta[property="og:type"]')).toBe('profile');
  expect(await meta('meta[property="og:image"]')).toBe(`${baseUrl()}/blobs/test-photo.png`);
  expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
  expect(await meta('meta[name="twitter:title"]')).toBe('Jo on Buddy Match');
  await expect(page).toHaveTitle('Jo on Buddy Match');

  await expectAccessible(page);
  await screenshot(page, testInfo, 'public-profile');
});

test('an incomplete profile shows only what exists', async ({ page, request }, testInfo) => {
  const user = await register(request, { displayName: 'Newbie Nell' });
  await page.goto(user.profileUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Newbie');
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toBe(
    'Newbie is looking for buddies on Buddy Match.',
  );
  expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'public-profile-incomplete');
});

test('a profile link by user id lands on the slug address', async ({ page, request }, testInfo) => {
  test.skip(!isDesktop(testInfo), 'one viewport is enough');
  const user = await register(request, { displayName: 'Ida Id' });
  await page.goto(`${baseUrl()}/u/${user.id}`);
  await expect(page).toHaveURL(user.profileUrl);
});

test('an unknown profile is a friendly 404', async ({ page }, testInfo) => {
  const response = await page.goto(`${baseUrl()}/u/nobody-by-this-name`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We couldn’t find that page');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'not-found');
});

test('the home page is accessible', async ({ page }, testInfo) => {
  await page.goto(`${baseUrl()}/`);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'home');
});
