// The database's own environment variables, read here on the ground floor so that db/ and lib/realtime need
// nothing above them; lib/config.ts shows the same values in config() (and docs/configuration.md lists them).

/**
 * Where LISTEN/NOTIFY, pg-boss and migrations connect: they keep session state (a LISTEN,
 * advisory locks), which PgBouncer in transaction mode would hand to other clients. Read at
 * call time, since `npm start` sets DATABASE_URL once the embedded database is up.
 */
export function directDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) throw new Error('DATABASE_DIRECT_URL needs DATABASE_URL too');
  return env.DATABASE_DIRECT_URL || env.DATABASE_URL || undefined;
}

/**
 * Whether statements may be prepared by name (db/prepared.ts): a named statement lives on one
 * server connection, which a transaction pooler does not keep. DATABASE_DIRECT_URL is how an
 * operator says DATABASE_URL (and so the replicas' URLs) goes through one.
 */
export function namedStatementsAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return !env.DATABASE_DIRECT_URL;
}

/** DATABASE_READ_URLS: the streaming replicas, comma- or space-separated. */
export function databaseReadUrls(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.DATABASE_READ_URLS ?? '').split(/[\s,]+/).filter((entry) => entry.length > 0);
}

/** DATABASE_READ_MAX_LAG_SECONDS (default 5): a replica further behind than this is skipped. */
export function replicaMaxLagSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DATABASE_READ_MAX_LAG_SECONDS;
  if (raw === undefined || raw === '') return 5;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error('DATABASE_READ_MAX_LAG_SECONDS must be a non-negative integer');
  return value;
}
