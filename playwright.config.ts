import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright never downloads a browser here.
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e/browser',
  globalSetup: './e2e/support/playwright-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['./e2e/support/server-log-reporter.ts'],
    ['./e2e/support/timings-reporter.ts'],
  ],
  outputDir: 'test-results',
  use: {
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and a screenshot; the
    // trace's screencast is left out: it cost 7% of the run (20 tests, twice: 100 and 102 s with it,
    // 92 and 96 s without).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // Every test runs on the desktop; at phone size only those tagged '@phone', where the layout differs
  // (the tab bar, full-screen chats, filters, a screen's width) or the test is about reading at that size.
  projects: [
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      grep: /@phone/,
      use: { browserName: 'chromium', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    },
  ],
});
