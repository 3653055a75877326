// The Kysely instance: one pool per process, kept on globalThis so Next's
// separate server bundles and hot reloads share it instead of opening more pools.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { logError } from '@/lib/core/log';
import { expectedAtShutdown } from '@/lib/core/stopping';
import { namedStatementsAllowed } from '@/lib/core/database-env';
import { prepareMarkedStatements } from './prepared';
import type { DB } from './types';

// DATE stays a 'YYYY-MM-DD' string: a birthday has no timezone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// COUNT(*) and bigserial come back as int8; they fit a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Kysely<DB>;

// On globalThis, like the instance itself: Next bundles this module into several chunks,
// and a module-local map in one would not know the pool of an instance made by another.
const registry = globalThis as unknown as { __buddyPools?: WeakMap<Database, pg.Pool> };
const pools = (registry.__buddyPools ??= new WeakMap<Database, pg.Pool>());

/** `prepareMarked`: run statements marked prepared() by name (db/prepared.ts); only on connections past any transaction pooler. */
export function createDb(
  connectionString: string,
  max = 10,
  { prepareMarked = false, ...options }: pg.PoolConfig & { prepareMarked?: boolean } = {},
): Database {
  const pool = new pg.Pool({ connectionString, max, ...options });
  if (prepareMarked) prepareMarkedStatements(pool);
  // An idle connection that PostgreSQL closes (a restart, a failover, pg_terminate_backend)
  // is reported here; pg drops it and connects again when next needed. Unheard, the event
  // was an uncaught exception, and a worker process exited on it.
  pool.on('error', (error) => {
    if (!expectedAtShutdown(error)) logError('idle database connection closed', error);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** The pg pool behind a Database, for libraries that take a pool (the rate limiter). */
export function poolOf(db: Database): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('This Database was not made by createDb');
  return pool;
}

const holder = globalThis as unknown as { __buddyDb?: Database };

export function getDb(): Database {
  if (!holder.__buddyDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set (npm start sets it for the embedded database)');
    holder.__buddyDb = createDb(url, 10, { prepareMarked: namedStatementsAllowed() });
  }
  return holder.__buddyDb;
}
