// The JavaScript a signed-in page costs, as the browser downloads it (encoded bytes of every
// script response), for the home page and a chat thread, at phone and desktop size.
// Issue 31 asks for 120 KB; this holds the line where it stands (130 KB) so it can only go down.
// Next.js and React alone are 113 KB (brotli) on every App Router page, and the account
// layout's SWR and bar 8 KB more: the next cut is SWR or a lighter runtime, not page code.
// Brotli for built scripts (server/doors/static.ts), plan code loaded only when a chat
// has plans, and notification settings out of the thread brought them from ~149 KB (gzip).
import type { Page, Response } from '@playwright/test';
import { expect, isDesktop, makeBuddies, register, sendChatMessage, signIn, test } from './support';

const BUDGET_BYTES = 130 * 1024;

/** Signs in on a fresh page (empty browser cache), opens `path`, and sums the encoded bytes of its scripts. */
async function scriptBytes(page: Page, email: string, path: string): Promise<{ bytes: number; files: number }> {
  const sizes: Promise<number>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() === 'script')
      sizes.push(
        response
          .request()
          .sizes()
          .then((s) => s.responseBodySize),
      );
  });
  await signIn(page, email, undefined, path);
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  return { bytes: all.reduce((a, b) => a + b, 0), files: all.length };
}

test('home and a chat thread download at most 130 KB of JavaScript', async ({ browser, page, request }, testInfo) => {
  const me = await register(request, { displayName: 'Budget Bruna' });
  const buddy = await register(request, { displayName: 'Budget Beto' });
  const chatId = await makeBuddies(request, me, buddy);
  await sendChatMessage(request, buddy, chatId, 'Coffee at ten?');
  for (const [name, path] of [
    ['home', '/account'],
    ['chat thread', `/account/chats/${chatId}`],
  ] as const) {
    const context = await browser.newContext({ viewport: page.viewportSize(), isMobile: !isDesktop(testInfo) });
    const { bytes, files } = await scriptBytes(await context.newPage(), me.email, path);
    await context.close();
    const kb = (bytes / 1024).toFixed(1);
    testInfo.annotations.push({ type: 'js', description: `${name}: ${kb} KB in ${files} files` });
    console.log(`${testInfo.project.name} ${name}: ${kb} KB of JavaScript in ${files} files`);
    expect(bytes, `${name} sends ${kb} KB of JavaScript`).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(files, `${name} loads its scripts`).toBeGreaterThan(3);
  }
});
