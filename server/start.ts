// The server process: start the embedded database unless DATABASE_URL is set, migrate,
// then serve Next.js and the job workers in this one process. `--role=web` serves only,
// `--role=worker` runs only the job workers (both need DATABASE_URL). `npm start` runs it
// bundled, on plain node, after building what is out of date (server/serve.mjs).
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import next from 'next';
import { createDb, getDb } from '../db';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../lib/config';
import { directDatabaseUrl } from '../lib/core/database-env';
import { clientAddress, countTrustsPublicPeer, describeTrustProxy } from '../lib/core/client-address';
import { installClientIpProof, stampClientIp } from '../lib/http/ip';
import { INTERNAL_ERROR_ENVELOPE } from '../lib/http/error-response';
import { logError, loggedPath, logLine } from '../lib/core/log';
import { markStopping } from '../lib/core/stopping';
import { doors, enter } from './doors';
import { STATIC_DIR } from './doors/static';
import { HTTP_SERVER_TIMEOUTS } from './timeouts';
import { ROUTE_MODULES } from '../app/api/route-modules';
import { answerClientError, originForm, pinToPublicOrigin } from '../lib/http/request-target';
import { sendSecurityHeaders } from '../lib/http/default-headers';
import { startBoss, stopBoss } from '../lib/jobs/boss';
import { drainWaiters, ensureListener, heldCount, stopListener } from '../lib/realtime/listener';

const root = path.resolve(import.meta.dirname, '..');

/** `npm start` runs both; `npm run start:web` / `start:worker` run one, to scale each on its own. */
type Role = 'all' | 'web' | 'worker';
const SHUTDOWN_DEADLINE_MS = 25_000;
const IDLE_SOCKET_GRACE_MS = 1_000;
const LISTEN_BACKLOG = 4_096;

/**
 * Next.js's router reads next.config.ts by compiling it with SWC, whose native binding
 * (100 MB on disk) then stays mapped: about 25 MB of every instance's memory (npm run
 * bench:poll). The build has already resolved that config into required-server-files.json,
 * and Next's own standalone server hands it over the same way, so the running server is
 * configured exactly as it was built.
 */
function configureNextFromBuild(): void {
  const built = JSON.parse(fs.readFileSync(path.join(root, '.next/required-server-files.json'), 'utf8')) as {
    config: unknown;
  };
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built.config);
}

function roleFromArgs(argv: readonly string[]): Role {
  const flag = argv.find((arg) => arg.startsWith('--role='))?.slice('--role='.length) ?? 'all';
  if (flag === 'all' || flag === 'web' || flag === 'worker') return flag;
  throw new Error(`Unknown --role=${flag}: use web, worker or all`);
}

