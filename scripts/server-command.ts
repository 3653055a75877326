// How a server process is started: by `npm start` (package.json, which spells out the
// same flags: scripts/server-command.test.ts keeps the two in step), by the test stack
// and by the benchmarks, so what is tested and measured is what operators run.
//
// --max-semi-space-size=2: V8's young generation defaults to two 16 MB semi-spaces, which
// a mostly idle server keeps resident; at 2 MB an instance idles at about 240 MB instead
// of about 295 MB (npm run bench:poll), for more frequent, shorter scavenges.
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=2', '--import', 'tsx'];
