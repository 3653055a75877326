// How a server process is started: by `npm start` (package.json, which spells out the
// same command: server/command.test.ts keeps the two in step), by the test stack
// and by the benchmarks, so what is tested and measured is what operators run.
//
// No V8 memory flags by default. A smaller young generation saves memory but costs
// throughput: with NODE_OPTIONS=--max-semi-space-size=8 (V8's default is 16) full and
// unchanged inbox polls ran 17% and 21% slower, for at most 16 MB (docs/deployment.md).
export const SERVER_NODE_ARGS: readonly string[] = [];

/** What `node` runs: it builds what is out of date, then runs the bundled server/start.ts. */
export const SERVER_SCRIPT = 'server/serve.mjs';

/** The process arguments after `node`, for a server with these extra arguments (`--role=web`). */
export const serverArgs = (root: string, args: readonly string[] = []): string[] => [
  ...SERVER_NODE_ARGS,
  `${root}/${SERVER_SCRIPT}`,
  ...args,
];
