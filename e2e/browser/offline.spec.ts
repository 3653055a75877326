// Offline, an account page shows the offline page (public/sw.js) with the signed-in person's
// chats as last seen: the list and a thread they opened. The copy is that person's alone:
// signing out wipes it, and someone else signing in on the same browser never sees it.
import type { Page } from '@playwright/test';
import {
  baseUrl,
  expect,
  expectAccessible,
  makeBuddies,
  register,
  screenshot,
  sendChatMessage,
  signIn,
  test,
} from './support';

test.describe.configure({ timeout: 60_000 });

/** The offline copies the service worker keeps: cache name → paths in it. */
function offlineCopies(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const copies: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      if (!name.startsWith('buddy-match-offline-')) continue;
      const cache = await caches.open(name);
      copies[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
    }
    return copies;
  });
}

async function offlinePaths(page: Page): Promise<string[]> {
  return Object.values(await offlineCopies(page)).flat();
}

test('offline, the chats list and a thread show as last seen; after sign-out, nothing', async ({
  page,
  request,
}, testInfo) => {
  const me = await register(request, { displayName: 'Offline Olga' });
  const buddy = await register(request, { displayName: 'Offline Oscar' });
  const chatId = await makeBuddies(request, me, buddy);
  await sendChatMessage(request, buddy, chatId, 'Meet at the Rossio clock at 8:40?');
  await sendChatMessage(request, me, chatId, 'Yes, see you there');

  await signIn(page, me.email, undefined, '/account/chats');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  // The API's answers stay out of shared caches (private); the offline copy is the service worker's.
  const live = await page.request.get(`${baseUrl()}/api/v1/chats.json`);
  expect(live.headers()['cache-control']).toMatch(/^private\b/);
  await expect.poll(() => offlinePaths(page)).toContain('/offline/chats');
  await page.getByRole('link', { name: /Offline Oscar/ }).click();
  await expect(page.getByText('Yes, see you there')).toBeVisible();
  await expect.poll(() => offlinePaths(page)).toContain(`/offline/thread/${chatId}`);

  await page.context().setOffline(true);
  await page.goto(`${baseUrl()}/account/chats`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You’re offline');
  // Light: the page is its own HTML, with no script to download.
  await expect(page.locator('script[src]')).toHaveCount(0);
  const list = page.getByRole('list', { name: 'Your chats' });
  await expect(list.getByRole('link', { name: /Offline Oscar/ })).toContainText('You: Yes, see you there');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'offline-chats');
  await list.getByRole('link', { name: /Offline Oscar/ }).click();
  await expect(page.getByRole('heading', { name: 'Chat with Offline Oscar, as last seen' })).toBeVisible();
  const thread = page.getByRole('list', { name: 'Messages' });
  await expect(thread.getByText('Meet at the Rossio clock at 8:40?')).toBeVisible();
  await expect(thread.getByText('Yes, see you there')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'offline-thread');

  // Signing out drops the copy: offline again, the page has no chats to show.
  await page.context().setOffline(false);
  await page.goto(`${baseUrl()}/account/settings`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/signin/);
  await expect.poll(() => offlineCopies(page)).toEqual({});
  await page.context().setOffline(true);
  await page.goto(`${baseUrl()}/account/chats`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You’re offline');
  await expect(page.getByRole('list', { name: 'Your chats' })).toHaveCount(0);
  await expect(page.getByText('Offline Oscar')).toHaveCount(0);
  await page.context().setOffline(false);
});

test('someone else signing in on the same browser never sees the last person’s chats offline', async ({
  page,
  request,
}) => {
  const first = await register(request, { displayName: 'First Fernanda' });
  const buddy = await register(request, { displayName: 'Secret Sergio' });
  const chatId = await makeBuddies(request, first, buddy);
  await sendChatMessage(request, buddy, chatId, 'Only Fernanda may read this');
  await signIn(page, first.email, undefined, `/account/chats/${chatId}`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
  await expect.poll(() => offlinePaths(page)).toContain(`/offline/thread/${chatId}`);

  // No sign-out: the next person signs in over the first one's session (the API way, which
  // the service worker does not see), and opens their home page only.
  const next = await register(request, { displayName: 'Next Nuno' });
  await signIn(page, next.email);
  await expect.poll(async () => (await offlinePaths(page)).length).toBe(0);
  await page.context().setOffline(true);
  for (const path of ['/account/chats', `/account/chats/${chatId}`]) {
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You’re offline');
    await expect(page.getByText(/Secret Sergio|Only Fernanda/)).toHaveCount(0);
  }
  await page.context().setOffline(false);
});
