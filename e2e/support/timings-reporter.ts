// Playwright reporter: how long each spec file took, per project, written to
// test-results/playwright-timings.json at the end of the run. `npm test` prints the ten
// slowest from it (scripts/test-timings.ts); docs/testing.md explains the figures.
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import type { BrowserTimings } from '@/scripts/test-timings';

const root = path.resolve(import.meta.dirname, '../..');
export const PLAYWRIGHT_TIMINGS = path.join(root, 'test-results', 'playwright-timings.json');

export default class TimingsReporter implements Reporter {
  private started = Date.now();
  private readonly files = new Map<string, { file: string; project: string; seconds: number; tests: number }>();
  private readonly tests: BrowserTimings['tests'] = [];

  onBegin(_config: FullConfig): void {
    this.started = Date.now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const file = path.relative(root, test.location.file);
    const project = test.parent.project()?.name ?? '';
    const key = `${project}\0${file}`;
    const entry = this.files.get(key) ?? { file, project, seconds: 0, tests: 0 };
    // A test's duration includes its hooks and fixtures (a beforeAll counts in the first test).
    entry.seconds += result.duration / 1000;
    entry.tests += result.retry === 0 ? 1 : 0;
    this.files.set(key, entry);
    this.tests.push({ file, project, title: test.title, seconds: result.duration / 1000, status: result.status });
  }

  onEnd(): void {
    const timings: BrowserTimings = {
      wallSeconds: (Date.now() - this.started) / 1000,
      files: [...this.files.values()],
      tests: this.tests,
    };
    fs.mkdirSync(path.dirname(PLAYWRIGHT_TIMINGS), { recursive: true });
    fs.writeFileSync(PLAYWRIGHT_TIMINGS, `${JSON.stringify(timings, null, 1)}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
