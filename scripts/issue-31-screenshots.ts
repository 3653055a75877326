// Issue 31's before-and-after pictures (docs/screenshots/issue-31): the sign-in link's
// landing page, a chat thread and Discover on a 390 px phone, and the start page on a
// desktop, from a throwaway stack of the checkout it runs in. Run it in the tree to picture:
//   npx tsx scripts/issue-31-screenshots.ts <output folder>
// (for "before", copy it into a worktree of the commit before issue 31's work).
import fs from 'node:fs';
import path from 'node:path';
import { chromium, devices, type Page } from '@playwright/test';
import sharp from 'sharp';
import { startStack } from '../e2e/support/stack';
import { portrait, type Registered, stackCaller } from './stack-call';
import { findChromium } from './chromium';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'screenshots', 'issue-31', 'after'));
const PASSWORD = 'issue-31-screenshots-password';
const stack = await startStack();
const call = stackCaller(stack.baseUrl);

const person = (displayName: string, email: string, aboutMe: string, emailMagicLink = false) =>
  call<Registered>('POST', '/api/v1/register.json', {
    email,
    displayName,
    password: PASSWORD,
    emailMagicLink,
    aboutMe,
    gender: 'female',
    birthday: '1992-04-05',
    location: 'Lisbon, Portugal',
    activities: ['hiking', 'rock climbing', 'coffee'],
    availability_text: 'Saturday mornings and Wednesday evenings',
  });

/** A PNG of few colours: a small file for the repository. */
async function save(page: Page, name: string): Promise<void> {
  const png = await page.screenshot();
  await sharp(png)
    .png({ palette: true, quality: 80, compressionLevel: 9 })
    .toFile(path.join(outDir, `${name}.png`));
}

/** The sign-in link in the newest mail to `email` in the stack's outbox (DATA_DIR/mail). */
async function linkMailedTo(email: string): Promise<string> {
  const dir = path.join(stack.dataDir, 'mail');
  for (let tries = 0; tries < 100; tries += 1) {
    for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : []) {
      const raw = fs
        .readFileSync(path.join(dir, file), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!raw.includes(email)) continue;
      const link = /https?:\/\/\S+\/signin\/link\?token=[\w-]+/.exec(raw)?.[0];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no sign-in link mailed to ${email}`);
}

try {
  const ana = await person('Ana', 'ana@example.com', 'Weekend hiker, slow runner, always up for a coffee after.');
  const bea = await person('Bea', 'bea@example.com', 'New in Lisbon. Climbing twice a week, hiking when not too hot.');
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
  const lines = [
    'Perfect. Train from Rossio at 8:40?',
    'Works for me. I will bring oranges.',
    'Great. Is the trail steep? My knee is still a bit sore from the gym.',
    'A few steps near the palace, the rest is gentle. We can take it slow.',
    'Lovely. Shall we have lunch in the village after?',
    'Yes, there is a little bakery by the station. Travesseiros!',
    'See you at the platform!',
  ];
  for (const [i, text] of lines.entries()) await call('POST', chat, { text }, (i % 2 === 0 ? bea : ana).auth.token);

  const others = [
    await person('Carla', 'carla@example.com', 'Trail runner. Sintra on Saturdays, coffee in Graça after.'),
    await person('Duda', 'duda@example.com', 'Climbing gym regular, learning to lead. Coffee snob.'),
    await person('Eva', 'eva@example.com', 'Hiking the coast path one weekend at a time.'),
    await person('Filipa', 'filipa@example.com', 'Bouldering after work, long walks on Sundays.'),
    await person('Gabi', 'gabi@example.com', 'Coffee first, then a hill. Any hill.'),
  ];
  for (const [i, who] of [ana, bea, ...others].entries()) {
    await call(
      'POST',
      '/api/v1/me/photo.json',
      { photo: (await portrait('ABCDEFG'[i] ?? 'X', (i * 47) % 360)).toString('base64'), mimeType: 'image/jpeg' },
      who.auth.token,
    ).catch((error: unknown) => console.warn(`photo ${i} not set: ${String(error)}`));
  }
  // Someone an assistant signed up: the sign-in link mailed to her is the page she lands on.
  const newcomer = await person('Hana', 'hana@example.com', 'Just moved here, looking for hiking company.', true);
  const link = await linkMailedTo(newcomer.user.email);

  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  fs.mkdirSync(outDir, { recursive: true });
  const phoneOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

  // An iPhone's Safari, as the people who met the dead end had: the page picks its buttons by device.
  const landing = await browser.newPage({ ...phoneOptions, userAgent: devices['iPhone 13'].userAgent });
  await landing.goto(link);
  await landing.getByRole('heading', { level: 1 }).first().waitFor();
  await save(landing, 'link-landing-phone');

  const phone = await browser.newPage(phoneOptions);
  const csrf = (await (await phone.request.get(`${stack.baseUrl}/auth/csrf`)).json()) as { csrfToken: string };
  await phone.request.post(`${stack.baseUrl}/auth/callback/password`, {
    form: { csrfToken: csrf.csrfToken, email: ana.user.email, password: PASSWORD, callbackUrl: '/account' },
    maxRedirects: 0,
  });
  await phone.goto(`${stack.baseUrl}/account/chats/${accepted.chat.chatId}`);
  await phone.getByText('See you at the platform!').waitFor();
  await phone.waitForTimeout(500);
  await save(phone, 'chat-thread-phone');
  await phone.goto(`${stack.baseUrl}/account/discover`);
  await phone.getByRole('heading', { level: 1 }).first().waitFor();
  await phone
    .getByText(/Carla/)
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => console.warn('Discover shows no Carla'));
  await save(phone, 'discover-phone');

  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await desktop.goto(`${stack.baseUrl}/start/claude`);
  await desktop.getByRole('heading', { level: 1 }).first().waitFor();
  await save(desktop, 'start-claude-desktop');
  await browser.close();
  console.log(`Saved to ${outDir}`);
} finally {
  await stack.stop();
}
