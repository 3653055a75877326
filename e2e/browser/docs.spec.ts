// /docs, the API reference for people: generated from the contract, readable on a phone
// and on a desktop, accessible, and free of CSP violations.
import { endpoints } from '@/lib/contract';
import { baseUrl, expect, expectAccessible, screenshot, test } from './support';

test('the API reference lists every endpoint, reads well and is accessible @phone', async ({ page }, testInfo) => {
  test.setTimeout(120_000); // axe over every endpoint's tables takes a while on a busy machine
  const response = await page.goto(`${baseUrl()}/docs`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API reference');

  const toc = page.getByRole('navigation', { name: 'Endpoints' });
  await expect(toc.getByRole('link')).toHaveCount(endpoints.length);
  const register = page.locator('#op-register');
  await expect(register.getByRole('heading', { level: 3 })).toHaveText('POST /api/v1/register.json');
  const displayName = register
    .getByRole('table', { name: 'Request body' })
    .getByRole('row')
    .filter({ has: page.getByText('displayName', { exact: true }) });
  await expect(displayName.getByRole('cell').first()).toHaveText('displayName required');

  // Nothing sticks out sideways (long paths and JSON wrap, tables fit), so the page never
  // scrolls sideways and no box needs its own keyboard-reachable scrolling.
  const sticksOut = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('main *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').slice(0, 60)}`);
  });
  expect(sticksOut, 'elements wider than the screen').toEqual([]);

  await expectAccessible(page);
  await screenshot(page, testInfo, 'docs');
});
