// `npm run events:import -- <file-or-url> [--source name] [--city "Berlin, DE"]`: imports an
// iCalendar or JSON feed into the built-in events directory, replacing that source's events.
// Uses DATABASE_URL, else the embedded database (the running one under `npm start`, if any).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../db';
import { runningEmbeddedUrl, startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../lib/config';
import { importFeed } from '../lib/events/import';

const USAGE = 'usage: npm run events:import -- <file-or-url> [--source name] [--city "City, Country"]';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { source: { type: 'string' }, city: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help || positionals.length !== 1) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

const cfg = loadConfig();
const dataDir = path.join(cfg.dataDir, 'postgres');
let embedded: EmbeddedDatabase | undefined;
let url = cfg.databaseUrl ?? runningEmbeddedUrl(dataDir);
if (!url) {
  embedded = await startEmbeddedPostgres(dataDir, { persistent: true });
  url = embedded.url;
}
const db = createDb(url, 2);
let failed = false;
try {
  await migrateToLatest(db);
  const summary = await importFeed(db, positionals[0]!, {
    source: values.source,
    defaultCity: values.city,
    horizonDays: cfg.events.horizonDays,
  });
  console.log(
    `Imported ${summary.upserted} event occurrence(s) from "${summary.source}"; removed ${summary.removed} no longer listed, ` +
      `left out ${summary.cancelled} cancelled` +
      (summary.sampleRemoved ? `; removed the ${summary.sampleRemoved} sample events` : ''),
  );
  for (const skipped of summary.skipped.slice(0, 20)) console.log(`  skipped ${skipped.uid}: ${skipped.reason}`);
  if (summary.skipped.length > 20) console.log(`  … and ${summary.skipped.length - 20} more skipped`);
} catch (error) {
  failed = true;
  console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await db.destroy();
  await embedded?.stop();
}
process.exit(failed ? 1 : 0);
