// The front door for people (issue 15 §1): the home page readable without JavaScript, the
// per-assistant start pages, and /signup for people without an assistant, in Chromium against
// the real server and database. The installable app's manifest and icons: e2e/api/web-assets.test.ts.
import { createDb, type Database } from '@/db';
import { ASSISTANTS } from '@/lib/web/start-guides';
import { expect, expectAccessible, freshIp, screenshot, test, uniqueEmail } from './support';

const base = () => process.env.E2E_BASE_URL!;
const ANSWER = { timeout: 20_000 };
test.describe.configure({ timeout: 60_000 });

let db: Database | undefined;
const testDb = () => (db ??= createDb(process.env.E2E_DATABASE_URL!, 2));
test.afterAll(async () => {
  await db?.destroy();
  db = undefined;
});

test('the home page says what Buddy Match does and gives three ways in, with no JavaScript needed', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: testInfo.project.use.viewport ?? undefined,
  });
  const page = await context.newPage();
  const response = await page.goto(`${base()}/`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buddy Match');
  // The sample card, named by its caption (the copy blocks below are labelled figures too).
  await expect(page.getByRole('figure', { name: /Discover shows people near you/ })).toContainText(
    'Free together: Saturday mornings',
  );
  await expect(page.getByLabel('Prompt for your assistant')).toContainText(
    `Sign me up for Buddy Match at ${base()} (read ${base()}/llms.txt first)`,
  );
  await expect(page.getByLabel('MCP server URL')).toHaveText(`${base()}/api/mcp`);
  for (const [name, path] of [
    ['ChatGPT', '/start/chatgpt'],
    ['Claude', '/start/claude'],
    ['Other assistants', '/start/other'],
    ['Create an account', '/signup'],
    ['Sign in', '/signin'],
  ] as const) {
    await expect(page.getByRole('link', { name, exact: true })).toHaveAttribute('href', path);
  }
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute('href', /icon/);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await screenshot(page, testInfo, 'home-no-js');
  await context.close();
});

test('the home page is accessible and fits the screen @phone', async ({ page }, testInfo) => {
  await page.goto(`${base()}/`);
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await screenshot(page, testInfo, 'home');
  await page.getByRole('link', { name: '/api/v1/index.json' }).click();
  await expect(page.locator('body')).toContainText('"endpoints"');
});

// Lighthouse-style budgets from Chromium's own performance timing, on a cold page (a new
// context, so nothing is cached): first contentful paint under 1 s on this machine, and
// under 100 KB of JavaScript over the wire (transfer sizes: what the browser downloaded).
// The home page is plain HTML with no client runtime (server/doors/home.tsx), so
// its JavaScript is 0 bytes; the budget still counts every script it might gain.
test('the home page holds its budgets: first paint under 1 s and under 100 KB of JavaScript @phone', async ({
  browser,
}, testInfo) => {
  const context = await browser.newContext({ viewport: testInfo.project.use.viewport ?? undefined });
  const page = await context.newPage();
  const response = await page.goto(`${base()}/`, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  const timing = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const scripts = resources.filter(
      (e) => e.initiatorType === 'script' || /\.m?js(\?|$)/.test(new URL(e.name).pathname),
    );
    return {
      fcpMs: paint ? Math.round(paint.startTime) : null,
      documentBytes: navigation.transferSize,
      resources: resources.length,
      scripts: scripts.length,
      scriptBytes: scripts.reduce((sum, e) => sum + e.transferSize, 0),
    };
  });
  testInfo.annotations.push({ type: 'budget', description: JSON.stringify(timing) });
  // The timing API itself answered (a page measured as nothing would pass any budget).
  expect(timing.documentBytes).toBeGreaterThan(1000);
  expect(timing.resources).toBeGreaterThan(0);
  expect(timing.fcpMs).not.toBeNull();
  expect(timing.fcpMs!).toBeLessThan(1000);
  expect(timing.scriptBytes).toBeLessThan(100 * 1024);
  // And the page's own HTML asks for no script at all.
  expect(await response!.text()).not.toMatch(/<script/i);
  await context.close();
});

