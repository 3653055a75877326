// Whether this process is shutting down. A Ctrl-C in a terminal signals the whole process
// group, the embedded PostgreSQL included, which ends every connection at once ("terminating
// connection due to administrator command", 57P01) while the app is still closing its own.
// Those endings are expected then, not errors worth a line each (issue 43 §6).

const state = globalThis as unknown as { __buddyStopping?: boolean };

export function markStopping(): void {
  state.__buddyStopping = true;
}

/** The database ending a connection because it is shutting down, while this process is stopping too. */
export function expectedAtShutdown(error: unknown): boolean {
  if (!state.__buddyStopping) return false;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  // 57P01 admin_shutdown, 57P03 cannot_connect_now; pg-boss passes some on as plain messages.
  return (
    code === '57P01' ||
    code === '57P03' ||
    /terminating connection due to administrator command|the database system is shutting down|Connection terminated/i.test(
      message,
    )
  );
}
