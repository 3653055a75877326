// Issue 29 §6 in the browser, at 390 px and 1280 px, under the strict CSP and axe: "Share
// with a friend" on the plan page makes a link; a friend with no account (a fresh browser)
// reads the plan there, with no script on the page; "Turn link off" makes it gone.
import {
  baseUrl,
  bearer,
  expect,
  expectAccessible,
  makeBuddies,
  PASSWORD,
  register,
  screenshot,
  signIn,
  test,
} from './support';

test.describe.configure({ timeout: 120_000 });

test('a plan shared with a friend reads on its own page, until the link is turned off', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const ana = await register(request, { displayName: 'Ana Sharer', timezone: 'Europe/Madrid' });
  const bea = await register(request, { displayName: 'Bea Buddy', timezone: 'Europe/Madrid' });
  const chatId = await makeBuddies(request, ana, bea);
  const proposed = await request.post(`${baseUrl()}/api/v1/chats/${chatId}/plans.json`, {
    headers: bearer(ana),
    data: {
      activity: 'Bouldering',
      starts_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      place: { name: 'Block Hall', address: 'Hauptstraße 1' },
    },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const planId = (await proposed.json()).plan.id as string;
  const accepted = await request.post(`${baseUrl()}/api/v1/plans/${planId}/accept.json`, { headers: bearer(bea) });
  expect(accepted.status()).toBe(200);

  await signIn(page, ana.email, PASSWORD, `/account/plans/${planId}`);
  const safety = page.getByRole('region', { name: 'Share with a friend' });
  // This stack delivers no mail: check-in says so instead of offering itself.
  await expect(safety).toContainText('Check-in needs mail');
  await safety.getByRole('button', { name: 'Share with a friend' }).click();
  const link = safety.getByLabel('Link for your friend (shown once)');
  await expect(link).toHaveValue(/\/share\/bm_sh_/);
  const url = await link.inputValue();
  await expectAccessible(page);

  // The friend: no account, no cookies.
  const friend = await browser.newContext({
    viewport: testInfo.project.use.viewport ?? undefined,
    isMobile: testInfo.project.use.isMobile,
    hasTouch: testInfo.project.use.hasTouch,
  });
  try {
    const friendPage = await friend.newPage();
    const scripts: string[] = [];
    friendPage.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    const res = await friendPage.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-robots-tag']).toMatch(/noindex/);
    await expect(friendPage.getByRole('heading', { level: 1 })).toHaveText('Ana is meeting Bea');
    await expect(friendPage.getByText('Block Hall')).toBeVisible();
    await expect(friendPage.getByText('Bouldering')).toBeVisible();
    expect(scripts).toEqual([]);
    await expectAccessible(friendPage);
    await screenshot(friendPage, testInfo, 'plan-share-page');

    await safety.getByRole('button', { name: 'Turn link off' }).click();
    await expect(safety.getByRole('status')).toHaveText('The link is off.');
    const gone = await friendPage.goto(url);
    expect(gone?.status()).toBe(410);
    await expect(friendPage.getByRole('heading', { level: 1 })).toHaveText('This plan is no longer shared');
    await expectAccessible(friendPage);
  } finally {
    await friend.close();
  }
});
