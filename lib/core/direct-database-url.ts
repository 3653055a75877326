/**
 * Where LISTEN/NOTIFY, pg-boss and migrations connect: they keep session state (a LISTEN,
 * advisory locks), which PgBouncer in transaction mode would hand to other clients. Read at
 * call time, since `npm start` sets DATABASE_URL once the embedded database is up.
 * Here, not only in lib/config.ts, so lib/realtime reads it without importing configuration.
 */
export function directDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) throw new Error('DATABASE_DIRECT_URL needs DATABASE_URL too');
  return env.DATABASE_DIRECT_URL || env.DATABASE_URL || undefined;
}
