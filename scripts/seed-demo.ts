// `npm run seed:demo -- --users N [--seed S] [--batch B]`: adds N complete demo
// profiles to DATABASE_URL, or to the embedded database under DATA_DIR (migrating
// it first). Demo accounts share one password hash of a password nobody knows and
// are tagged agent_name = 'seed-demo' (delete them with that).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDb } from '../db';
import { embeddedInUse, embeddedInUseMessage, startEmbeddedPostgres } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { generatePassword, hashPassword } from '../lib/core/secrets';
import { loadConfig } from '../lib/config';
import { seedDemoUsers } from '../lib/discover/seed';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    batch: { type: 'string', default: '5000' },
  },
});
const count = Number(values.users);
const batchSize = Number(values.batch);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(batchSize) || batchSize < 1) {
  console.error('Usage: npm run seed:demo -- --users N [--seed S] [--batch B]   (N, B positive integers)');
  process.exit(2);
}

const cfg = loadConfig();
const embeddedDir = path.join(cfg.dataDir, 'postgres');
if (!cfg.databaseUrl && embeddedInUse(embeddedDir)) {
  // Starting a second PostgreSQL on these files fails with no message (triggerUncaughtException(undefined)).
  console.error(embeddedInUseMessage(embeddedDir));
  process.exit(1);
}
let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
try {
  embedded = cfg.databaseUrl ? undefined : await startEmbeddedPostgres(embeddedDir, { persistent: true });
} catch (error) {
  console.error(`Could not start the embedded database in ${embeddedDir}: ${String(error ?? 'no reason given')}`);
  console.error(embeddedInUseMessage(embeddedDir));
  process.exit(1);
}
const db = createDb(cfg.databaseUrl ?? embedded!.url, 2);
try {
  await migrateToLatest(db);
  const started = Date.now();
  let lastReport = 0;
  const inserted = await seedDemoUsers(db, {
    count,
    batchSize,
    passwordHash: await hashPassword(generatePassword()),
    seed: values.seed === undefined ? undefined : Number(values.seed),
    onProgress: (n) => {
      if (n === count || Date.now() - lastReport > 5000) {
        lastReport = Date.now();
        console.log(
          `  ${n.toLocaleString('en')} / ${count.toLocaleString('en')} users (${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
      }
    },
  });
  // Fresh statistics, so the planner sees the new population at once.
  await sql`analyze users`.execute(db);
  console.log(`Seeded ${inserted.toLocaleString('en')} demo users in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.destroy();
  await embedded?.stop();
}
