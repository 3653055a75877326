// Setup for the unit tests: the JSON log lines that code under test writes (lib/core/log.ts)
// go to test-results/server.log, tagged "unit", like the servers' lines, not between the
// test results. A test that watches stdout itself (vi.spyOn) still sees every write.
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_LOG } from './server-log';

const isLogLine = (chunk: unknown) => typeof chunk === 'string' && chunk.startsWith('{"time":');

for (const stream of [process.stdout, process.stderr]) {
  const original = stream.write.bind(stream);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!isLogLine(chunk)) return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
    fs.appendFileSync(SERVER_LOG, `{"server":"unit",${(chunk as string).slice(1)}`);
    return true;
  }) as typeof stream.write;
}