for (const assistant of ASSISTANTS) {
  test(`/start/${assistant} gives the exact steps and the prompt to copy`, async ({ page }, testInfo) => {
    const response = await page.goto(`${base()}/start/${assistant}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Start with /);
    const steps = page.getByRole('main').getByRole('listitem');
    expect(await steps.count()).toBeGreaterThanOrEqual(3);
    await expect(page.getByRole('main')).toContainText(`Sign me up for Buddy Match at ${base()}`);
    if (assistant !== 'chatgpt') await expect(page.getByRole('main')).toContainText(`${base()}/api/mcp`);
    await expectAccessible(page);
    await screenshot(page, testInfo, `start-${assistant}`);
  });
}

test('issue 31 §7: the start page copies the prompt, opens the assistant with it typed in, and keeps commands for developers', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
  await page.goto(`${base()}/start/claude`);
  const prompt = (await page.locator('pre.copy-block').first().textContent())!;
  expect(prompt).toMatch(/^Sign me up for Buddy Match/);
  await page.getByRole('button', { name: 'Copy the prompt' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(prompt);
  await expect(page.getByRole('link', { name: 'Open Claude with this typed in' })).toHaveAttribute(
    'href',
    `https://claude.ai/new?${new URLSearchParams({ q: prompt })}`,
  );

  // Claude Code's commands wait under "For developers".
  const command = page.getByText('claude mcp add --transport http buddy-match', { exact: false }).first();
  await expect(command).toBeHidden();
  await page.getByText('For developers').click();
  await expect(command).toBeVisible();
  await expectAccessible(page);

  // A long address on a narrow phone wrapped as "api/mc p": now it breaks only after a "/".
  await page.goto(`${base()}/start/chatgpt`);
  await expect(page.getByRole('link', { name: 'Open ChatGPT with this typed in' })).toHaveAttribute(
    'href',
    `https://chatgpt.com/?${new URLSearchParams({ q: prompt })}`,
  );
  const address = page.locator('pre.copy-block').filter({ hasText: /\/api\/mcp$/ });
  const brokenWords = await address.evaluate((pre) => {
    // As narrow as a long host name makes it on a phone: the address no longer fits on one line.
    Object.assign((pre as HTMLElement).style, { boxSizing: 'content-box', width: `${pre.textContent!.length - 3}ch` });
    const broken: string[] = [];
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of (node.textContent ?? '').matchAll(/[A-Za-z]+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(word[0]);
      }
    }
    return broken;
  });
  expect(brokenWords).toEqual([]);
});

// Issue 47: what app directories check for. Plain HTML (server/doors/legal.tsx), so no
// JavaScript is needed; their text and periods are checked in e2e/api/legal-pages.test.ts.
test('the privacy policy and the terms are reached from the home page, fit the screen and are accessible @phone', async ({
  page,
}, testInfo) => {
  await page.goto(`${base()}/`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click();
  await expect(page).toHaveURL(`${base()}/privacy`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy policy');
  await expect(page.getByRole('heading', { name: 'How long we keep things' })).toBeVisible();
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await screenshot(page, testInfo, 'privacy');
  await page.getByRole('main').getByRole('link', { name: 'terms of use' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of use');
  await expectAccessible(page);
});

test('signup names the terms and the privacy policy beside its button', async ({ page }) => {
  await page.goto(`${base()}/signup`);
  const form = page.getByRole('main');
  await expect(form.getByRole('link', { name: 'terms of use' })).toHaveAttribute('href', '/terms');
  await expect(form.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', '/privacy');
});

test('an unknown assistant page is a 404', async ({ page }) => {
  const response = await page.goto(`${base()}/start/siri`);
  expect(response?.status()).toBe(404);
});

test('/signup creates an account from plain English and shows how it was understood', async ({ page }, testInfo) => {
  const email = uniqueEmail('web-signup');
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  await page.goto(`${base()}/signup`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign up');
  await expectAccessible(page);

  // Nothing filled in: the same plain-words errors as the agent's link.
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Email: Enter your email address.', ANSWER);

  await page.getByLabel('Email (required)').fill(email);
  await page.getByLabel('Name (required)').fill('Ana');
  await page.getByLabel('Location').fill('Lisbon');
  await page.getByLabel('Activities').fill('hiking, bouldering, xyzzy');
  await page.getByLabel('When you are free').fill('weeknights except fridays, sat 9:30am-noon');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  await expect(page.getByTestId('schedule-summary')).toHaveText('Monday–Thursday evenings; Saturday 10am–noon');
  await expect(page.getByTestId('normalized')).toContainText(
    '9:30am falls in the hour 9am–10am, so free time is counted from 10am',
  );
  await expect(page.getByTestId('activities-unmatched')).toContainText('xyzzy');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'signup-result');

  const [row] = await testDb()
    .selectFrom('users')
    .select(['id', 'display_name', 'activities', 'availability_text'])
    .where('email', '=', email)
    .execute();
  expect(row).toEqual({
    id: expect.any(String),
    display_name: 'Ana',
    activities: ['hiking', 'rock_climbing'],
    availability_text: 'weeknights except fridays, sat 9:30am-noon',
  });
  // Issue 31 §5: her own signup made no assistant key, so nothing asks her "who can act for you".
  // (It used to mint the 'registration' token an assistant gets from register.json.)
  expect(await testDb().selectFrom('access_tokens').select('id').where('user_id', '=', row!.id).execute()).toEqual([]);
  await expect(page.getByTestId('browser-signin')).toHaveText('You’re signed in on this browser.', ANSWER);
  // Issue 31 §1: "Open Buddy Match" opens the app.
  await page.getByRole('link', { name: 'Open Buddy Match' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hi, Ana');
  await expect(page.getByRole('region', { name: 'Check who can act for you' })).toHaveCount(0);
  await expectAccessible(page);
});
