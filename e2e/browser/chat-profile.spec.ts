// Issue 17 §2 and §3 in the browser, at 390 px and 1280 px, under the strict CSP and axe:
// the full-screen chat (box in the first screenful, assistant labels, Sent/Seen, date
// separators, the ⋯ menu, Enter on touch screens) and profiles (less for strangers; one
// main button that fits where two people stand).
import type { APIRequestContext, Page } from '@playwright/test';
import {
  askBuddy,
  baseUrl,
  bearer,
  expect,
  expectAccessible,
  isDesktop,
  makeBuddies,
  register,
  screenshot,
  sendChatMessage,
  signIn,
  PASSWORD,
  test,
} from './support';

// Each test sets up several people and steps through a whole flow on a shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

/** Someone in `city` with a complete-ish profile (no photo needed here). */
function person(
  request: APIRequestContext,
  displayName: string,
  city: string,
  overrides: Record<string, unknown> = {},
) {
  return register(request, {
    displayName,
    location: city,
    gender: 'female',
    birthday: '1991-03-04',
    activities: ['hiking', 'board games'],
    availability_text: 'weekends and Wednesday evenings',
    aboutMe: `${displayName} likes trails.`,
    ...overrides,
  });
}

/** The element's box lies wholly inside the viewport as the page is now scrolled. */
async function inFirstViewport(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
  });
}

