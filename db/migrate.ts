// Runs the numbered migrations. Used by `npm run db:migrate`, by `npm start` and by the test stack.
import { Migrator, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { migrations } from './migrations/index';

export const MIN_POSTGRES_MAJOR = 14;

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ server_version_num: string }>`show server_version_num`.execute(db);
  const major = Math.floor(Number(rows[0]?.server_version_num) / 10000);
  if (major < MIN_POSTGRES_MAJOR) {
    throw new Error(`PostgreSQL ${MIN_POSTGRES_MAJOR}+ is required; this server is ${major}`);
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
