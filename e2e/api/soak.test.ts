// Issue 33 §3: one minute of `npm run soak` (scripts/soak.ts) in `npm test`: two web
// instances, a worker, a PostgreSQL 15 primary and its streaming replica under the mixed load.
// It fails on any error (a 429 too: the load keeps within the configured limits), on any lost
// write (rows on the primary and on the caught-up replica against what was acknowledged), and
// on RSS growth over 20% from just after the warm-up to the end.
// About 95 s (`npm run soak -- --minutes 1` took 94 s at load 7.5, the stack up in 18 s): the
// timeout allows for a loaded machine (at load 28 on 2 cores the stack alone took 82 s to start).
// Skipped locally without the PostgreSQL 15 binaries; with CI=true that fails.
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runSoak, verdictLines } from '@/scripts/soak';
import { postgres15Bin } from '../support/pg-replica';
import { noteInServerLog } from '../support/server-log';

const bin = postgres15Bin();
const MISSING = 'PostgreSQL 15 binaries are missing (apt-get install postgresql-15; .ci/run installs it)';
const RSS_GROWTH_LIMIT = 0.2;

if (!bin && process.env.CI === 'true') {
  it('PostgreSQL 15 is installed on CI', () => {
    throw new Error(MISSING);
  });
}

describe.skipIf(!bin)(bin ? 'a one-minute soak' : `skipped: ${MISSING}`, () => {
  it('serves the mixed load with no error, no lost write and flat RSS', async () => {
    const lines: string[] = [];
    const report = await runSoak({
      minutes: 1,
      warmupSeconds: 25,
      sampleSeconds: 5,
      rssWindowSeconds: 10,
      rate: 6,
      concurrency: 3,
      pollers: 4,
      dir: path.join(inject('dataDir'), `soak-${process.pid}`),
      // Also into the suite's server log, whose tail a failed run prints (a timeout included).
      log: (line) => {
        lines.push(line);
        noteInServerLog('soak', { event: 'soak', line });
      },
    });
    const summary = [...lines, ...verdictLines(report, RSS_GROWTH_LIMIT, 0.1)].join('\n');
    expect(report.errors, summary).toEqual([]);
    expect(report.lostWrites, summary).toEqual([]);
    // Every kind of write happened, so "nothing lost" means something.
    for (const [what, n] of Object.entries(report.acknowledged)) expect(n, `${what}\n${summary}`).toBeGreaterThan(0);
    expect(report.heldPolls, summary).toBeGreaterThan(0);
    for (const [name, growth] of Object.entries(report.rssGrowth))
      expect(growth, `${name} RSS\n${summary}`).toBeLessThanOrEqual(RSS_GROWTH_LIMIT);
  }, 300_000);
});
