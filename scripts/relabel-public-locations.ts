// `npx tsx scripts/relabel-public-locations.ts`: run once after migration 0009 (public
// points; migration 0018, which recomputes every public point, relabels by itself). Labels written before it named the city nearest a person's exact point; this
// relabels them from the public point (lib/profiles/fields.ts, relabelFromPublicPoints).
// Safe to run again: it changes only labels that differ.
import path from 'node:path';
import { createDb } from '../db';
import { startEmbeddedPostgres } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../lib/config';
import { relabelFromPublicPoints } from '../lib/profiles/fields';

const cfg = loadConfig();
const embedded = cfg.databaseUrl
  ? undefined
  : await startEmbeddedPostgres(path.join(cfg.dataDir, 'postgres'), { persistent: true });
const db = createDb(cfg.databaseUrl ?? embedded!.url, 2);
try {
  await migrateToLatest(db);
  const changed = await relabelFromPublicPoints(db);
  console.log(`Relabelled ${changed} public location${changed === 1 ? '' : 's'} from public points`);
} finally {
  await db.destroy();
  await embedded?.stop();
}
