// Playwright global setup: one real stack for the browser tests; its URL reaches the
// tests through the environment (workers inherit it).
import { buildIfNeeded } from '../../scripts/build-stamp';
import { startStack } from './stack';

export default async function globalSetup() {
  buildIfNeeded(process.cwd());
  const stack = await startStack();
  process.env.E2E_BASE_URL = stack.baseUrl;
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  process.env.E2E_DATA_DIR = stack.dataDir;
  return async () => stack.stop();
}
