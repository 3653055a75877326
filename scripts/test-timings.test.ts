import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_SECOND_LANE } from './test-lanes';
import {
  BEGIN,
  docsSection,
  failureList,
  markdownTable,
  END,
  type FileTime,
  forDocs,
  formatSeconds,
  renderDocsSection,
  SAVED_TIMINGS,
  slowestTable,
  TESTING_DOC,
  type Timings,
  vitestFailures,
  vitestFileTimes,
  withDocsSection,
} from './test-timings';

const root = path.resolve(import.meta.dirname, '..');

const run: Timings = {
  startedAt: '2026-11-29T03:00:00.000Z',
  commit: 'abc1234',
  passed: true,
  cores: 2,
  loadAverage: { start: 0.42, end: 1.77 },
  phases: [
    { label: 'format and lint', seconds: 3.04 },
    {
      label: 'API tests',
      seconds: 400.26,
      cpuBusy: 0.6543,
      steps: [
        { label: 'api 1', seconds: 390.1 },
        { label: 'api 2', seconds: 400.2 },
      ],
    },
  ],
  files: [
    ...Array.from(
      { length: 12 },
      (_, i): FileTime => ({
        kind: 'unit',
        file: `lib/x${i}.test.ts`,
        project: '',
        seconds: i,
        tests: 2,
      }),
    ),
    { kind: 'browser', file: 'e2e/browser/a.spec.ts', project: 'phone', seconds: 5, tests: 1 },
  ],
};

describe('the test timings', () => {
  it('reads a vitest JSON report into one row per file, by project', () => {
    const rows = vitestFileTimes({
      testResults: [
        { name: path.join(root, 'e2e/api/chats.test.ts'), startTime: 1000, endTime: 3500, assertionResults: [{}, {}] },
        { name: path.join(root, 'lib/a.test.ts'), startTime: 0, endTime: 100 },
      ],
    });
    expect(rows).toEqual([
      { kind: 'api', file: 'e2e/api/chats.test.ts', project: '', seconds: 2.5, tests: 2 },
      { kind: 'unit', file: 'lib/a.test.ts', project: '', seconds: 0.1, tests: 0 },
    ]);
  });

  it('prints the ten slowest files of a kind, slowest first, with the total', () => {
    const table = slowestTable(run.files, 'unit');
    expect(table.split('\n')[0]).toBe('unit: ten slowest of 12 files (1 min 06 s in all)');
    expect(table).toContain('11.0 s  lib/x11.test.ts (2 tests)');
    expect(table).not.toContain('lib/x1.test.ts');
    expect(slowestTable(run.files, 'browser')).toContain('e2e/browser/a.spec.ts [phone] (1 test)');
    expect(slowestTable(run.files, 'api')).toBe('api: no timings\n');
    expect(formatSeconds(59.94)).toBe('59.9 s');
    expect(formatSeconds(125)).toBe('2 min 05 s');
  });

  it('keeps the ten slowest of each kind and the totals for the docs', () => {
    const saved = forDocs(run);
    expect(saved.files.filter((f) => f.kind === 'unit')).toHaveLength(10);
    expect(saved.totals).toEqual({
      unit: { files: 12, seconds: 66 },
      api: { files: 0, seconds: 0 },
      browser: { files: 1, seconds: 5 },
    });
    const section = renderDocsSection(saved);
    expect(section).toContain(
      '| API tests (side by side: api 1 6 min 30 s, api 2 6 min 40 s) |     6 min 40 s |                   65% |',
    );
    expect(section).toMatch(/\| \*\*total\*\* +\| \*\*6 min 43 s\*\* \| +\|/);
    expect(section).toContain('load average 0.4 at the start and 1.8 at the end; it passed.');
    expect(withDocsSection(`# T\n\n${renderDocsSection(forDocs({ ...run, phases: [] }))}\n\nafter\n`, section)).toBe(
      `# T\n\n${section}\n\nafter\n`,
    );
  });

  it('docs/testing.md shows the measured run docs/test-timings.json holds, as generated', () => {
    const section = docsSection(fs.readFileSync(TESTING_DOC, 'utf8'));
    // Before the first run is recorded, the markers stand empty; after it, only the record may fill them.
    if (!fs.existsSync(SAVED_TIMINGS)) return expect(section).toBe(`${BEGIN}\n${END}`);
    const saved = JSON.parse(fs.readFileSync(SAVED_TIMINGS, 'utf8')) as ReturnType<typeof forDocs>;
    expect(section).toBe(renderDocsSection(saved));
    // A measured run of the whole suite.
    expect(saved.passed).toBe(true);
    expect(Object.values(saved.totals).every((t) => t.files > 0)).toBe(true);
  });

  it('names only API files that exist in the second lane', () => {
    for (const file of API_SECOND_LANE) expect(fs.existsSync(path.join(root, file)), file).toBe(true);
  });
});

describe('markdownTable', () => {
  it('pads as the formatter does, so a generated section passes biome ci unchanged', () => {
    expect(
      markdownTable(
        ['name', 'n'],
        [
          ['a', '10'],
          ['bcdef', '2'],
        ],
      ),
    ).toBe(['| name  |   n |', '| ----- | --: |', '| a     |  10 |', '| bcdef |   2 |'].join('\n'));
  });
});

describe('the failures at the end of a failed run', () => {
  // Trimmed from a real vitest 4 JSON report: one failed assertion, and a file whose import failed.
  const report = {
    testResults: [
      {
        name: path.join(root, 'e2e/api/plans.test.ts'),
        status: 'failed',
        message: '',
        startTime: 0,
        endTime: 1,
        assertionResults: [
          {
            fullName: 'plans a declined plan reaches the inbox',
            status: 'failed',
            failureMessages: [
              `AssertionError: expected 1 to be 2 // Object.is equality\n    at ${root}/e2e/api/plans.test.ts:2:57\n    at file://${root}/node_modules/@vitest/runner/dist/chunk-artifact.js:302:11\n    at new Promise (<anonymous>)`,
            ],
          },
          { fullName: 'plans passes', status: 'passed', failureMessages: [] },
        ],
      },
      {
        name: path.join(root, 'e2e/api/chats.test.ts'),
        status: 'failed',
        message: "Cannot find module './missing' imported from e2e/api/chats.test.ts",
        startTime: 0,
        endTime: 1,
        assertionResults: [],
      },
      { name: path.join(root, 'e2e/api/me.test.ts'), status: 'passed', startTime: 0, endTime: 1, assertionResults: [] },
    ],
  };

  it("names each failed test with the first lines of why, without the runner's own frames", () => {
    expect(vitestFailures(report)).toEqual([
      {
        file: 'e2e/api/plans.test.ts',
        test: 'plans a declined plan reaches the inbox',
        why: `AssertionError: expected 1 to be 2 // Object.is equality\n    at ${root}/e2e/api/plans.test.ts:2:57`,
      },
      {
        file: 'e2e/api/chats.test.ts',
        test: '(the file itself)',
        why: "Cannot find module './missing' imported from e2e/api/chats.test.ts",
      },
    ]);
    expect(failureList(vitestFailures(report))).toMatch(
      /^Failed \(2\):\n {2}✖ e2e\/api\/plans\.test\.ts › plans a declined plan reaches the inbox\n {6}AssertionError/,
    );
    expect(failureList([])).toBe('');
  });
});