async function main(): Promise<void> {
  const cfg = loadConfig();
  const role = roleFromArgs(process.argv.slice(2));

  let embedded: EmbeddedDatabase | undefined;
  if (!cfg.databaseUrl) {
    // Separate web and worker processes must share one database: the embedded one belongs to a single process.
    if (role !== 'all')
      throw new Error(`--role=${role} needs DATABASE_URL: web and worker processes share one PostgreSQL`);
    embedded = await startEmbeddedPostgres(path.join(cfg.dataDir, 'postgres'), { persistent: true });
    process.env.DATABASE_URL = embedded.url;
    logLine({ event: 'embedded_postgres_started', dir: path.join(cfg.dataDir, 'postgres') });
  }
  // Migrations and pg-boss hold session state (locks, LISTEN): past any pooler, on DATABASE_DIRECT_URL.
  const directUrl = directDatabaseUrl()!;
  const migrator = createDb(directUrl, 1);
  const applied = await migrateToLatest(migrator);
  await migrator.destroy();
  logLine({ event: 'migrated', applied });

  // Web processes enqueue jobs (in their own transactions); only workers run them.
  await startBoss(directUrl);
  // Loaded only where workers run: a web instance keeps none of their code (mail, photos, events) in memory.
  if (role !== 'web') await (await import('./workers')).startWorkers();

  let server: http.Server | undefined;
  let inFlight = 0;
  let stopping = false;
  if (role !== 'worker') {
    configureNextFromBuild();
    const app = next({ dev: false, dir: root, port: cfg.port, hostname: '0.0.0.0' });
    await app.prepare();
    // The routes the direct door serves are loaded before the first request: loading one on
    // first use (MCP's, with the SDK and every tool, most) held the event loop for seconds under
    // load, so /api/health waited, and a keep-alive socket whose timer ran out meanwhile was
    // closed with a request already sent on it (ECONNRESET in one-request-dos).
    await Promise.all([...Object.values(ROUTE_MODULES).map((load) => load()), import('../app/api/mcp/route')]);
    const handle = app.getRequestHandler();
    await ensureListener();

    installClientIpProof();
    // Said once: a proxy-less server would otherwise say it on every request.
    let warnedOfPublicPeer = false;
    /** The client address of each connection's last request, and the X-Forwarded-For it was read from. */
    const addressOfConnection = new WeakMap<Socket, { forwardedFor: string | string[] | undefined; address: string }>();
    const https = cfg.publicBaseUrl.startsWith('https://');
    const doorList = doors({ https, staticDir: path.join(root, STATIC_DIR) });
    // Header, request and idle timeouts: a socket that sends nothing is closed (server/timeouts.ts).
    server = http.createServer(HTTP_SERVER_TIMEOUTS, (req, res) => {
      const started = process.hrtime.bigint();
      inFlight += 1;
      res.on('close', () => {
        inFlight -= 1;
      });
      // Every answer, whoever writes it (a door, Next.js, oidc-provider), carries the security
      // headers: set here, once; an answer sets only what it needs otherwise (a page's nonce CSP).
      sendSecurityHeaders(res, { https });
      // Only the path of the request line, and only our own host and scheme, reach any code
      // (an absolute-form target or a forwarded host is never used to build a link).
      req.url = originForm(req.url ?? '/');
      pinToPublicOrigin(req.headers, cfg.publicBaseUrl);
      // While draining, answer what arrives on open connections, then close them.
      if (stopping) res.setHeader('connection', 'close');
      // The client address stamp is ours alone: it overwrites whatever the client sent. It is
      // worked out again only when the connection's forwarded header changes (issue 48).
      const forwardedFor = req.headers['x-forwarded-for'];
      const known = addressOfConnection.get(req.socket);
      const socketAddress = req.socket.remoteAddress;
      let address = known?.address;
      if (!known || known.forwardedFor !== forwardedFor) {
        address = clientAddress({ forwardedFor, socketAddress, trustedProxies: cfg.trustedProxies });
        addressOfConnection.set(req.socket, { forwardedFor, address });
      }
      stampClientIp(req.headers, address!);
      // A connection's peer does not change: checked on its first request.
      if (!known && !warnedOfPublicPeer && countTrustsPublicPeer(cfg.trustedProxies, socketAddress)) {
        warnedOfPublicPeer = true;
        logLine({
          level: 'warn',
          event: 'trust_proxy_public_peer',
          message:
            'TRUST_PROXY is a count, yet a request came straight from a public address: if no proxy is in front, every client chooses the X-Forwarded-For entry its limits count under. Unset TRUST_PROXY, or name the proxies (TRUST_PROXY=10.0.0.0/8, loopback).',
        });
      }
      res.on('finish', () => {
        logLine({
          method: req.method,
          // The path only (query strings can carry sign-in tokens), secret segments redacted.
          path: loggedPath(req.url ?? ''),
          status: res.statusCode,
          duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        });
      });
      // The doors in their order (server/doors/index.ts); what none answers is Next.js's.
      enter(doorList, req, res, () => {
        handle(req, res).catch((error: unknown) => {
          logError('request failed', error);
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('content-type', 'application/json');
            res.end(JSON.stringify(INTERNAL_ERROR_ENVELOPE));
          }
        });
      });
    });
    server.on('clientError', answerClientError);
    // A deep accept queue: agents reconnect in bursts (after a deploy, every held poll
    // at once), and the default 511 overflowed into reset connections (npm run bench:poll).
    // The kernel caps it at net.core.somaxconn.
    server.listen({ port: cfg.port, backlog: LISTEN_BACKLOG }, () =>
      logLine({
        event: 'listening',
        role,
        url: cfg.publicBaseUrl,
        port: cfg.port,
        trusted_proxies: describeTrustProxy(cfg.trustedProxies),
      }),
    );
  } else {
    logLine({ event: 'worker_started' });
  }

  // SIGTERM drains: stop accepting, answer held long-polls now, finish what is in
  // flight (up to 25 s), let workers finish or release their jobs, then close the
  // database connections. A deploy or scale-down drops no request.
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    const began = Date.now();
    logLine({ event: 'shutdown', signal, in_flight: inFlight, held_polls: heldCount() });
    drainWaiters();
    // A keep-alive socket between two requests at SIGTERM may carry one more: it is
    // answered (with Connection: close). Closing idle sockets at once reset the requests
    // clients were sending at that moment (3 of ~400 under 16 looping clients), so they
    // get a short grace first; server.close() then closes the ones left idle (Node ≥ 19).
    const graceEnds = began + IDLE_SOCKET_GRACE_MS;
    while ((inFlight > 0 || Date.now() < graceEnds) && Date.now() - began < SHUTDOWN_DEADLINE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const closed = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
    while (inFlight > 0 && Date.now() - began < SHUTDOWN_DEADLINE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (inFlight > 0) logLine({ event: 'shutdown_deadline', cut: inFlight });
    server?.closeAllConnections();
    await closed;
    await stopBoss().catch(() => {});
    await stopListener();
    await getDb()
      .destroy()
      .catch(() => {});
    await embedded?.stop().catch(() => {});
    logLine({ event: 'stopped', after_ms: Date.now() - began });
    process.exit(0);
  };
  // embedded-postgres loads async-exit-hook, whose own SIGTERM/SIGINT handler calls
  // process.exit(143) at once, cutting every request in flight. This drain stops the
  // embedded server itself, so it takes the signals over.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }
}

main().catch((error: unknown) => {
  logError('startup failed', error);
  process.exit(1);
});