test('a chat opens full screen at the newest message, with assistant labels, Sent then Seen, and a ⋯ menu @phone', async ({
  page,
  request,
}, testInfo) => {
  // Cities no other spec uses (all share one database).
  const city = isDesktop(testInfo) ? 'Funchal' : 'Ponta Delgada';
  const ana = await person(request, 'Ana Chat', city);
  // Bea's assistant registered her: what it sends with her token is labelled as its.
  const bea = await person(request, 'Bea Helped', city, { agentName: 'Claude' });
  const chatId = await makeBuddies(request, ana, bea);
  for (let i = 1; i <= 14; i++)
    await sendChatMessage(request, bea, chatId, `Message number ${i} about Saturday's hike.`);

  await signIn(page, ana.email, PASSWORD, `/account/chats/${chatId}`);
  const log = page.getByRole('log', { name: 'Messages with Bea Helped' });
  await expect(log.getByRole('listitem').last()).toContainText('Message number 14');
  // The message box is inside the first screenful as the chat opens, newest message in view.
  const box = page.getByLabel('Message to Bea Helped');
  await expect(box).toBeVisible();
  await expect.poll(() => inFirstViewport(page, '#message-text')).toBe(true);
  await expect(log.getByRole('listitem').last()).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Send' })).toBeInViewport();

  // An assistant-sent message says so; a date separator heads today's messages.
  await expect(log.getByRole('listitem').filter({ hasText: 'Message number 14' })).toContainText(
    'Sent by Claude for Bea',
  );
  await expect(log.getByRole('heading', { name: 'Today', level: 2 })).toHaveCount(1);
  // The name opens the profile.
  await expect(page.getByRole('heading', { level: 1 }).getByRole('link', { name: 'Bea Helped' })).toHaveAttribute(
    'href',
    `/u/${bea.slug}`,
  );

  // Ana writes a two-line message (a new line, then send), it shows "Sent"; once Bea reads it, "Seen".
  await box.fill('Yes!');
  if (isDesktop(testInfo)) {
    await box.press('Shift+Enter');
    await box.pressSequentially('See you at 9.');
    await box.press('Enter');
  } else {
    // A touch screen: Enter is a new line; the Send button sends.
    await box.press('Enter');
    await box.pressSequentially('See you at 9.');
    await expect(box).toHaveValue('Yes!\nSee you at 9.');
    await page.getByRole('button', { name: 'Send' }).click();
  }
  const mine = log.getByRole('listitem').filter({ hasText: 'See you at 9.' });
  await expect(mine).toContainText('Sent');
  await expect(mine).not.toContainText('Seen');
  await expect(mine).not.toContainText('Sent by');
  await expect(box).toHaveValue('');
  const stored = await request.get(`${baseUrl()}/api/v1/chats/${chatId}/messages.json?mark_read=1`, {
    headers: bearer(bea),
  });
  expect((await stored.json()).messages.at(-1)).toMatchObject({
    text: 'Yes!\nSee you at 9.',
    from_me: false,
    agent_name: null,
  });
  await expect(mine).toContainText('Seen', { timeout: 10_000 });
  await expect(box).toBeInViewport();

  // The phone picture first: axe scrolls the page as it checks contrast.
  if (!isDesktop(testInfo)) await page.screenshot({ path: 'test-results/screenshots/chat-phone.png' });
  await expectAccessible(page);
  await screenshot(page, testInfo, 'chat-full-screen');

  // Block and Report live in the ⋯ menu, not under the box.
  await expect(page.getByRole('button', { name: 'Block Bea Helped' })).toBeHidden();
  const more = page.locator('summary').filter({ hasText: 'More: block or report Bea Helped' });
  await more.click();
  await expect(page.getByRole('button', { name: 'Block Bea Helped' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Mute notifications|Unmute/ })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Block Bea Helped' }).click();
  await page.getByRole('button', { name: 'Yes, block Bea Helped' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You blocked Bea Helped.' })).toBeVisible();
  await expect(box).toHaveCount(0);
});

test('a signed-out visitor sees first name, photo, city and activities, and Join to connect; no age, no schedule', async ({
  page,
  request,
}, testInfo) => {
  const jo = await person(request, 'Jo Stranger Danger', 'Beja, Portugal', {
    birthday: '1990-04-02',
    aboutMe: 'Likes trails at dawn.',
  });
  const response = await page.goto(jo.profileUrl);
  expect(response?.headers()['cache-control']).toMatch(/^public, /);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jo');
  await expect(page.getByRole('list', { name: 'About' })).toHaveText(/Beja/);
  await expect(page.getByRole('list', { name: 'About' })).not.toContainText(/\d{2}|Woman/);
  await expect(page.getByText('Hiking')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByText(/Usually free|Saturday|Wednesday/)).toHaveCount(0);
  const html = await page.content();
  for (const secret of ['Stranger', 'Danger', '1990']) expect(html).not.toContain(secret);
  const join = page.getByRole('link', { name: 'Join to connect' });
  await expect(join).toHaveAttribute('href', `/signup?connect=${jo.slug}`);
  await expect(page.getByRole('button', { name: 'Ask to be buddies' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'profile-signed-out');
  await join.click();
  await expect(page).toHaveURL(/\/signup\?connect=/);
});

test('a signed-in viewer gets one main button for where they stand: ask, withdraw, answer, message', async ({
  page,
  request,
}, testInfo) => {
  const city = isDesktop(testInfo) ? 'Tavira' : 'Portimao';
  const ana = await person(request, 'Ana Viewer', city, {
    activities: ['hiking', 'tennis'],
    availability_text: 'Saturday mornings',
  });
  const cai = await person(request, 'Cai Stranger', city);
  const dan = await person(request, 'Dan Asker', city);
  await askBuddy(request, dan, ana, { message: 'Trail on Saturday?' });

  await signIn(page, ana.email, PASSWORD, `/u/${cai.slug}`);
  // Members see the whole profile, never cached by anyone.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cai Stranger');
  await expect(page.getByRole('list', { name: 'About' })).toContainText(/\d{2}/);
  await expect(page.getByRole('table', { name: /When Cai Stranger is usually free/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'You both like' })).toHaveText(/Hiking/);
  await expect(page.getByRole('region', { name: 'You both like' })).not.toContainText('Tennis');
  await expect(page.getByRole('region', { name: 'Free together' })).toContainText(/Saturday/);
  await expectAccessible(page);

  // Ask, with a note.
  await page.getByRole('button', { name: 'Ask to be buddies' }).click();
  await page.getByLabel('A few words to Cai (optional)').fill('Hike this weekend?');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Request sent', { exact: true })).toBeVisible();
  const sent = await request.get(`${baseUrl()}/api/v1/buddy_requests.json`, { headers: bearer(cai) });
  expect((await sent.json()).received).toMatchObject([
    { state: 'pending', message: 'Hike this weekend?', user: { slug: ana.slug } },
  ]);
  await expectAccessible(page);
  if (!isDesktop(testInfo))
    await page.screenshot({ path: 'test-results/screenshots/profile-phone.png', fullPage: true });
  await screenshot(page, testInfo, 'profile-request-sent');

  // A reload keeps the state (it comes from the server), and Withdraw takes it back.
  await page.reload();
  await page.getByRole('button', { name: 'Withdraw request' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Request withdrawn.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ask to be buddies' })).toBeVisible();
  const withdrawn = await request.get(`${baseUrl()}/api/v1/buddy_requests.json`, { headers: bearer(cai) });
  expect((await withdrawn.json()).received).toMatchObject([{ state: 'cancelled' }]);

  // Dan asked Ana: his profile offers to answer, and accepting leads to the chat.
  await page.goto(`${baseUrl()}/u/${dan.slug}`);
  const answer = page.getByRole('region', { name: 'Answer their request' });
  await expect(answer).toContainText('Trail on Saturday?');
  await expectAccessible(page);
  await answer.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You and Dan are buddies now.' })).toBeVisible();
  await page.getByRole('link', { name: 'Message Dan' }).click();
  await expect(page).toHaveURL(/\/account\/chats\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('log', { name: 'Messages with Dan Asker' })).toBeVisible();
  const chats = await request.get(`${baseUrl()}/api/v1/chats.json`, { headers: bearer(dan) });
  expect((await chats.json()).chats.map((c: { buddy: { slug: string } }) => c.buddy.slug)).toEqual([ana.slug]);

  // Back on his profile, Message is the button.
  await page.goto(`${baseUrl()}/u/${dan.slug}`);
  await expect(page.getByRole('link', { name: 'Message Dan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ask to be buddies' })).toHaveCount(0);

  // Block sits under ⋯ on a profile too, and ends the main action.
  await page.goto(`${baseUrl()}/u/${cai.slug}`);
  await page.locator('summary').filter({ hasText: 'More: block or report Cai Stranger' }).click();
  await page.getByRole('button', { name: 'Block Cai Stranger' }).click();
  await page.getByRole('button', { name: 'Yes, block Cai Stranger' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You blocked Cai Stranger.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ask to be buddies' })).toHaveCount(0);
  const blocks = await request.get(`${baseUrl()}/api/v1/me/blocks.json`, { headers: bearer(ana) });
  expect((await blocks.json()).blocked.map((b: { slug: string }) => b.slug)).toEqual([cai.slug]);
});
