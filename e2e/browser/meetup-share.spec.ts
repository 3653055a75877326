// Issue 45's share-my-meetup in the browser, under the strict CSP and axe, as plan-share.spec.ts
// for a plan: "Share with a friend" on the meetup page of someone holding a seat makes a link; a
// friend with no account (a fresh browser) reads the meetup there (the address, the host's first
// name, how many go), with no script on the page; "Turn link off" makes it gone.
import { bearer, baseUrl, expect, expectAccessible, PASSWORD, register, screenshot, signIn, test } from './support';

test.describe.configure({ timeout: 120_000 });

test('a meetup shared with a friend reads on its own page, until the link is turned off', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const at = { location: 'Lisbon', birthday: '1990-05-05', activities: ['bouldering'], timezone: 'Europe/Lisbon' };
  const host = await register(request, { displayName: 'Hana Host', ...at });
  const jon = await register(request, { displayName: 'Jon Going', ...at });
  const hosted = await request.post(`${baseUrl()}/api/v1/meetups.json`, {
    headers: bearer(host),
    data: {
      activity: 'bouldering',
      starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      place: { name: 'Lisbon Block', address: 'Rua Example 12' },
      capacity: 4,
    },
  });
  expect(hosted.status(), await hosted.text()).toBe(201);
  const meetupId = (await hosted.json()).meetup.id as string;
  const joined = await request.post(`${baseUrl()}/api/v1/meetups/${meetupId}/join.json`, { headers: bearer(jon) });
  expect(joined.status()).toBe(200);

  await signIn(page, jon.email, PASSWORD, `/account/meetups/${meetupId}`);
  const safety = page.getByRole('region', { name: 'Share with a friend' });
  // This stack delivers no mail: check-in says so instead of offering itself.
  await expect(safety).toContainText('Check-in needs mail');
  await safety.getByRole('button', { name: 'Share with a friend' }).click();
  const link = safety.getByLabel('Link for your friend (shown once)');
  await expect(link).toHaveValue(/\/share\/bm_sh_/);
  const url = await link.inputValue();
  await expectAccessible(page);

  // The friend: no account, no cookies.
  const friend = await browser.newContext({ viewport: testInfo.project.use.viewport ?? undefined });
  try {
    const friendPage = await friend.newPage();
    const scripts: string[] = [];
    friendPage.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    const res = await friendPage.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-robots-tag']).toMatch(/noindex/);
    await expect(friendPage.getByRole('heading', { level: 1 })).toHaveText('Jon is going to a meetup');
    await expect(friendPage.getByText('Rock Climbing')).toBeVisible();
    await expect(friendPage.getByText('Lisbon Block')).toBeVisible();
    await expect(friendPage.getByText('Rua Example 12')).toBeVisible();
    await expect(friendPage.getByText('2 people, Jon included')).toBeVisible();
    await expect(friendPage.getByText('Hana', { exact: true })).toBeVisible();
    expect(scripts).toEqual([]);
    await expectAccessible(friendPage);
    await screenshot(friendPage, testInfo, 'meetup-share-page');

    await safety.getByRole('button', { name: 'Turn link off' }).click();
    await expect(safety.getByRole('status')).toHaveText('The link is off.');
    const gone = await friendPage.goto(url);
    expect(gone?.status()).toBe(410);
    await expect(friendPage.getByRole('heading', { level: 1 })).toHaveText('This meetup is no longer shared');
    await expectAccessible(friendPage);
  } finally {
    await friend.close();
  }
});
