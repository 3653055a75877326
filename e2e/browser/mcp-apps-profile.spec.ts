// The Profile view (ui://bm/profile, issue 32 §1) in a host built on the SDK's AppBridge:
// someone else's profile is read-only; one's own takes activities and free time edited in
// place, saved through the host with update_my_profile. Asserted: what reached the server
// (through the REST API), axe on each state, and no sideways scrolling at 360 px.
import { mcpClient, showView, type ToolResult } from './mcp-apps-show';
import { baseUrl, bearer, completePerson, expect, expectAccessible, isDesktop, screenshot, test } from './support';

test('Profile in an MCP Apps host: a buddy’s photo, activities and free time; one’s own edited in place @phone', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  if (!isDesktop(testInfo)) await page.setViewportSize({ width: 360, height: 740 });
  // Towns no other spec uses (browser specs share one database).
  const city = { location: isDesktop(testInfo) ? 'Portalegre' : 'Lamego' };
  const theme = isDesktop(testInfo) ? 'light' : 'dark';
  const ana = await completePerson(request, 'Ana Profile', city);
  const ben = await completePerson(request, 'Ben Profile', city);
  const anaClient = await mcpClient(ana);

  // Ben's profile, as Ana's assistant read it: nothing to edit.
  const benProfile = (await anaClient.callTool({
    name: 'get_public_profile',
    arguments: { slug: ben.slug },
  })) as ToolResult;
  await showView(page, anaClient, 'ui://bm/profile', { slug: ben.slug }, benProfile, theme);
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', theme);
  await expect(frame.getByRole('heading', { level: 1, name: 'Ben' })).toBeVisible();
  await expect(frame.getByRole('list', { name: 'Ben’s activities' })).toContainText('Hiking');
  const benSummary = JSON.parse(benProfile.content[0]!.text!).profile.schedule_summary as string;
  expect(benSummary).toBeTruthy();
  await expect(frame.getByRole('region', { name: 'Free time' })).toContainText(benSummary);
  // The photo loads from this site under the CSP the view declares.
  const photo = frame.getByRole('img', { name: 'Photo of Ben' });
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(frame.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);

  // Ana's own profile: edit activities, then free time, in place.
  const own = (await anaClient.callTool({ name: 'get_my_profile', arguments: {} })) as ToolResult;
  const ownPage = await page.context().newPage();
  if (!isDesktop(testInfo)) await ownPage.setViewportSize({ width: 360, height: 740 });
  const calls = await showView(ownPage, anaClient, 'ui://bm/profile', {}, own, theme);
  const view = ownPage.frameLocator('iframe');
  await expect(view.getByRole('heading', { level: 1, name: 'Ana (you)' })).toBeVisible();
  await view.getByRole('button', { name: 'Edit activities' }).click();
  const activities = view.getByLabel('Activities, separated by commas');
  await expect(activities).toHaveValue(/Hiking, Board games/i);
  await activities.fill('hiking, climbing');
  await expectAccessible(ownPage);
  await view.getByRole('button', { name: 'Save' }).click();
  await expect(view.getByText('Saved.')).toBeVisible();
  await expect(view.getByRole('list', { name: 'Your activities' })).toContainText('Rock climbing', {
    ignoreCase: true,
  });
  const me = async () =>
    (await (await request.get(`${baseUrl()}/api/v1/me.json`, { headers: bearer(ana) })).json()).profile as {
      activities: string[];
      availability_text: string | null;
      schedule_summary: string;
    };
  expect((await me()).activities.sort()).toEqual(['hiking', 'rock_climbing']);

  await view.getByRole('button', { name: 'Edit free time' }).click();
  await view.getByLabel('When you are free, in your own words').fill('weekday evenings');
  await view.getByRole('button', { name: 'Save' }).click();
  await expect(view.getByText('Saved.')).toBeVisible();
  const saved = await me();
  expect(saved.availability_text).toBe('weekday evenings');
  await expect(view.getByRole('region', { name: 'Free time' })).toContainText(saved.schedule_summary);
  expect(calls).toEqual([
    { name: 'update_my_profile', arguments: { activities: ['hiking', 'climbing'] } },
    { name: 'update_my_profile', arguments: { availability_text: 'weekday evenings' } },
  ]);
  await expectAccessible(ownPage);
  // Usable at the host's width (360 px on the phone): nothing scrolls sideways.
  const width = await ownPage.locator('iframe').evaluate((iframe: HTMLIFrameElement) => iframe.clientWidth);
  expect(width).toBeLessThanOrEqual(isDesktop(testInfo) ? 1280 : 360);
  const overflow = await view.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(ownPage, testInfo, 'mcp-view-profile');
  await anaClient.close();
});
