// Issue 45 in the browser, at 390 px and 1280 px, under the strict CSP and axe: a person finds a
// full meetup among "Meetups near you", joins its waitlist from the meetup page (the button in
// reach of a thumb), is told their place, and is moved in, live, when someone leaves: the page
// then shows the address, the faces of those going and the group chat.
import { bearer, baseUrl, expect, expectAccessible, register, screenshot, signIn, PASSWORD, test } from './support';

test.describe.configure({ timeout: 120_000 });

test('joins a full meetup, is waitlisted, and is promoted when someone leaves', async ({ page, request }, testInfo) => {
  const at = { location: 'Lisbon', birthday: '1990-05-05', activities: ['bouldering'] };
  const host = await register(request, { displayName: 'Hana Host', ...at });
  const first = await register(request, { displayName: 'Filipa First', ...at });
  const me = await register(request, { displayName: 'Maria Waiting', ...at });

  const start = new Date(Date.now() + 5 * 86_400_000).toISOString();
  const hosted = await request.post(`${baseUrl()}/api/v1/meetups.json`, {
    headers: bearer(host),
    data: {
      activity: 'bouldering',
      starts_at: start,
      place: { name: 'Lisbon Block', address: 'Rua Example 12' },
      capacity: 2,
    },
  });
  expect(hosted.status(), await hosted.text()).toBe(201);
  const meetupId = (await hosted.json()).meetup.id as string;
  const joined = await request.post(`${baseUrl()}/api/v1/meetups/${meetupId}/join.json`, { headers: bearer(first) });
  expect(joined.status()).toBe(200);

  // Among the meetups near her, full.
  await signIn(page, me.email, PASSWORD, '/account/meetups');
  const link = page.getByRole('link', { name: 'Rock Climbing' }).and(page.locator(`[href$="${meetupId}"]`));
  const card = page.getByRole('article', { name: 'Rock Climbing' }).filter({ has: link });
  await expect(card).toContainText('Full');
  await expect(card).toContainText('Lisbon Block');
  await link.click();
  await page.waitForURL(`**/account/meetups/${meetupId}`);
  await expect(page.getByText('The address is shown to the people going.')).toBeVisible();
  await expect(page.getByText('Rua Example 12')).toHaveCount(0);

  // The one action is on screen without scrolling, at the bottom on a phone.
  const joinButton = page.getByRole('button', { name: 'Join the waitlist' });
  await expect(joinButton).toBeInViewport();
  if (testInfo.project.name === 'phone') {
    const box = (await joinButton.boundingBox())!;
    // Just above the tab bar, where a thumb rests.
    expect(box.y).toBeGreaterThan((page.viewportSize()?.height ?? 844) * 0.75);
  }
  await expectAccessible(page);
  await joinButton.click();
  await expect(page.getByTestId('meetup-place')).toHaveText(/1st on the waitlist/);
  await expect(page.getByRole('button', { name: 'Leave the waitlist' })).toBeVisible();
  await screenshot(page, testInfo, 'meetup-waitlisted');

  // Filipa leaves (her assistant): the seat is Maria's, and the page shows it without a reload.
  const left = await request.post(`${baseUrl()}/api/v1/meetups/${meetupId}/leave.json`, { headers: bearer(first) });
  expect(left.status()).toBe(200);
  await expect(page.getByTestId('meetup-place')).toHaveText('You’re in.', { timeout: 15_000 });
  await expect(page.getByText('Lisbon Block, Rua Example 12')).toBeVisible();
  const going = page.getByRole('region', { name: 'Going' });
  await expect(going).toContainText('Hana (host)');
  await expect(going).toContainText('Maria');
  await expect(going).not.toContainText('Filipa');
  await expect(page.getByRole('button', { name: 'Leave', exact: true })).toBeInViewport();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'meetup-promoted');

  // The group chat is the chat thread, for the host and the confirmed.
  await going.getByRole('link', { name: 'Group chat' }).click();
  await page.waitForURL(`**/account/meetups/${meetupId}/chat`);
  await page.getByLabel(/Message to/).fill('See you at the wall!');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('log')).toContainText('See you at the wall!');
  const messages = await request.get(`${baseUrl()}/api/v1/meetups/${meetupId}.json`, { headers: bearer(host) });
  const chatId = (await messages.json()).meetup.chatId as string;
  const read = await request.get(`${baseUrl()}/api/v1/chats/${chatId}/messages.json`, { headers: bearer(host) });
  expect((await read.json()).messages.map((m: { text: string }) => m.text)).toEqual(['See you at the wall!']);
});
