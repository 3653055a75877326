// Issue 17 §1 and §4: the account area as a phone app. A bottom tab bar (Discover,
// Requests, Chats, Profile) with real badge counts and the person's photo in the header;
// Settings behind the photo; Connected assistants saying what each assistant did, at the
// reader's local time; the overview as a home screen. The other people act through the
// agents' API, as assistants would.
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  askBuddy,
  baseUrl,
  bearer,
  completePerson,
  expect,
  expectAccessible,
  isDesktop,
  PASSWORD,
  query,
  screenshot,
  signIn,
  test,
  type Registered,
} from './support';

// Each test sets up several complete people (photos included) and runs axe more than once.
test.slow();

/**
 * Each project gets its own city, and no other spec uses these (all share one database),
 * so Discover here never shows anyone else's people.
 */
const cityOf = (testInfo: TestInfo, tag: 'home' | 'assistants') =>
  ({ home: { desktop: 'Evora', phone: 'Setubal' }, assistants: { desktop: 'Guimaraes', phone: 'Viana do Castelo' } })[
    tag
  ][isDesktop(testInfo) ? 'desktop' : 'phone'];

/** Someone complete, photo included, in `location`. */
const personIn = (
  request: APIRequestContext,
  displayName: string,
  location: string,
  overrides: Record<string, unknown> = {},
) => completePerson(request, displayName, { location, birthday: '1990-05-06', ...overrides });

async function post(
  request: APIRequestContext,
  as: Registered,
  url: string,
  data: Record<string, unknown> = {},
  status = 200,
) {
  const res = await request.post(`${baseUrl()}${url}`, { headers: bearer(as), data });
  expect(res.status(), await res.text()).toBe(status);
  return res.json();
}

async function inboxCounts(request: APIRequestContext, user: Registered) {
  const res = await request.get(`${baseUrl()}/api/v1/inbox.json`, { headers: bearer(user) });
  const body = await res.json();
  return { requests: body.pending_requests_count as number, chats: body.unread_chats_count as number };
}

