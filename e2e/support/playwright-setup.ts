// Playwright global setup: one real stack for the browser tests; its URL reaches the
// tests through the environment (workers inherit it).
import { buildIfNeeded } from '@/scripts/build-stamp';
import { freePort } from '@/lib/net/free-port';
import { resetServerLog } from './server-log';
import { startStack } from './stack';

export default async function globalSetup() {
  await buildIfNeeded(process.cwd());
  resetServerLog();
  // The port a test serves an OAuth client ID metadata document on (over https with a
  // self-signed certificate): the one loopback port the server may fetch such documents from.
  const clientMetadataPort = await freePort();
  process.env.E2E_CLIENT_METADATA_PORT = String(clientMetadataPort);
  const stack = await startStack({ OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK_PORTS: String(clientMetadataPort) });
  process.env.E2E_BASE_URL = stack.baseUrl;
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  process.env.E2E_DATA_DIR = stack.dataDir;
  return async () => stack.stop();
}
