// The Chat and Plan views in an MCP Apps host (issue 32 §1-2), with the AppBridge test host
// (mcp-apps-host.ts): real tool results from the running server, the person's taps going
// back as tool calls, and what reached the server. A first message and accepting a plan go
// through the person confirmation: nothing happens before the tap. Axe on each view; the
// phone run is 360 px wide.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { APIRequestContext, Page } from '@playwright/test';
import { mcpClient, showView as showInHost, type ToolResult } from './mcp-apps-show';
import {
  baseUrl,
  bearer,
  expect,
  expectAccessible,
  isDesktop,
  makeBuddies,
  register,
  screenshot,
  sendChatMessage,
  test,
  type Registered,
} from './support';

/** Shows `uri` with a real `tool` result in the test host (mcp-apps-show.ts); returns the tool calls the view makes. */
async function showView(page: Page, client: Client, uri: string, tool: string, input: Record<string, unknown>) {
  const result = (await client.callTool({ name: tool, arguments: input })) as ToolResult;
  const theme: 'light' | 'dark' = page.viewportSize()!.width > 600 ? 'light' : 'dark';
  const calls = await showInHost(page, client, uri, input, result, theme);
  await expect(page.frameLocator('iframe').locator('html')).toHaveAttribute('data-theme', theme);
  return calls;
}

const messagesOf = async (request: APIRequestContext, user: Registered, chatId: string) =>
  (
    (await (
      await request.get(`${baseUrl()}/api/v1/chats/${chatId}/messages.json`, { headers: bearer(user) })
    ).json()) as { messages: Array<{ text: string; from_me: boolean }> }
  ).messages;

