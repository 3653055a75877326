import { expect, test } from '@playwright/test';

const base = () => process.env.E2E_BASE_URL!;

test('the home page introduces the service and points agents to the API', async ({ page }) => {
  const response = await page.goto(`${base()}/`);
  expect(response?.status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Buddy Match');
  await page.getByRole('link', { name: '/api/v1/index.json' }).click();
  await expect(page).toHaveURL(/\/api\/v1\/index\.json$/);
  await expect(page.locator('body')).toContainText('"endpoints"');
});

test('an unknown page shows a 404', async ({ page }) => {
  const response = await page.goto(`${base()}/no-such-page`);
  expect(response?.status()).toBe(404);
});
