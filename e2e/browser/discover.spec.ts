// Discover around photos (issue 17 §6), at phone and desktop width: how many match comes
// first, photos of at least 96 px in the Photos view, each card one link to the public
// profile with the request button still its own control, shared activities as chips, on a
// phone the filters behind "Filters (N)", on a desktop beside the people (issue 31 §6).
import type { Locator } from '@playwright/test';
import {
  baseUrl,
  bearer,
  completePerson,
  expect,
  expectAccessible,
  isDesktop,
  pngDataUrl,
  PASSWORD,
  screenshot,
  signIn,
  test,
} from './support';

const top = async (locator: Locator) => (await locator.boundingBox())!.y;

test('Discover is built around photos: count first, 96 px photos, one link per card, chips, Filters (N) on a phone @phone', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  // Each project gets a town of its own, so the counts below are exact.
  const city = { location: isDesktop(testInfo) ? 'Leiria' : 'Viseu' };
  const ana = await completePerson(request, 'Ana Looking', { ...city, photo: await pngDataUrl(220, 256) });
  const ben = await completePerson(request, 'Ben Photo', {
    ...city,
    photo: await pngDataUrl(160, 256),
    gender: 'male',
    birthday: '1988-05-05',
  });
  await completePerson(request, 'Cleo Climbs', {
    ...city,
    photo: await pngDataUrl(220, 256),
    activities: ['hiking', 'rock climbing'],
  });

  await signIn(page, ana.email, PASSWORD, '/account/discover');
  const count = page.getByRole('status').filter({ hasText: /match/ });
  await expect(count).toHaveText('2 people match');
  const matches = page.getByRole('list', { name: 'Matches, best first' });
  const cards = matches.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect(cards).toHaveCount(2);
  const toggle = page.getByRole('button', { name: /^Filters \(\d\)$/ });
  const filters = page.getByRole('form', { name: 'Search filters' });

  // The count comes before the filters and the people.
  expect(await top(count)).toBeLessThan(await top(cards.first()));
  if (isDesktop(testInfo)) {
    await expect(toggle).toBeHidden();
    await expect(filters).toBeVisible();
    // A sidebar: left of the people, not above them.
    const [f, c] = [(await filters.boundingBox())!, (await cards.first().boundingBox())!];
    expect(f.x + f.width).toBeLessThanOrEqual(c.x);
    expect(f.y).toBeLessThan(c.y);
  } else {
    await expect(filters).toBeHidden();
    await expect(toggle).toHaveText('Filters (3)');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // Side by side with the toggle, or above it.
    const [c, t] = [(await count.boundingBox())!, (await toggle.boundingBox())!];
    expect(c.y + c.height / 2).toBeLessThanOrEqual(t.y + t.height / 2 + 1);
    expect(c.x).toBeLessThan(t.x);
    // The first card starts inside the first screen.
    expect(await top(cards.first())).toBeLessThan(844);
  }

  // Photos of at least 96 px, really loaded, in the Photos view.
  await page.getByRole('button', { name: 'Photos' }).click();
  await expect(page.getByRole('button', { name: 'Photos' })).toHaveAttribute('aria-pressed', 'true');
  const benCard = cards.filter({ has: page.getByRole('heading', { name: 'Ben Photo' }) });
  const photo = benCard.locator('img');
  await expect(photo).toHaveCount(1);
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const box = (await photo.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(96);
  expect(box.height).toBeGreaterThanOrEqual(96);

  // Shared activities as chips; Cleo shares only hiking.
  await expect(benCard.getByRole('list', { name: 'You both like' }).getByRole('listitem')).toHaveText([
    'Hiking',
    'Board Games',
  ]);
  const cleoCard = cards.filter({ has: page.getByRole('heading', { name: 'Cleo Climbs' }) });
  await expect(cleoCard.getByRole('list', { name: 'You both like' }).getByRole('listitem')).toHaveText(['Hiking']);

  // One link per card, to the public profile, and nothing interactive inside it.
  const link = benCard.getByRole('link');
  await expect(link).toHaveCount(1);
  await expect(link).toHaveAttribute('href', `/u/${ben.slug}`);
  await expect(benCard.locator('a :is(a, button, input, select, textarea)')).toHaveCount(0);
  // The link covers the card: a point on the photo and one on the chips hit it.
  for (const target of [photo, benCard.getByRole('list', { name: 'You both like' })]) {
    await target.scrollIntoViewIfNeeded();
    const b = (await target.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('a')?.getAttribute('href') ?? null,
      [b.x + b.width / 2, b.y + b.height / 2],
    );
    expect(hit).toBe(`/u/${ben.slug}`);
  }
  await expectAccessible(page);
  if (!isDesktop(testInfo)) {
    await page.screenshot({ path: 'test-results/screenshots/discover-phone.png', fullPage: false });
  }
  await screenshot(page, testInfo, 'discover-photos');
  await page.getByRole('button', { name: 'List' }).click();

  // Filters: on a phone behind the toggle; searching narrows, and the count follows.
  if (!isDesktop(testInfo)) {
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(filters).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, testInfo, 'discover-filters-open');
  }
  await filters.getByLabel('Men', { exact: true }).check();
  await filters.getByLabel('Youngest age').fill('30');
  await filters.getByRole('button', { name: 'Search' }).click();
  await expect(count).toHaveText('1 person matches');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('Ben Photo');
  if (isDesktop(testInfo)) {
    await expect(filters).toBeVisible();
  } else {
    // Searching closes the panel so the people show; the button counts the filters in effect.
    await expect(filters).toBeHidden();
    await expect(toggle).toHaveText('Filters (5)');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  }

  // The request button works on the card without opening the profile.
  await benCard.getByRole('button', { name: 'Ask Ben Photo to be buddies' }).click();
  await benCard.getByLabel('A few words to Ben Photo (optional)').fill('Board games on Saturday?');
  await benCard.getByRole('button', { name: 'Send request' }).click();
  await expect(benCard.getByRole('status')).toContainText('Request sent.');
  expect(new URL(page.url()).pathname).toBe('/account/discover');
  const received = await request.get(`${baseUrl()}/api/v1/buddy_requests.json`, { headers: bearer(ben) });
  expect((await received.json()).received).toMatchObject([
    { state: 'pending', message: 'Board games on Saturday?', user: { slug: ana.slug } },
  ]);

  // Tapping the card anywhere else (here: its photo, under the stretched link) opens the profile.
  await photo.scrollIntoViewIfNeeded();
  const spot = (await photo.boundingBox())!;
  await page.mouse.click(spot.x + spot.width / 2, spot.y + spot.height / 2);
  await page.waitForURL(`**/u/${ben.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ben Photo');
});