async function propose(request: APIRequestContext, by: Registered, chatId: string, hours: number, place: string) {
  const res = await request.post(`${baseUrl()}/api/v1/chats/${chatId}/plans.json`, {
    headers: bearer(by),
    data: {
      activity: 'Hiking',
      starts_at: new Date(Date.now() + hours * 3_600_000).toISOString(),
      place: { name: place },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).plan.id as string;
}

test('Chat and Plan in an MCP Apps host: a first message and a plan accepted only on the person’s tap @phone', async ({
  page,
  request,
}, testInfo) => {
  // 84 s measured on a shared, busy machine; the spec itself waits on nothing but the page.
  test.setTimeout(120_000);
  if (!isDesktop(testInfo)) await page.setViewportSize({ width: 360, height: 780 });
  const location = isDesktop(testInfo) ? 'Santarem' : 'Portalegre';
  const ana = await register(request, { displayName: 'Ana Chatview', location });
  // Bea's token is her assistant's: what it writes says "Sent by Claude for Bea".
  const bea = await register(request, { displayName: 'Bea Planner', location, agentName: 'Claude' });
  const chatId = await makeBuddies(request, ana, bea);
  await sendChatMessage(request, bea, chatId, 'Hi Ana! Hike on Sunday?');

  // Chat: Ana's assistant listed the messages; her first answer waits for her tap.
  const anaClient = await mcpClient(ana);
  const calls = await showView(page, anaClient, 'ui://bm/chat', 'list_messages', { chatId });
  const view = page.frameLocator('iframe');
  await expect(view.getByRole('heading', { name: 'Chat with Bea' })).toBeVisible();
  const thread = view.getByRole('list', { name: 'Messages with Bea' });
  await expect(thread).toContainText('Hi Ana! Hike on Sunday?');
  await expect(thread).toContainText('Sent by Claude for Bea');
  await expectAccessible(page);

  await view.getByLabel('Message to Bea').fill('Yes! 9 at the bridge?');
  await view.getByRole('button', { name: 'Review message' }).click();
  await expect(view.getByText('Nothing is sent until you tap Send.')).toBeVisible();
  await expect(view.locator('blockquote')).toHaveText('Yes! 9 at the bridge?');
  expect(await messagesOf(request, ana, chatId), 'nothing sent before the tap').toHaveLength(1);
  await expectAccessible(page);
  await view.getByRole('button', { name: 'Edit' }).click();
  await view.getByLabel('Message to Bea').fill('Yes! 10 at the bridge?');
  await view.getByRole('button', { name: 'Review message' }).click();
  await expect(view.locator('blockquote')).toHaveText('Yes! 10 at the bridge?');
  await screenshot(page, testInfo, 'mcp-view-chat');
  await view.getByRole('button', { name: 'Send' }).click();
  await expect(thread).toContainText('Yes! 10 at the bridge?');
  // Her next message is not her first: it goes at once.
  await view.getByLabel('Message to Bea').fill('Bring water');
  await view.getByRole('button', { name: 'Send' }).click();
  await expect(thread).toContainText('Bring water');
  const confirmed = calls.filter((c) => c.name !== 'list_chats');
  expect(confirmed.map((c) => c.name)).toEqual(['send_message', 'send_message', 'confirm_action', 'send_message']);
  expect(confirmed[2]!.arguments).toMatchObject({ kind: 'send_message', chatId, text: 'Yes! 10 at the bridge?' });
  expect(confirmed[3]!.arguments).toEqual({ chatId, text: 'Bring water' });
  const stored = await messagesOf(request, bea, chatId);
  expect(stored.map((m) => m.text)).toEqual(['Hi Ana! Hike on Sunday?', 'Yes! 10 at the bridge?', 'Bring water']);

  // Plans: Bea proposed two; Ana accepts one (after her tap) and suggests another time for the other.
  const first = await propose(request, bea, chatId, 48, 'North trailhead');
  const second = await propose(request, bea, chatId, 72, 'Old mill');
  const planPage = await page.context().newPage();
  if (!isDesktop(testInfo)) await planPage.setViewportSize({ width: 360, height: 780 });
  const planCalls = await showView(planPage, anaClient, 'ui://bm/plan', 'list_plans', { view: 'to_answer' });
  const plans = planPage.frameLocator('iframe');
  const firstCard = plans.locator('article', { hasText: 'North trailhead' });
  const secondCard = plans.locator('article', { hasText: 'Old mill' });
  await expect(firstCard.getByRole('heading', { name: 'Hiking with Bea' })).toBeVisible();
  await expect(firstCard).toContainText('Sent by Claude for Bea');
  await expectAccessible(planPage);

  await firstCard.getByRole('button', { name: 'Accept' }).click();
  await expect(firstCard.getByText('Nothing is accepted until you tap Accept; Bea is told.')).toBeVisible();
  const status = async (planId: string) =>
    (await (await request.get(`${baseUrl()}/api/v1/plans/${planId}.json`, { headers: bearer(ana) })).json()).plan
      .status;
  expect(await status(first), 'not accepted before the tap').toBe('proposed');
  await expectAccessible(planPage);
  await screenshot(planPage, testInfo, 'mcp-view-plan');
  await firstCard.getByRole('button', { name: 'Accept' }).click();
  await expect(firstCard.getByText('Confirmed: you meet Bea.')).toBeVisible();
  expect(await status(first)).toBe('confirmed');

  // Add to calendar opens the plan's .ics on this site (through the host).
  await secondCard.getByRole('button', { name: 'Add to calendar' }).click();
  await expect
    .poll(() => planPage.evaluate(() => window.openedLinks))
    .toEqual([`${baseUrl()}/api/v1/plans/${second}.ics`]);
  const ics = await request.get(`${baseUrl()}/api/v1/plans/${second}.ics`, { headers: bearer(ana) });
  expect(await ics.text()).toContain('BEGIN:VCALENDAR');

  await secondCard.getByRole('button', { name: 'Suggest another time' }).click();
  // datetime-local takes the wall clock of the browser, which runs on this machine's zone.
  const later = new Date(Date.now() + 5 * 24 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())}T10:30`;
  await secondCard.getByLabel('New start').fill(local);
  await secondCard.getByRole('button', { name: 'Suggest' }).click();
  await expect(secondCard.getByText('Suggested to Bea.')).toBeVisible();
  expect(planCalls.map((c) => c.name)).toEqual(['accept_plan', 'confirm_action', 'propose_plan']);
  expect(planCalls[1]!.arguments).toMatchObject({ kind: 'accept_plan', planId: first });
  expect(planCalls[2]!.arguments).toMatchObject({ chatId, replaces: second, place: { name: 'Old mill' } });
  expect(new Date(String(planCalls[2]!.arguments.starts_at)).getTime()).toBe(new Date(local).getTime());
  await anaClient.close();
});
