// /signup-with-ai in Chromium against the real server and database: the browser
// fallback an agent's link opens.
import type { Page } from '@playwright/test';
import { createDb, type Database } from '@/db';
import { signupLink, type SignupDraft } from '@/lib/signup-link';
import { expect, expectAccessible, screenshot, test } from './support';

const base = () => process.env.E2E_BASE_URL!;

// Registration hashes a password with a memory-hard hash: on a busy 2-core machine the
// answer can take seconds, so waits for it are longer than Playwright's default 5 s.
const ANSWER = { timeout: 20_000 };
// After creating the account the page also signs the browser in (a second hash).
test.describe.configure({ timeout: 90_000 });

let db: Database | undefined;
const testDb = () => (db ??= createDb(process.env.E2E_DATABASE_URL!, 2));
test.afterAll(async () => {
  await db?.destroy();
  db = undefined;
});

let counter = 0;
/** A fresh client address per test (the test stack trusts X-Forwarded-For), so the per-IP limit never bites by accident. */
function freshIp(): string {
  counter += 1;
  const n = ((process.pid % 100) + 100) * 4096 + counter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
const uniqueEmail = (tag: string) => `${tag}-${process.pid}-${Date.now()}-${(counter += 1)}@example.com`;

async function openLink(page: Page, values: Partial<SignupDraft>, ip = freshIp()) {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': ip });
  const response = await page.goto(signupLink(base(), values));
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Create my account' })).toBeEnabled();
}

/** Counts the registration POSTs the page sends. */
function countRegistrations(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/v1/register.json')) posts += 1;
  });
  return () => posts;
}

const usersWithEmail = (email: string) =>
  testDb()
    .selectFrom('users')
    .select(['id', 'display_name', 'agent_name', 'activities'])
    .where('email', '=', email)
    .execute();

test('a link built by an agent shows what will be sent, creates the account on one press and shows the result', async ({
  page,
}) => {
  const email = uniqueEmail('happy');
  const posts = countRegistrations(page);
  await openLink(page, {
    email,
    name: 'Robin',
    location: 'Portland, OR',
    gender: 'non-binary',
    birthday: '1991-07-04',
    about: 'Trail runner, new in town.',
    activities: 'hiking, xyzzy plugh, bord gamez',
    availability: 'weekends',
    agent: 'BrowserTestAgent',
  });

  const review = page.getByRole('region', { name: 'Check what will be sent' });
  await expect(review.getByText(email)).toBeVisible();
  await expect(review.locator('dd[data-field="name"]')).toHaveText('Robin');
  await expect(review.locator('dd[data-field="gender"]')).toHaveText('Non-binary');
  await expect(review.locator('dd[data-field="activities"]')).toHaveText('hiking, xyzzy plugh, bord gamez');
  await expect(page.getByTestId('review-email-error')).toHaveCount(0);
  await expect(review.getByText('BrowserTestAgent')).toBeVisible();
  expect(posts()).toBe(0);

  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeFocused(ANSWER);
  // Issue 31 §8: the page's heading no longer offers to create the account.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Buddy Match');
  await expect(page.getByLabel('Sign-in link')).toHaveValue(/\/signin\/link\?token=/);
  await expect(page.getByRole('textbox', { name: 'Password' })).toHaveValue(/^\w{5}-\w{5}-\w{5}-\w{5}$/);
  await expect(page.getByText('shown only this once')).toBeVisible();
  await expect(page.getByTestId('schedule-summary')).toHaveText(/Saturday and Sunday/);
  await expect(page.getByTestId('activities-unmatched')).toContainText('xyzzy plugh');
  // Suggestions by name, not by id.
  await expect(page.getByTestId('activities-unmatched')).toContainText(
    'bord gamez — did you mean Board Games, Card Games or Video Games?',
  );
  await expect(page.getByTestId('activities-unmatched')).not.toContainText('board_games');
  await expect(page.getByTestId('onboarding-missing')).toContainText('a photo');
  expect(posts()).toBe(1);

  // The browser is signed in to the new account, and the phone's sign-in link is left unused.
  await expect(page.getByTestId('browser-signin')).toHaveText('You’re signed in on this browser.', ANSWER);
  // Issue 31 §1: signed in here, "Open Buddy Match" opens the app, not the sign-in link page again.
  await expect(page.getByRole('link', { name: 'Open Buddy Match' })).toHaveAttribute('href', '/account');
  const me = await page.request.get(`${base()}/api/v1/me.json`);
  expect(me.status()).toBe(200);
  expect((await me.json()).profile.email).toBe(email);
  await page.getByRole('link', { name: 'Open your profile' }).click();
  await expect(page).toHaveURL(/\/account\/profile$/);
  await expect(page.getByLabel('Name')).toHaveValue('Robin');

  const rows = await usersWithEmail(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ display_name: 'Robin', agent_name: 'BrowserTestAgent', activities: ['hiking'] });
  // The assistant's signup keeps its key (SPEC 2.1: register.json answers auth.token).
  const keys = await testDb()
    .selectFrom('access_tokens')
    .select(['label', 'agent_name'])
    .where('user_id', '=', rows[0]!.id)
    .execute();
  expect(keys).toEqual([{ label: 'registration', agent_name: 'BrowserTestAgent' }]);
});

