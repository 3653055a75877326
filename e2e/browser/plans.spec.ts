// Issue 29, section 8 in the browser, at 390 px and 1280 px, under the strict CSP and axe:
// a plan proposed in the chat is a card among the messages; the other person, in their
// own browser, accepts it and both see it confirmed; times read on each person's clock
// (and the other's where it differs); the plan page cancels it, undoing what an
// assistant did; the home screen's Upcoming block shows the next plan.
import fs from 'node:fs';
import type { APIRequestContext, Browser, TestInfo } from '@playwright/test';
import {
  baseUrl,
  bearer,
  expect,
  expectAccessible,
  isDesktop,
  makeBuddies,
  register,
  screenshot,
  signIn,
  PASSWORD,
  test,
} from './support';

test.describe.configure({ timeout: 150_000 });

function person(request: APIRequestContext, displayName: string, timezone: string, agentName?: string) {
  return register(request, { displayName, timezone, ...(agentName ? { agentName } : {}) });
}

async function secondPage(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({
    viewport: testInfo.project.use.viewport ?? undefined,
    isMobile: testInfo.project.use.isMobile,
    hasTouch: testInfo.project.use.hasTouch,
  });
  return { context, page: await context.newPage() };
}

/** The next Saturday at least 3 days away, as the date input wants it ("2026-12-05"). */
function nextSaturday(): string {
  const day = new Date(Date.now() + 3 * 86_400_000);
  while (day.getUTCDay() !== 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

test('a plan proposed in the chat is accepted in the other browser, and both see it confirmed', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const ana = await person(request, 'Ana Planner', 'Europe/Madrid');
  const bea = await person(request, 'Bea Lisboa', 'Europe/Lisbon');
  const chatId = await makeBuddies(request, ana, bea);

  // Ana proposes in the chat: 10:00 on her clock.
  await signIn(page, ana.email, PASSWORD, `/account/chats/${chatId}`);
  await page.getByRole('button', { name: 'Propose a plan' }).click();
  await page.getByLabel('Activity').fill('Bouldering');
  await page.getByLabel('Date').fill(nextSaturday());
  await page.getByLabel('Time').fill('10:00');
  await page.getByLabel('Place').fill('Block Hall');
  await page.getByLabel('Address (optional)').fill('Hauptstraße 1');
  await page.getByRole('button', { name: 'Propose plan' }).click();
  const log = page.getByRole('log', { name: 'Messages with Bea Lisboa' });
  const anaCard = log.getByRole('article', { name: 'Plan: Bouldering' });
  await expect(anaCard).toContainText('Waiting for Bea');
  await expect(anaCard).toContainText('10:00–12:00');
  // Bea lives an hour behind: her clock is shown too.
  await expect(anaCard).toContainText('09:00–11:00 for Bea (Lisbon time)');
  await expect(anaCard).toContainText('Proposed by you');
  await expect(anaCard.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'plan-proposed');

  // Bea, in her own browser, sees it on her clock and accepts.
  const other = await secondPage(browser, testInfo);
  try {
    await signIn(other.page, bea.email, PASSWORD, `/account/chats/${chatId}`);
    const beaCard = other.page
      .getByRole('log', { name: 'Messages with Ana Planner' })
      .getByRole('article', { name: 'Plan: Bouldering' });
    await expect(beaCard).toContainText('Waiting for your answer');
    await expect(beaCard).toContainText('09:00–11:00');
    await expect(beaCard).toContainText('Proposed by Ana');
    await expect(beaCard.getByRole('button', { name: 'Decline' })).toBeVisible();
    await expect(beaCard.getByRole('button', { name: 'Suggest another time' })).toBeVisible();
    await expectAccessible(other.page);
    await beaCard.getByRole('button', { name: 'Accept' }).click();
    await expect(beaCard).toContainText('Confirmed');
    await expect(beaCard).toContainText('Accepted by you');
  } finally {
    await other.context.close();
  }

  // Ana's open chat picks it up without a reload.
  await expect(anaCard).toContainText('Confirmed', { timeout: 15_000 });
  await expect(anaCard).toContainText('Accepted by Bea');
  await expect(anaCard.getByRole('button', { name: 'Cancel plan' })).toBeVisible();
});

test('a counter-proposal from the card, the home screen’s Upcoming, and undoing an assistant’s plan on the plan page', async ({
  page,
  request,
}, testInfo) => {
  const ana = await person(request, 'Ana Home', 'Europe/Madrid');
  // Bea's assistant registered her, and proposes with her token.
  const bea = await person(request, 'Bea Helped', 'Europe/Madrid', 'Claude');
  const chatId = await makeBuddies(request, ana, bea);
  const startsAt = `${nextSaturday()}T09:00:00Z`;
  const res = await request.post(`${baseUrl()}/api/v1/chats/${chatId}/plans.json`, {
    headers: bearer(bea),
    data: {
      activity: 'Hiking',
      starts_at: startsAt,
      ends_at: `${nextSaturday()}T10:00:00Z`,
      place: { name: 'Trailhead café' },
      note: 'Bring water',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const planId = (await res.json()).plan.id as string;

  // Home: the proposal waits in Upcoming, with who proposed it.
  await signIn(page, ana.email, PASSWORD, '/account');
  const upcoming = page.getByRole('region', { name: 'Upcoming' });
  const card = upcoming.getByRole('article', { name: 'Plan: Hiking' });
  await expect(card).toContainText('Proposed by Claude for Bea');
  await expect(card).toContainText('10:00–11:00');
  // Same zone: no second clock.
  await expect(card).not.toContainText('Madrid time');
  await expectAccessible(page);

  // Suggest another time: a counter that replaces it.
  // Issue 46 §7: it keeps the plan's hour and its note (it once made 19:00–20:00 into 19:30–21:30, note gone).
  await card.getByRole('button', { name: 'Suggest another time' }).click();
  await expect(card.getByLabel('Note (optional)')).toHaveValue('Bring water');
  await card.getByLabel('Time').fill('15:00');
  await card.getByRole('button', { name: 'Suggest this time' }).click();
  const counter = upcoming.getByRole('article', { name: 'Plan: Hiking' }).filter({ hasText: '15:00–16:00' });
  await expect(counter).toContainText('Waiting for Bea');
  await expect(upcoming.getByRole('article', { name: 'Plan: Hiking' }).first()).toContainText(
    'Replaced by another time',
  );
  // Issue 46 §7: a plan that will not happen is one line, not a phone screen, and opens on a tap.
  const replacedCard = upcoming
    .getByRole('article', { name: 'Plan: Hiking' })
    .filter({ hasText: 'Replaced by another time' });
  const [closedBox, openBox] = [(await replacedCard.boundingBox())!, (await counter.boundingBox())!];
  expect(closedBox.height).toBeLessThan(openBox.height / 2);
  await expect(replacedCard.getByText('Trailhead café')).toBeHidden();
  await replacedCard.getByText('Replaced by another time').click();
  await expect(replacedCard.getByText('Trailhead café')).toBeVisible();
  await expectAccessible(page);
  const replaced = await request.get(`${baseUrl()}/api/v1/plans/${planId}.json`, { headers: bearer(bea) });
  const { plan: old } = await replaced.json();
  expect(old.status).toBe('superseded');
  const sent = await request.get(`${baseUrl()}/api/v1/plans/${old.superseded_by}.json`, { headers: bearer(bea) });
  expect((await sent.json()).plan).toMatchObject({ note: 'Bring water', status: 'proposed' });

  // Bea's assistant accepts the counter; Ana undoes it from the plan page.
  const list = await request.get(`${baseUrl()}/api/v1/plans.json?view=to_answer`, { headers: bearer(bea) });
  const counterId = (await list.json()).plans[0].id as string;
  const accepted = await request.post(`${baseUrl()}/api/v1/plans/${counterId}/accept.json`, { headers: bearer(bea) });
  expect(accepted.status(), await accepted.text()).toBe(200);

  await page.goto(`${baseUrl()}/account`);
  await expect(upcoming.getByRole('article', { name: 'Plan: Hiking' })).toContainText('Confirmed');
  await expect(upcoming).toContainText('Accepted by Claude for Bea');
  await upcoming.getByRole('link', { name: 'Plan details' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Plan with Bea Helped');
  const detail = page.getByRole('article', { name: 'Plan: Hiking' });
  await expect(detail).toContainText('Trailhead café');
  // Add to calendar downloads this plan's own .ics, named after it and linking back (issue 46 §7).
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Add to calendar' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^hiking-with-bea-\d{4}-\d{2}-\d{2}\.ics$/);
  const ics = await file.path().then((saved) => fs.readFileSync(saved, 'utf8'));
  expect(ics).toMatch(/^BEGIN:VCALENDAR/);
  expect(ics.replace(/\r\n[ \t]/g, '')).toContain(`URL;VALUE=URI:${baseUrl()}/account/plans/${counterId}`);
  // Or Google Calendar's own add page, with the same event.
  const google = new URL((await page.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href'))!);
  expect(google.host).toBe('calendar.google.com');
  expect(google.searchParams.get('text')).toBe('Hiking with Bea');
  expect(google.searchParams.get('dates')).toMatch(/^\d{8}T140000Z\/\d{8}T150000Z$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'plan-page');
  await detail.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(detail).toContainText('Cancelled');
  await expect(detail).toContainText('Cancelled by you');
  const cancelled = await request.get(`${baseUrl()}/api/v1/plans/${counterId}.json`, { headers: bearer(bea) });
  expect((await cancelled.json()).plan.status).toBe('cancelled');

  // The plans list has it under past and closed; someone else's plan page is not found.
  await page.goto(`${baseUrl()}/account/plans`);
  await expect(page.getByRole('region', { name: 'Past and closed' })).toContainText('Hiking with Bea Helped');
  await expectAccessible(page);
  if (isDesktop(testInfo)) {
    const stranger = await person(request, 'Stranger Danger', 'UTC');
    await signIn(page, stranger.email, PASSWORD, '/account');
    const response = await page.goto(`${baseUrl()}/account/plans/${counterId}`);
    expect(response?.status()).toBe(404);
  }
});
