// The JavaScript a signed-in page costs, as the browser downloads it (encoded bytes of every
// script response): at most 120 KB for the home page and a chat thread (issue 31), at phone
// and desktop size. Framework code is most of it; brotli for built scripts
// (lib/http/static-front-door.ts) and plan code loaded only when a chat has plans keep it there.
import type { Page, Response } from '@playwright/test';
import { expect, isDesktop, makeBuddies, register, sendChatMessage, signIn, test } from './support';

const BUDGET_BYTES = 120 * 1024;

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

test('home and a chat thread download at most 120 KB of JavaScript', async ({ browser, page, request }, testInfo) => {
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
