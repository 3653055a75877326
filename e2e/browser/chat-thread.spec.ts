// Issue 31 §3 in the browser, at 390 px and 1280 px: a long chat opens at the newest
// message, clear of the message box, before and after sending; the box grows with a long
// message to about six lines; scrolling up pages back (the API's older_cursor) to message 1
// without the reader losing their place; and the chats list preview fills its line.
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  makeBuddies,
  PASSWORD,
  query,
  register,
  screenshot,
  sendChatMessage,
  signIn,
  test,
} from './support';

test.describe.configure({ timeout: 90_000 });

/** The element lies wholly inside the viewport and above the message box. */
async function clearOfTheBox(page: Page, item: Locator) {
  const box = await page.locator('form.composer').boundingBox();
  const it = await item.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !it || !viewport) return `missing: box ${!!box}, item ${!!it}`;
  return it.y >= 0 && it.y + it.height <= box.y + 0.5 && box.y + box.height <= viewport.height + 0.5
    ? 'clear'
    : `item ${it.y}..${it.y + it.height}, box ${box.y}..${box.y + box.height}, viewport ${viewport.height}`;
}

test('a 120-message chat opens at the newest, keeps it clear of the growing box, and scrolls back to message 1 @phone', async ({
  page,
  request,
}, testInfo) => {
  const ana = await register(request, { displayName: 'Ana Thread' });
  const bea = await register(request, { displayName: 'Bea Thread' });
  const chatId = await makeBuddies(request, ana, bea);
  // 119 messages over the last five days stored at once (120 sends would meet the per-chat
  // rate limit), the chat row kept in step as a send does; the 120th is sent through the API.
  await query(
    `insert into messages (chat_id, sender_id, text, created_at)
     select $1::uuid, case when g % 3 = 0 then $2::uuid else $3::uuid end,
            case when g = 1 then 'Message 1: the meeting point is Rua Augusta 12.' else 'Message ' || g || ': trail talk.' end,
            now() - (120 - g) * interval '1 hour'
     from generate_series(1, 119) g`,
    [chatId, ana.id, bea.id],
  );
  await query(
    `update chats set last_message_id = (select max(id) from messages where chat_id = $1::uuid),
            last_message_at = (select max(created_at) from messages where chat_id = $1::uuid) where id = $1::uuid`,
    [chatId],
  );
  await sendChatMessage(request, bea, chatId, 'Message 120: see you at the trailhead at nine.');

  await signIn(page, ana.email, PASSWORD, `/account/chats/${chatId}`);
  const log = page.getByRole('log', { name: 'Messages with Bea Thread' });
  const items = log.getByRole('listitem');
  const newest = items.last();
  await expect(newest).toContainText('Message 120');
  // The thread is the whole screen: no tab bar, a way back to the chats.
  await expect(page.getByRole('navigation', { name: 'Account' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'All chats' })).toBeVisible();
  await expect.poll(() => clearOfTheBox(page, newest)).toBe('clear');
  await expectAccessible(page);

  // A 1,446-character message: the box grows, to about six lines at most.
  const box = page.getByLabel('Message to Bea Thread');
  const oneLine = (await box.boundingBox())!.height;
  const long = Array.from({ length: 40 }, (_, i) => `Part ${i + 1}: north trailhead, water, a jacket.`)
    .join(' ')
    .slice(0, 1446);
  expect(long).toHaveLength(1446);
  await box.fill(long);
  const sixLines = await box.evaluate((el: HTMLTextAreaElement) => {
    const style = getComputedStyle(el);
    const frame = el.offsetHeight - el.clientHeight + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    return 6 * parseFloat(style.lineHeight) + frame + 1;
  });
  await expect.poll(async () => (await box.boundingBox())!.height).toBeGreaterThan(oneLine * 2.5);
  expect((await box.boundingBox())!.height).toBeLessThanOrEqual(sixLines);
  // It scrolls inside rather than growing on, and the newest message stays clear of it.
  expect(await box.evaluate((el: HTMLTextAreaElement) => el.scrollHeight > el.clientHeight)).toBe(true);
  await expect.poll(() => clearOfTheBox(page, newest)).toBe('clear');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(box).toHaveValue('');
  await expect(newest).toContainText('Part 34: north');

  // After a send, the newest message is in full view again.
  await box.fill('Sounds good, see you there!');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(newest).toContainText('Sounds good, see you there!');
  await expect.poll(() => clearOfTheBox(page, newest)).toBe('clear');
  await screenshot(page, testInfo, 'chat-thread-newest');

  // Scrolling to the top loads the page before, and what the reader saw stays where it was
  // (the first older page is held back until its place is measured).
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname.endsWith('/messages.json') && url.searchParams.has('cursor'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  const firstShown = items.filter({ hasText: 'Message 71:' });
  await log.evaluate((el) => el.scrollTo(0, 0));
  await expect(log.getByRole('status')).toHaveText('Loading older messages…');
  const before = (await firstShown.boundingBox())!.y;
  release();
  await expect(items.filter({ hasText: 'Message 21:' })).toHaveCount(1);
  expect(Math.abs((await firstShown.boundingBox())!.y - before)).toBeLessThan(2);
  // On up to message 1, from a week ago.
  const first = items.filter({ hasText: 'Message 1: the meeting point' });
  await expect(async () => {
    await log.evaluate((el) => el.scrollTo(0, 0));
    await expect(first).toBeInViewport({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(log.getByText('The start of your chat with Bea Thread')).toBeVisible();
  await expect(items).toHaveCount(122);

  // The chats list: the last words fill the row's line, ending in an ellipsis.
  await sendChatMessage(request, bea, chatId, long);
  await page.getByRole('link', { name: 'All chats' }).click();
  const preview = page.locator('.chat-list-preview').first();
  await expect(preview).toContainText('Part 1: north trailhead');
  const fit = await preview.evaluate((el) => {
    const row = el.closest('a')!;
    const inner = row.getBoundingClientRect().right - parseFloat(getComputedStyle(row).paddingRight);
    return { gap: inner - el.getBoundingClientRect().right, cut: el.scrollWidth > el.clientWidth };
  });
  expect(fit.gap).toBeLessThan(1);
  expect(fit.cut).toBe(true);
  await screenshot(page, testInfo, 'chat-list-preview');
});
