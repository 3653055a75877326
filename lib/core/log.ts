// JSON-line logs on stdout/stderr. Callers pass only non-secret fields.
export function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...fields })}\n`);
}

export function logError(message: string, error: unknown, fields: Record<string, unknown> = {}): void {
  const err =
    error instanceof Error
      ? { name: error.name, message: error.message, stack: error.stack }
      : { value: String(error) };
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: 'error', message, error: err, ...fields })}\n`,
  );
}

/** Path segments that are credentials (a calendar feed's secret, a shared plan's): never written to a log. */
const SECRET_PATH_SEGMENTS: readonly RegExp[] = [/^(\/api\/v1\/calendar\/)[^/]+/, /^(\/share\/)[^/]+/];

/** A request path as logs may show it: no query string (sign-in tokens), no secret segment. */
export function loggedPath(url: string): string {
  let path = url.split('?')[0] ?? '';
  for (const pattern of SECRET_PATH_SEGMENTS) path = path.replace(pattern, '$1[redacted]');
  return path;
}
