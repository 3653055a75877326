// MCP Apps views in a host (issue 32 §1-2): a test host built with the SDK's AppBridge
// (mcp-apps-host.ts) loads each view in a sandboxed iframe under the CSP the view declares,
// feeds it a real tool result from the running server, and the person's taps go back as
// tool calls to that server. Asserted: what reached the server, and axe on each view.
import { mcpClient, showView, type ToolResult } from './mcp-apps-show';
import { baseUrl, bearer, completePerson, expect, expectAccessible, isDesktop, screenshot, test } from './support';

test('People nearby and Requests in an MCP Apps host: photo cards, a request the person reviews and sends, accept with a first message @phone', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const city = { location: isDesktop(testInfo) ? 'Coimbra' : 'Aveiro' };
  const theme = isDesktop(testInfo) ? 'light' : 'dark';
  const ana = await completePerson(request, 'Ana Viewer', city);
  const ben = await completePerson(request, 'Ben Nearby', city);

  // People nearby: Ana's assistant called discover; the host shows its real result.
  const anaClient = await mcpClient(ana);
  const found = (await anaClient.callTool({ name: 'discover', arguments: {} })) as ToolResult;
  const calls = await showView(page, anaClient, 'ui://bm/people', {}, found, theme);
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', theme);
  const card = frame.locator('article', { hasText: 'Ben' });
  await expect(card.getByRole('heading', { name: 'Ben' })).toBeVisible();
  await expect(card.getByRole('list', { name: 'Activities you share with Ben' })).toContainText('hiking');
  await expect(card).toContainText('Free together:');
  // The photo loads from this site under the declared CSP.
  const photo = card.getByRole('img', { name: 'Photo of Ben' });
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page);

  await card.getByRole('button', { name: 'Ask Ben to be buddies' }).click();
  await card.getByLabel('Note to Ben (optional)').fill('Trail on Saturday?');
  await card.getByRole('button', { name: 'Review request' }).click();
  await expect(card.getByText('Nothing is sent until you tap Send.')).toBeVisible();
  await expect(card.locator('dd', { hasText: 'Trail on Saturday?' })).toBeVisible();
  const pending = await request.get(`${baseUrl()}/api/v1/buddy_requests.json`, { headers: bearer(ben) });
  expect((await pending.json()).received, 'nothing sent before the tap').toEqual([]);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'mcp-view-people');
  await card.getByRole('button', { name: 'Send' }).click();
  await expect(card.getByText('Request sent to Ben.')).toBeVisible();
  expect(calls.map((c) => c.name)).toEqual(['send_buddy_request', 'confirm_action']);
  expect(calls[0]!.arguments).toMatchObject({ slug: ben.slug, message: 'Trail on Saturday?', confirm: 'person' });
  const sent = await request.get(`${baseUrl()}/api/v1/buddy_requests.json`, { headers: bearer(ben) });
  const received = (await sent.json()).received as Array<{ message: string; invitationId: string }>;
  expect(received.map((r) => r.message)).toEqual(['Trail on Saturday?']);

  // Requests: Ben's assistant listed his requests; he accepts with a first message.
  const benClient = await mcpClient(ben);
  const list = (await benClient.callTool({ name: 'list_buddy_requests', arguments: {} })) as ToolResult;
  const benPage = await page.context().newPage();
  const benCalls = await showView(benPage, benClient, 'ui://bm/requests', {}, list, theme);
  const requestCard = benPage.frameLocator('iframe').locator('article', { hasText: 'Ana' });
  await expect(requestCard).toContainText('“Trail on Saturday?”');
  await expectAccessible(benPage);
  await requestCard.getByRole('button', { name: 'Accept Ana' }).click();
  await requestCard.getByLabel('First message to Ana (optional)').fill('Yes! 9am at the bridge?');
  await requestCard.getByRole('button', { name: 'Accept and send' }).click();
  await expect(requestCard.getByText('You and Ana are buddies.')).toBeVisible();
  await screenshot(benPage, testInfo, 'mcp-view-requests');
  expect(benCalls).toEqual([
    {
      name: 'accept_buddy_request',
      arguments: { invitationId: received[0]!.invitationId, firstMessage: 'Yes! 9am at the bridge?' },
    },
  ]);
  const chats = await request.get(`${baseUrl()}/api/v1/chats.json`, { headers: bearer(ana) });
  const chat = ((await chats.json()).chats as Array<{ last_message: { text: string } | null }>)[0];
  expect(chat?.last_message?.text).toBe('Yes! 9am at the bridge?');
  await Promise.all([anaClient.close(), benClient.close()]);
});
