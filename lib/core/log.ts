// JSON-line logs on stdout/stderr. Callers pass only non-secret fields.
export function logLine(fields: Record<string, unknown>): void {
  const line = `${JSON.stringify({ time: timestamp(), ...fields })}\n`;
  if (fields.level === undefined || fields.level === 'info') {
    queueLine(line);
  } else {
    // A warning is written at once, after what was logged before it.
    flushLog();
    process.stdout.write(line);
  }
}

/** The time as logs write it, made once per millisecond: a busy server logs several lines in one. */
let stamped = { at: 0, text: '' };
function timestamp(): string {
  const now = Date.now();
  if (now !== stamped.at) stamped = { at: now, text: new Date(now).toISOString() };
  return stamped.text;
}

/**
 * Lines wait for the end of the event loop's turn and go out in one write: a write to a pipe
 * is a system call, one per request otherwise (issue 48). Warnings and errors are written at
 * once, and what waits is written before the process exits.
 */
let queued = '';
function queueLine(line: string): void {
  if (queued === '') setImmediate(flushLog);
  queued += line;
}

export function flushLog(): void {
  if (queued === '') return;
  const text = queued;
  queued = '';
  process.stdout.write(text);
}
process.once('exit', flushLog);

export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : { value: String(error) };
  // What was logged before it goes first, so the two streams read in order.
  flushLog();
  process.stderr.write(`${JSON.stringify({ time: timestamp(), level: 'error', message, error: err, ...fields })}\n`);
}

/** Path segments that are credentials (a calendar feed's secret, a shared plan's): never written to a log. */
const SECRET_PATH_SEGMENTS: readonly RegExp[] = [/^(\/api\/v1\/calendar\/)[^/]+/, /^(\/share\/)[^/]+/];

/** A request path as logs may show it: no query string (sign-in tokens), no secret segment. */
export function loggedPath(url: string): string {
  let path = url.split('?')[0] ?? '';
  for (const pattern of SECRET_PATH_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  return path;
}
