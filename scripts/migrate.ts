// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded database.
import path from 'node:path';
import { createDb } from '../db';
import { startEmbeddedPostgres } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../lib/config';

const cfg = loadConfig();
const embedded = cfg.databaseUrl
  ? undefined
  : await startEmbeddedPostgres(path.join(cfg.dataDir, 'postgres'), { persistent: true });
const db = createDb(cfg.databaseUrl ?? embedded!.url, 1);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date');
} finally {
  await db.destroy();
  await embedded?.stop();
}
