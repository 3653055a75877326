// `npm run fuzz`: the property-based fuzzer of e2e/api/fuzz.test.ts, run long against a
// fresh server. A random seed unless FUZZ_SEED is given; the seed is printed first, so
// a failure replays with FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npm run fuzz.
//   FUZZ_RUNS      requests per endpoint (default 300; npm test uses 30)
//   FUZZ_MCP_RUNS  tool calls per MCP tool (default a quarter of FUZZ_RUNS)
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const seed = process.env.FUZZ_SEED ?? String(randomInt(2 ** 31 - 1));
const runs = process.env.FUZZ_RUNS ?? '300';
process.stdout.write(
  `fuzz: seed ${seed}, ${runs} requests per endpoint (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)\n`,
);

const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'api', 'e2e/api/fuzz.test.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', FUZZ_SEED: seed, FUZZ_RUNS: runs, FUZZ_LONG: '1' },
  },
);
if (result.status !== 0)
  process.stdout.write(`\nfuzz failed; replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz\n`);
process.exit(result.status ?? 1);
