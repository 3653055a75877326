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
