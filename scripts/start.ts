// `npm start`: build if needed, start the embedded database unless DATABASE_URL is
// set, migrate, then serve Next.js and the job workers in this one process.
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { createDb } from '../db';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../lib/config';
import { clientAddress } from '../lib/http/client-address';
import { installClientIpProof, stampClientIp } from '../lib/http/ip';
import { logError, logLine } from '../lib/http/log';
import { answerBadRequestTarget, answerClientError } from '../lib/http/request-target';
import { startBoss, stopBoss } from '../lib/jobs/boss';
import { startWorkers } from '../lib/jobs/workers';
import { buildIfNeeded } from './build-stamp';

const root = path.resolve(import.meta.dirname, '..');
process.env.NEXT_TELEMETRY_DISABLED = '1';

async function main(): Promise<void> {
  const cfg = loadConfig();
  buildIfNeeded(root);

  let embedded: EmbeddedDatabase | undefined;
  if (!cfg.databaseUrl) {
    embedded = await startEmbeddedPostgres(path.join(cfg.dataDir, 'postgres'), { persistent: true });
    process.env.DATABASE_URL = embedded.url;
    logLine({ event: 'embedded_postgres_started', dir: path.join(cfg.dataDir, 'postgres') });
  }
  const url = process.env.DATABASE_URL!;
  const migrator = createDb(url, 1);
  const applied = await migrateToLatest(migrator);
  await migrator.destroy();
  logLine({ event: 'migrated', applied });

  await startBoss(url);
  await startWorkers();

  const app = next({ dev: false, dir: root, port: cfg.port, hostname: '0.0.0.0' });
  await app.prepare();
  const handle = app.getRequestHandler();

  installClientIpProof();
  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    // The client address stamp is ours alone: it overwrites whatever the client sent.
    const address = clientAddress({ forwardedFor: req.headers['x-forwarded-for'], socketAddress: req.socket.remoteAddress, trustedProxies: cfg.trustedProxies });
    stampClientIp(req.headers, address);
    res.on('finish', () => {
      logLine({
        method: req.method,
        // The path only: query strings can carry sign-in tokens.
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    // A path Next.js could not decode (malformed percent-encoding) gets a 400, not a 500.
    if (answerBadRequestTarget(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      logError('request failed', error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong on our side' } }));
      }
    });
  });
  server.on('clientError', answerClientError);
  server.listen(cfg.port, () => logLine({ event: 'listening', url: cfg.publicBaseUrl, port: cfg.port, trusted_proxies: cfg.trustedProxies }));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logLine({ event: 'shutdown', signal });
    server.close();
    server.closeAllConnections();
    await stopBoss().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  logError('startup failed', error);
  process.exit(1);
});