test('issue 31 §8: the API’s own field names are read too, and a parameter the page does not know is shown', async ({
  page,
}) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  const query = new URLSearchParams({
    email: uniqueEmail('api-names'),
    displayName: 'Dana',
    aboutMe: 'Cellist, new in town.',
    availability_text: 'Sunday afternoons',
    favouriteColour: 'teal',
  });
  await page.goto(`${base()}/signup-with-ai?${query}`);
  const review = page.getByRole('region', { name: 'Check what will be sent' });
  await expect(review.locator('dd[data-field="name"]')).toHaveText('Dana');
  await expect(review.locator('dd[data-field="about"]')).toHaveText('Cellist, new in town.');
  await expect(review.locator('dd[data-field="availability"]')).toHaveText('Sunday afternoons');
  await expect(page.getByRole('region', { name: 'Not used from your assistant’s link' })).toContainText(
    'favouriteColour: teal',
  );
  await expectAccessible(page);
});

test('HTML and script in the name are shown and stored as text, never run', async ({ page }) => {
  const email = uniqueEmail('xss');
  // At most 60 chars (the displayName limit), so it is accepted and stored.
  const payload = `<img src=x onerror="__pwned=1"><script>__pwned=2</script>Eve`;
  let dialogs = 0;
  page.on('dialog', async (dialog) => {
    dialogs += 1;
    await dialog.dismiss();
  });
  await openLink(page, { email, name: payload, about: '<b>bold?</b>' });
  await expect(page.locator('dd[data-field="name"]')).toHaveText(payload);
  await expect(page.locator('dd[data-field="about"]')).toHaveText('<b>bold?</b>');
  await expect(page.locator('dd img, dd script, dd b')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toBe(0);
  expect((await usersWithEmail(email))[0]?.display_name).toBe(payload);
});

test('bad input is explained in plain words beside a form to correct it', async ({ page }, testInfo) => {
  const badEmail = `not-an-email-${Date.now()}`;
  const email = uniqueEmail('fixed');
  const tooYoung = new Date(Date.now() - 5 * 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  await openLink(page, { email: badEmail, name: 'Kim', birthday: tooYoung });
  // The review step already says the email is wrong, before anything is sent.
  await expect(page.getByTestId('review-email-error')).toContainText('doesn’t look like an email address');
  await page.getByRole('button', { name: 'Create my account' }).click();

  const summary = page.getByRole('main').getByRole('alert');
  await expect(summary).toBeFocused(ANSWER);
  await expect(summary).toContainText('Please check these');
  await expect(
    summary.getByRole('link', { name: 'Email: Enter a valid email address, like sam@example.com.' }),
  ).toBeVisible();
  await expect(summary.getByRole('link', { name: 'Birthday: You need to be 13 or older.' })).toBeVisible();
  const emailInput = page.getByLabel('Email (required)');
  await expect(emailInput).toHaveAttribute('aria-invalid', 'true');
  await expect(emailInput).toHaveAccessibleDescription(/Enter a valid email address/);
  await expect(page.getByLabel('Birthday')).toHaveAccessibleDescription(/You need to be 13 or older/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'signup-with-ai-errors');
  expect(await testDb().selectFrom('users').select('id').where('email', '=', badEmail).execute()).toEqual([]);

  await summary.getByRole('link', { name: /Email:/ }).click();
  await expect(emailInput).toBeFocused();
  await emailInput.fill(email);
  await page.getByLabel('Birthday').fill('1990-01-15');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  expect(await usersWithEmail(email)).toHaveLength(1);
});

test('an email that already has an account says so and lets the person use another', async ({ page, request }) => {
  const email = uniqueEmail('taken');
  const first = await request.post(`${base()}/api/v1/register.json`, {
    data: { email, displayName: 'First' },
    headers: { 'x-forwarded-for': freshIp() },
  });
  expect(first.status()).toBe(201);
  await openLink(page, { email, name: 'Second' });
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('This email already has an account', ANSWER);
  // Since issue 30 the retry mails a sign-in link to the address that already has the account.
  await expect(page.getByRole('main').getByRole('alert')).toContainText('sent a sign-in link');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('No new account was created');
  await expect(page.getByLabel('Email (required)')).toHaveValue(email);
  expect(await usersWithEmail(email)).toHaveLength(1);
});

test('too many sign-ups from one network are explained with when to try again', async ({ page, request }) => {
  const ip = freshIp();
  for (let i = 0; i < 3; i += 1) {
    const res = await request.post(`${base()}/api/v1/register.json`, {
      data: { email: uniqueEmail('fill'), displayName: 'Filler' },
      headers: { 'x-forwarded-for': ip },
    });
    expect(res.status()).toBe(201);
  }
  const email = uniqueEmail('limited');
  await openLink(page, { email, name: 'Late' }, ip);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Too many sign-ups right now', ANSWER);
  await expect(page.getByRole('main').getByRole('alert')).toContainText(/try again in about \d+ minutes/);
  expect(await usersWithEmail(email)).toEqual([]);
});

test('a network failure says the account was not created and retrying works', async ({ page }) => {
  const email = uniqueEmail('offline');
  await openLink(page, { email, name: 'Offline' });
  await page.route('**/api/v1/register.json', (route) => route.abort('internetdisconnected'));
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('We could not reach Buddy Match', ANSWER);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not created');
  expect(await usersWithEmail(email)).toEqual([]);
  await page.unroute('**/api/v1/register.json');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  expect(await usersWithEmail(email)).toHaveLength(1);
});

test('pressing twice sends one registration, and reloading afterwards says the account exists', async ({ page }) => {
  const email = uniqueEmail('twice');
  const posts = countRegistrations(page);
  await openLink(page, { email, name: 'Twice' });
  // Slow the answer so the second press lands while the first is in flight.
  await page.route('**/api/v1/register.json', async (route) => {
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Create my account' }).dblclick();
  await expect(page.getByRole('button', { name: 'Creating your account…' })).toBeDisabled();
  await page.getByRole('button', { name: 'Creating your account…' }).click({ force: true });
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  expect(posts()).toBe(1);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your account already exists' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create my account' })).toHaveCount(0);
  expect(posts()).toBe(1);
  expect(await usersWithEmail(email)).toHaveLength(1);
});

test('a link without an email opens the form and asks for what is missing', async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': freshIp() });
  await page.goto(`${base()}/signup-with-ai?name=NoEmail`);
  await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible();
  await expect(page.getByLabel('Name (required)')).toHaveValue('NoEmail');
  await expect(page.getByLabel('Email (required)')).toHaveValue('');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('Email: Enter your email address.', ANSWER);
});

test('reads well and is accessible at the size of the project, phone or desktop (screenshots kept as artifacts) @phone', async ({
  page,
}, testInfo) => {
  await openLink(page, {
    email: uniqueEmail('look'),
    name: 'Pat',
    location: 'Berlin',
    activities: 'climbing, board games',
    availability: 'Tuesday evenings',
  });
  await expectAccessible(page);
  await screenshot(page, testInfo, 'signup-with-ai-review');
  await page.getByRole('button', { name: 'Change details' }).click();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'signup-with-ai-edit');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible(ANSWER);
  await expect(page.getByTestId('browser-signin')).toHaveText('You’re signed in on this browser.', ANSWER);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
  const box = await page.getByRole('link', { name: 'Open Buddy Match' }).boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'signup-with-ai-result');
});
