// The Kysely instance: one pool per process, kept on globalThis so Next's
// separate server bundles and hot reloads share it instead of opening more pools.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './types';

// DATE stays a 'YYYY-MM-DD' string: a birthday has no timezone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
// COUNT(*) and bigserial come back as int8; they fit a JS number here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Database = Kysely<DB>;

export function createDb(connectionString: string, max = 10): Database {
  return new Kysely<DB>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max }) }),
  });
}

const holder = globalThis as unknown as { __buddyDb?: Database };

export function getDb(): Database {
  if (!holder.__buddyDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set (npm start sets it for the embedded database)');
    holder.__buddyDb = createDb(url);
  }
  return holder.__buddyDb;
}
