// Issue 31 §6 and its "Also" items, at phone and desktop size: Discover shows at least
// three people in a phone's first screen, keeps its filters in a sidebar on a desktop,
// and finds people by an activity that is not on one's own profile; Requests cards say
// when both are free; "Join to connect" on a signed-out profile comes back to that
// person, signed in inside the app, with the request offered.
import {
  askBuddy,
  baseUrl,
  bearer,
  completePerson,
  expect,
  expectAccessible,
  freshIp,
  isDesktop,
  screenshot,
  signIn,
  PASSWORD,
  test,
  uniqueEmail,
} from './support';

const ANSWER = { timeout: 20_000 };

test('Discover: three or more people in a phone screen, filters beside them on a desktop, any activity @phone', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  // A town per project, so nobody else's people are in it.
  const city = { location: isDesktop(testInfo) ? 'Aveiro' : 'Tomar' };
  const ana = await completePerson(request, 'Ana Browses', city);
  const others = [];
  for (const name of ['Bo Near', 'Cy Near', 'Di Near', 'Ed Near'])
    others.push(await completePerson(request, name, city));
  // Kayaking only: not one of Ana's activities, so not in her first results.
  await completePerson(request, 'Flo Kayaks', { ...city, activities: ['kayaking'] });

  await signIn(page, ana.email, PASSWORD, '/account/discover');
  const matches = page.getByRole('list', { name: 'Matches, best first' });
  const rows = matches.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect(rows).toHaveCount(4);
  await expect(matches).not.toContainText('Flo Kayaks');
  const filters = page.getByRole('form', { name: 'Search filters' });

  if (isDesktop(testInfo)) {
    // A sidebar: beside the people, and the first person as high as the filters.
    const [f, r] = [(await filters.boundingBox())!, (await rows.first().boundingBox())!];
    expect(f.x + f.width).toBeLessThanOrEqual(r.x);
    expect(r.y).toBeLessThan(f.y + 150);
  } else {
    // Whole rows in the first screen, above the tab bar.
    const barTop = await page.locator('.tab-bar').evaluate((bar) => bar.getBoundingClientRect().top);
    let whole = 0;
    for (const box of await Promise.all((await rows.all()).map((row) => row.boundingBox())))
      if (box && box.y >= 0 && box.y + box.height <= barTop) whole += 1;
    expect(whole).toBeGreaterThanOrEqual(3);
  }
  // Each row: name, distance, what both like, free together.
  const bo = rows.filter({ hasText: 'Bo Near' });
  await expect(bo).toContainText(/about [1-3] km away/);
  await expect(bo.getByRole('list', { name: 'You both like' })).toHaveText(/Hiking.*Board Games/);
  await expect(bo).toContainText(/Free together: .*(Saturday|weekend)/i);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'discover-rows');

  // Any activity: typed into the filters, searched with the rest.
  if (!isDesktop(testInfo)) await page.getByRole('button', { name: /^Filters/ }).click();
  await filters.getByLabel('Any other activity').fill('Kayaking');
  await filters.getByLabel('Any other activity').press('Enter');
  await expect(filters.getByLabel('Kayaking')).toBeChecked();
  await filters.getByLabel('Hiking').uncheck();
  await filters.getByLabel('Board games').uncheck();
  await expectAccessible(page);
  await filters.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('heading')).toHaveText('Flo Kayaks');
  await expect(rows.first().getByRole('list', { name: 'Likes' })).toHaveText('Kayaking');

  // The photo view, with what they like over the photo.
  await page.getByRole('button', { name: 'Photos' }).click();
  await expect(rows.first().locator('.match-overlay')).toContainText('Kayaking');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'discover-photo-cards');

  // Requests say when both are free.
  await askBuddy(request, others[0]!, ana);
  await page.goto(`${baseUrl()}/account/requests`);
  const waiting = page.getByRole('list', { name: 'Requests waiting for your answer' }).getByRole('listitem');
  await expect(waiting.filter({ hasText: 'Bo Near' })).toContainText(/Free together: .*(Saturday|weekend)/i);
  await expectAccessible(page);
});

test('Join to connect remembers who: signup comes back to the profile, in the app, with the request offered', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const maya = await completePerson(request, 'Maya Meets');
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  await page.goto(maya.profileUrl);
  await page.getByRole('link', { name: 'Join to connect' }).click();
  await expect(page).toHaveURL(`${baseUrl()}/signup?connect=${maya.slug}`);
  await expect(page.getByRole('main')).toContainText('then ask Maya to be buddies');

  const email = uniqueEmail('join');
  await page.getByLabel('Email (required)').fill(email);
  await page.getByLabel('Name (required)').fill('Noa New');
  await page.getByLabel('Activities').fill('hiking');
  await page.getByLabel('When you are free').fill('weekends');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  const ask = page.getByRole('link', { name: 'Ask Maya to be buddies' });
  await expect(ask).toHaveAttribute('href', `/u/${maya.slug}?connect=1`, ANSWER);
  await ask.click();

  // Signed in, the profile keeps the app's bar and tabs, and the request form is open.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maya Meets');
  await expect(page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Discover' })).toBeVisible();
  await page.getByLabel('A few words to Maya (optional)').fill('Hi from Join to connect');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'join-to-connect-offer');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Request sent. We’ll tell you when Maya answers.')).toBeVisible();
  const received = await request.get(`${baseUrl()}/api/v1/buddy_requests.json`, { headers: bearer(maya) });
  expect((await received.json()).received).toMatchObject([{ state: 'pending', message: 'Hi from Join to connect' }]);
});

// Issue 46 §8: "3 people match" offered no way to find more. A first page of a few carries the
// searches that would find more (issue 43 §4); the page offers them as taps.
test('a page of a few offers the searches that find more, and a tap runs one @phone', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const city = { location: isDesktop(testInfo) ? 'Sines' : 'Bragança, Portugal' };
  const ana = await completePerson(request, 'Ana Widens', { ...city, availability_text: 'weekday evenings' });
  await completePerson(request, 'Bo Evenings', { ...city, availability_text: 'weekday evenings' });
  for (const name of ['Cy Mornings', 'Di Mornings'])
    await completePerson(request, name, { ...city, availability_text: 'weekend mornings' });

  await signIn(page, ana.email, PASSWORD, '/account/discover');
  const matches = page.getByRole('list', { name: 'Matches, best first' });
  const rows = matches.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
  await expect(rows).toHaveCount(1, ANSWER);
  await expect(page.getByRole('status')).toHaveText('1 person matches');
  const widen = page.getByRole('region', { name: 'Find more people' });
  const anyTime = widen.getByRole('button', { name: 'Free any time: 3 people' });
  await expect(anyTime).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'discover-find-more');

  await anyTime.click();
  await expect(rows).toHaveCount(3, ANSWER);
  await expect(matches).toContainText('Cy Mornings');
  // The form shows the search that ran.
  if (!isDesktop(testInfo)) await page.getByRole('button', { name: /^Filters/ }).click();
  await expect(page.getByRole('form', { name: 'Search filters' }).getByLabel('Free at the same time')).toHaveValue('0');
});
