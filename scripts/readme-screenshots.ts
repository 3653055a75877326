// `npm run screenshots`: the README's pictures, taken from the real app in Debian's
// Chromium on a throwaway stack (fresh database, `server/start.ts`): the home page on a
// desktop, Discover, a chat and a profile on a 390 px phone, and the six MCP Apps views
// in a host built on the SDK's AppBridge, each fed a real tool result (the host of the
// views' browser tests, e2e/browser/mcp-apps-show.ts). Rerun it when those pages change.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import sharp from 'sharp';
import { mcpClient, showView, type ToolResult } from '../e2e/browser/mcp-apps-show';
import { startStack } from '../e2e/support/stack';
import { portrait, type Registered, stackCaller } from './stack-call';
import { VIEWS, VIEWS_OUT_DIR } from '../lib/mcp/views/registry';
import { findChromium } from './chromium';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'e2e', 'screenshots');
const PASSWORD = 'readme-screenshots-password';
const stack = await startStack();
const call = stackCaller(stack.baseUrl);

/** `agentName`: the token is that assistant's, so what it writes is labelled "Sent by Claude for Bea". */
const person = (displayName: string, email: string, aboutMe: string, agentName?: string) =>
  call<Registered>('POST', '/api/v1/register.json', {
    agentName,
    email,
    // Discover shows people only to, and only with, complete profiles.
    gender: 'female',
    birthday: '1993-05-14',
    displayName,
    password: PASSWORD,
    emailMagicLink: false,
    aboutMe,
    location: 'Lisbon, Portugal',
    activities: ['hiking', 'rock climbing', 'coffee'],
    availability_text: 'Saturday mornings and Wednesday evenings',
  });

/** The page as it shows, as a palette PNG: far smaller than Chromium's own, no visible difference at README scale. */
async function saveScreenshot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot();
  await sharp(png).png({ palette: true, compressionLevel: 9, effort: 10 }).toFile(path.join(outDir, name));
}

