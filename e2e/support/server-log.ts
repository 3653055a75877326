// One file for the output of every server a test suite starts (the app servers and the
// embedded PostgreSQL), so the console shows test results only. Each line is tagged with
// the server it came from: JSON lines get a "server" field, other lines become
// {"server", "text"}. On failure the suite prints the file's tail (printServerLogTail).
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

const root = path.resolve(import.meta.dirname, '../..');
export const SERVER_LOG = path.join(root, 'test-results', 'server.log');
export const SERVER_LOG_TAIL_LINES = 60;

/**
 * Empties the log: called once per run, by the suite's global setup, unless SERVER_LOG_KEEP=1 says the
 * run's owner did (`npm test` runs two API lanes that share the log).
 */
export function resetServerLog(): void {
  if (process.env.SERVER_LOG_KEEP === '1') return;
  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  fs.writeFileSync(SERVER_LOG, '');
}

function tagged(line: string, server: string): string {
  if (line.startsWith('{')) {
    try {
      const fields = JSON.parse(line) as unknown;
      if (fields && typeof fields === 'object' && !Array.isArray(fields))
        return `${JSON.stringify({ server, ...fields })}\n`;
    } catch {
      // not JSON after all
    }
  }
  return `${JSON.stringify({ server, text: line })}\n`;
}

/**
 * Appends a child's output to the log, whole lines at a time (one append each, so the lines
 * of servers running side by side never cut into each other), and also to `copy` if given.
 */
export function pipeToServerLog(stream: Readable, server: string, copy?: fs.WriteStream): void {
  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const fd = fs.openSync(SERVER_LOG, 'a');
  let partial = '';
  const write = (lines: string[]) => {
    const text = lines
      .filter((l) => l !== '')
      .map((l) => tagged(l, server))
      .join('');
    if (text) fs.writeSync(fd, text);
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    copy?.write(chunk);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    write(lines);
  });
  stream.once('close', () => {
    write([partial]);
    fs.closeSync(fd);
  });
}

/** A line of the test stack's own, e.g. which server starts with which settings. */
export function noteInServerLog(server: string, fields: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  fs.appendFileSync(SERVER_LOG, `${JSON.stringify({ server, time: new Date().toISOString(), ...fields })}\n`);
}

/** The log's last lines under one heading that names the full log: for a failed run. */
export function printServerLogTail(out: NodeJS.WritableStream = process.stdout): void {
  const relative = path.relative(process.cwd(), SERVER_LOG) || SERVER_LOG;
  if (!fs.existsSync(SERVER_LOG)) return;
  const lines = fs.readFileSync(SERVER_LOG, 'utf8').split('\n').filter(Boolean);
  const tail = lines.slice(-SERVER_LOG_TAIL_LINES);
  out.write(
    `\n── last ${tail.length} of ${lines.length} server log lines (full log: ${relative}) ──\n${tail.join('\n')}\n`,
  );
}

/** One line naming the full log: for a run that passed. */
export function printServerLogPath(out: NodeJS.WritableStream = process.stdout): void {
  out.write(`Server log: ${path.relative(process.cwd(), SERVER_LOG) || SERVER_LOG}\n`);
}