/** The tab bar: fixed to the bottom of the screen on a phone, in the header on a desktop. */
async function expectTabBarPlaced(page: Page, testInfo: TestInfo) {
  const bar = page.getByRole('navigation', { name: 'Account' });
  await expect(bar).toBeVisible();
  for (const name of ['Discover', 'Requests', 'Chats', 'Profile'])
    await expect(bar.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
  const box = (await bar.boundingBox())!;
  const viewport = page.viewportSize()!;
  if (isDesktop(testInfo)) {
    expect(box.y, 'the tabs sit in the header').toBeLessThan(80);
  } else {
    expect(Math.round(box.y + box.height), 'the tab bar touches the bottom of the screen').toBe(viewport.height);
    expect(await bar.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    // It stays there when the page scrolls (when the page is long enough to scroll).
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
    await expect
      .poll(async () => Math.round((await bar.boundingBox())!.y + (await bar.boundingBox())!.height))
      .toBe(viewport.height);
  }
  // The page's own heading comes first, not a block of menu links (measured from the top of the page).
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
  expect(heading.y, 'the first heading starts near the top').toBeGreaterThanOrEqual(0);
  expect(heading.y, 'the first heading starts near the top').toBeLessThan(150);
}

test('the home screen: tab bar with real badges, request cards, unread chats and new matches @phone', async ({
  page,
  request,
}, testInfo) => {
  const city = cityOf(testInfo, 'home');
  const nia = await personIn(request, 'Nia Home', city);
  const bea = await personIn(request, 'Bea Asks', city);
  const cai = await personIn(request, 'Cai Chats', city);
  const dan = await personIn(request, 'Dan Nearby', city, { gender: 'male' });
  await askBuddy(request, bea, nia, { message: 'Hike on Saturday?' });
  const caiAsked = await askBuddy(request, cai, nia);
  const chatId = (await post(request, nia, `/api/v1/buddy_requests/${caiAsked}/accept.json`)).chat.chatId as string;
  await post(request, cai, `/api/v1/chats/${chatId}/messages.json`, { text: 'See you at the trailhead at 9?' }, 201);
  expect(await inboxCounts(request, nia)).toEqual({ requests: 1, chats: 1 });
  // Nia has already kept her assistant's key (the first-sign-in question is takeover.spec's).
  await query('update access_tokens set confirmed_at = now() where user_id = $1', [nia.id]);

  await signIn(page, nia.email, PASSWORD, '/account');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Nia Home');
  await expectTabBarPlaced(page, testInfo);

  // Badges: the same counts as the inbox.
  const tabs = page.getByRole('navigation', { name: 'Account' });
  await expect(tabs.getByRole('link', { name: /^Requests/ })).toHaveAccessibleName('Requests 1 request waiting');
  await expect(tabs.getByRole('link', { name: /^Chats/ })).toHaveAccessibleName('Chats 1 chat with unread messages');
  await expect(tabs.getByRole('link', { name: /^Discover/ })).toHaveAccessibleName('Discover');

  // The person's photo in the header opens Settings.
  const me = page.getByRole('link', { name: 'Settings' });
  await expect(me.locator('img')).toHaveAttribute('src', /.+/);

  // A complete profile is one line.
  await expect(page.getByText('Profile complete')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit your profile' })).toHaveAttribute('href', '/account/profile');
  await expect(page.getByRole('list', { name: 'Onboarding checklist' })).toHaveCount(0);

  const requests = page.getByRole('list', { name: 'Requests waiting for your answer' }).getByRole('listitem');
  await expect(requests).toHaveCount(1);
  await expect(requests).toContainText('Bea Asks');
  await expect(requests).toContainText('Hike on Saturday?');

  const unread = page.getByRole('list', { name: 'Chats with unread messages' }).getByRole('listitem');
  await expect(unread).toHaveCount(1);
  await expect(unread).toContainText('Cai Chats');
  await expect(unread).toContainText('See you at the trailhead at 9?');

  const strip = page.getByRole('list', { name: 'New matches' });
  const danCard = strip.getByRole('listitem').filter({ hasText: 'Dan Nearby' });
  await expect(danCard.locator('img')).toHaveAttribute('src', /.+/);
  await expect(danCard.getByRole('link')).toHaveAttribute('href', `/u/${dan.slug}`);
  await expect(danCard).toContainText('Hiking');
  // Buddies, and people with a request either way (they are under Requests), are not "new matches".
  await expect(strip).not.toContainText('Cai Chats');
  await expect(strip).not.toContainText('Bea Asks');

  await expectAccessible(page);
  await screenshot(page, testInfo, 'home-screen');
  if (!isDesktop(testInfo)) {
    // A phone picture of the overview (kept with the test results): the first screen, tab bar included.
    const file = path.join('test-results', 'screenshots', 'overview-phone.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file });
  }

  // Accept on the card: the request goes, the badge goes, the chat is a tap away.
  await requests.getByRole('button', { name: 'Accept Bea Asks’s request' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You and Bea Asks are buddies now.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Requests waiting for your answer' })).toHaveCount(0);
  await expect(tabs.getByRole('link', { name: /^Requests/ })).toHaveAccessibleName('Requests');
  expect((await inboxCounts(request, nia)).requests).toBe(0);
  await expect(page.getByRole('link', { name: 'Say hello' })).toHaveAttribute('href', /^\/account\/chats\//);

  // Opening the unread chat from the home screen: the thread fills the screen (issue 31 §3), so the
  // tab bar steps aside; back on the chats list the Chats tab is the current page, its badge gone.
  await unread.getByRole('link').click();
  await page.waitForURL(`**/account/chats/${chatId}`);
  await expect(tabs).toBeHidden();
  await expect(page.getByText('See you at the trailhead at 9?')).toBeVisible();
  await page.getByRole('link', { name: 'All chats' }).click();
  await page.waitForURL('**/account/chats');
  await expect(tabs.getByRole('link', { name: /^Chats/ })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: /^Chats/ })).toHaveAccessibleName('Chats', { timeout: 10_000 });
});

test('a request declined on the home screen is gone, and a new one raises the badge on the next visit @phone', async ({
  page,
  request,
}, testInfo) => {
  const city = cityOf(testInfo, 'home');
  const ora = await personIn(request, 'Ora Decides', city);
  const pia = await personIn(request, 'Pia Pushes', city);
  await askBuddy(request, pia, ora);
  await signIn(page, ora.email, PASSWORD, '/account');
  const tabs = page.getByRole('navigation', { name: 'Account' });
  await expect(tabs.getByRole('link', { name: /^Requests/ })).toHaveAccessibleName('Requests 1 request waiting');
  await page.getByRole('button', { name: 'Decline Pia Pushes’s request' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You declined Pia Pushes’s request.' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: /^Requests/ })).toHaveAccessibleName('Requests');
  const state = await query<{ state: string }>('select state from buddy_requests where sender_id = $1', [pia.id]);
  expect(state).toEqual([{ state: 'declined' }]);

  // Two more people ask; the badge counts both, here and on every tab.
  const quin = await personIn(request, 'Quin Asks', city);
  const rae = await personIn(request, 'Rae Asks', city);
  await askBuddy(request, quin, ora);
  await askBuddy(request, rae, ora);
  await tabs.getByRole('link', { name: /^Discover/ }).click();
  await expect(tabs.getByRole('link', { name: /^Discover/ })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: /^Requests/ })).toHaveAccessibleName('Requests 2 requests waiting');
  await expectTabBarPlaced(page, testInfo);
  await expectAccessible(page);
});

test.describe('in Tokyo', () => {
  test.use({ timezoneId: 'Asia/Tokyo', locale: 'en-GB' });

  test('Connected assistants: what each assistant did, at local times, and disconnecting an OAuth connection @phone', async ({
    page,
    request,
  }, testInfo) => {
    const city = cityOf(testInfo, 'assistants');
    const claude = { agentName: 'Claude', agentSessionId: 'conv-7' };
    const sol = await personIn(request, 'Sol Assisted', city, claude);
    const tia = await personIn(request, 'Tia Other', city);
    const uma = await personIn(request, 'Uma Asks', city);
    // Claude, for Sol: asks Tia, accepts Uma and writes twice.
    await askBuddy(request, sol, tia, claude);
    const umaAsked = await askBuddy(request, uma, sol);
    const chatId = (await post(request, sol, `/api/v1/buddy_requests/${umaAsked}/accept.json`, claude)).chat
      .chatId as string;
    await post(request, sol, `/api/v1/chats/${chatId}/messages.json`, { text: 'Hi Uma!', ...claude }, 201);
    await post(request, sol, `/api/v1/chats/${chatId}/messages.json`, { text: 'Saturday works.', ...claude }, 201);
    // Sent with Claude's key, a message that names no assistant is still Claude's (the key is).
    await post(request, sol, `/api/v1/chats/${chatId}/messages.json`, { text: 'And Sunday too.' }, 201);
    // An OAuth connection, as the consent screen records it (lib/oauth/interaction.ts).
    await query(
      `insert into access_tokens (user_id, token_hash, scopes, label, agent_name, oauth_client_id, confirmed_at)
       select $1, sha256(gen_random_uuid()::text::bytea), scopes, 'Connected with OAuth', 'ChatGPT', 'client-for-test', now()
       from access_tokens where user_id = $1 limit 1`,
      [sol.id],
    );
    // Sol has seen and kept Claude's key, so no first-sign-in question stands in the way.
    await query('update access_tokens set confirmed_at = now() where user_id = $1', [sol.id]);

    await signIn(page, sol.email, PASSWORD, '/account');
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
    await expect(page.getByRole('link', { name: /^Connected assistants/ })).toContainText(
      '2 connections can act for you.',
    );
    await expectTabBarPlaced(page, testInfo);
    await expectAccessible(page);
    await page.getByRole('link', { name: /^Connected assistants/ }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connected assistants');
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'true');

    const assistants = page.getByRole('list', { name: 'Your assistants' });
    const assistant = (name: string) =>
      assistants.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });
    await expect(assistant('Claude').getByRole('list', { name: 'What Claude did' }).getByRole('listitem')).toHaveText([
      'Sent 3 messages',
      'Sent 1 buddy request',
      'Answered 1 buddy request (1 accepted)',
      'Created your account',
    ]);
    await expect(assistant('Claude').locator('.token-head .tag').first()).toHaveText('Connected');
    const chatgpt = assistant('ChatGPT');
    await expect(chatgpt.getByRole('list', { name: 'ChatGPT: connections' })).toContainText('Connected with OAuth');
    await expect(chatgpt).toContainText('Nothing yet.');

    // Times are the reader's: Tokyo, in British English, not UTC.
    const lastActive = assistant('Claude').locator('p', { hasText: 'Last active' }).locator('time');
    const iso = (await lastActive.getAttribute('datetime'))!;
    const expected = new Intl.DateTimeFormat('en-GB', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Tokyo',
    }).format(new Date(iso));
    await expect(lastActive).toHaveText(expected);
    await expect(page.getByRole('main')).not.toContainText('UTC');
    await expect(page.getByRole('list', { name: 'Recent actions' })).toContainText('Claude sent a message');
    await expectAccessible(page);
    await screenshot(page, testInfo, 'connected-assistants');

    // Disconnecting the OAuth connection ends it.
    await chatgpt.getByRole('button', { name: 'Disconnect ChatGPT (Connected with OAuth)' }).click();
    await expect(chatgpt.locator('.token-head .tag').first()).toHaveText('Disconnected');
    const rows = await query<{ revoked: boolean }>(
      "select revoked_at is not null as revoked from access_tokens where user_id = $1 and label = 'Connected with OAuth'",
      [sol.id],
    );
    expect(rows).toEqual([{ revoked: true }]);
    // Claude keeps its access.
    expect((await request.get(`${baseUrl()}/api/v1/me.json`, { headers: bearer(sol) })).status()).toBe(200);

    // The old tokens page leads here.
    await page.goto(`${baseUrl()}/account/tokens`);
    await page.waitForURL('**/account/agents');
  });
});