try {
  const ana = await person('Ana', 'ana@example.com', 'Weekend hiker, slow runner, always up for a coffee after.');
  const bea = await person(
    'Bea',
    'bea@example.com',
    'New in Lisbon. Climbing twice a week, hiking when it is not too hot.',
    'Claude',
  );
  const asked = await call<{ request: { id: string } }>(
    'POST',
    `/api/v1/users/${ana.user.slug}/buddy_request.json`,
    { message: 'Hi Ana! Up for Sintra on Saturday?' },
    bea.auth.token,
  );
  const accepted = await call<{ chat: { chatId: string } }>(
    'POST',
    `/api/v1/buddy_requests/${asked.request.id}/accept.json`,
    { firstMessage: 'Yes! The Monserrate trail?' },
    ana.auth.token,
  );
  const chat = `/api/v1/chats/${accepted.chat.chatId}/messages.json`;
  for (const [text, from] of [
    ['Perfect. Train from Rossio at 8:40?', bea],
    ['Works for me. I will bring oranges.', ana],
    ['See you at the platform!', bea],
  ] as const) {
    await call('POST', chat, { text }, from.auth.token);
  }

  // Three more people nearby, each with a photo (a coloured disc with initials), so Discover has faces.
  const carla = await person('Carla', 'carla@example.com', 'Trail runner. Sintra on Saturdays, coffee in Graça after.');
  const duda = await person('Duda', 'duda@example.com', 'Climbing gym regular, learning to lead. Coffee snob.');
  const eva = await person('Eva', 'eva@example.com', 'Hiking the coast path one weekend at a time.');
  for (const [who, initials, hue] of [
    [ana, 'A', 18],
    [bea, 'B', 200],
    [carla, 'C', 140],
    [duda, 'D', 280],
    [eva, 'E', 40],
  ] as const) {
    await call(
      'POST',
      '/api/v1/me/photo.json',
      { photo: (await portrait(initials, hue)).toString('base64'), mimeType: 'image/jpeg' },
      who.auth.token,
    ).catch((error: unknown) => console.warn(`photo for ${initials} not set: ${String(error)}`));
  }

  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  fs.mkdirSync(outDir, { recursive: true });
  const desktop = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await desktop.goto(stack.baseUrl);
  await saveScreenshot(desktop, 'home.png');

  const phoneSize = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
  const phone = await browser.newPage(phoneSize);
  const csrf = (await (await phone.request.get(`${stack.baseUrl}/auth/csrf`)).json()) as { csrfToken: string };
  await phone.request.post(`${stack.baseUrl}/auth/callback/password`, {
    form: { csrfToken: csrf.csrfToken, email: ana.user.email, password: PASSWORD, callbackUrl: '/account' },
    maxRedirects: 0,
  });
  await phone.goto(`${stack.baseUrl}/account/chats/${accepted.chat.chatId}`);
  await phone.getByText('See you at the platform!').waitFor();
  await saveScreenshot(phone, 'chat-phone.png');
  await phone.goto(`${stack.baseUrl}/account/discover`);
  await phone.getByRole('heading', { name: /Carla/ }).first().waitFor();
  await saveScreenshot(phone, 'discover-phone.png');
  await phone.goto(`${stack.baseUrl}/u/${carla.user.slug}`);
  await phone.getByRole('heading', { name: /Carla/ }).first().waitFor();
  await saveScreenshot(phone, 'profile-phone.png');

  // The MCP Apps views as Ana's assistant shows them. Eva asks Ana to be buddies and Bea
  // proposes a hike, so Requests and Plan have something to answer.
  await call(
    'POST',
    `/api/v1/users/${ana.user.slug}/buddy_request.json`,
    { message: 'Coast path from Cascais on Sunday?' },
    eva.auth.token,
  );
  const inThreeDays = new Date(Date.now() + 3 * 86_400_000);
  inThreeDays.setUTCHours(8, 40, 0, 0);
  await call(
    'POST',
    `/api/v1/chats/${accepted.chat.chatId}/plans.json`,
    { activity: 'Hiking', starts_at: inThreeDays.toISOString(), place: { name: 'Rossio station' } },
    bea.auth.token,
  );
  const assistant = await mcpClient(ana.auth, stack.baseUrl);
  const views = [
    { file: 'mcp-people.png', uri: 'ui://bm/people', tool: 'discover', input: {}, shows: 'Carla' },
    {
      file: 'mcp-requests.png',
      uri: 'ui://bm/requests',
      tool: 'list_buddy_requests',
      input: {},
      shows: 'Coast path from Cascais on Sunday?',
    },
    {
      file: 'mcp-send.png',
      uri: 'ui://bm/send',
      tool: 'send_buddy_request',
      input: { slug: duda.user.slug, message: 'Climbing on Wednesday evening?', confirm: 'person' },
      shows: 'Nothing is sent until you tap Send.',
    },
    {
      file: 'mcp-profile.png',
      uri: 'ui://bm/profile',
      tool: 'get_public_profile',
      input: { slug: carla.user.slug },
      shows: 'Free time',
    },
    {
      file: 'mcp-chat.png',
      uri: 'ui://bm/chat',
      tool: 'list_messages',
      input: { chatId: accepted.chat.chatId },
      shows: 'See you at the platform!',
    },
    {
      file: 'mcp-plan.png',
      uri: 'ui://bm/plan',
      tool: 'list_plans',
      input: { view: 'to_answer' },
      shows: 'Rossio station',
    },
  ];
  for (const { file, uri, tool, input, shows } of views) {
    const result = (await assistant.callTool({ name: tool, arguments: input })) as ToolResult;
    if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
    const page = await browser.newPage(phoneSize);
    await showView(page, assistant, uri, input, result, 'light');
    const view = page.frameLocator('iframe');
    await view.getByText(shows).first().waitFor();
    await view
      .locator('img')
      .evaluateAll((images: HTMLImageElement[]) =>
        Promise.all(images.map((img) => img.decode().catch(() => undefined))),
      );
    // The view reports its height once it has rendered; the host sizes the iframe to it.
    await page
      .waitForFunction(() => document.querySelector('iframe')?.style.height !== '400px', undefined, { timeout: 5_000 })
      .catch(() => undefined);
    await saveScreenshot(page, file);
    await page.close();
  }
  await assistant.close();
  await browser.close();
  console.log(
    `wrote ${path.relative(root, outDir)}/home.png, chat-phone.png, discover-phone.png, profile-phone.png ` +
      `and ${views.map((v) => v.file).join(', ')}`,
  );
  for (const view of VIEWS) {
    const html = fs.readFileSync(path.join(root, VIEWS_OUT_DIR, `${view.name}.html`));
    console.log(`MCP view ${view.name}: ${(gzipSync(html).length / 1024).toFixed(1)} KB gzipped`);
  }
} finally {
  await stack.stop();
}
