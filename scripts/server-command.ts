// How a server process is started: by `npm start` (package.json, which spells out the
// same flags: scripts/server-command.test.ts keeps the two in step), by the test stack
// and by the benchmarks, so what is tested and measured is what operators run.
//
// No V8 memory flags by default. A smaller young generation saves memory but costs
// throughput: with NODE_OPTIONS=--max-semi-space-size=2 an idle web instance takes about
// 240 MB instead of about 290, and full and unchanged inbox polls ran about 20% slower
// (measured turn about on one seeded database; README, Deployment).
export const SERVER_NODE_ARGS: readonly string[] = ['--import', 'tsx'];
