// Runtime configuration from the environment (the names are fixed by RUNTIME.md).
// Read once; domain code receives values as arguments and never reads env itself.
import os from 'node:os';
import path from 'node:path';
import { parseTrustProxy, type TrustProxy } from './http/client-address';
import type { AttemptLimits, FailureLimits } from './accounts/attempt-limits';
import { RATE_LIMIT_NAMES, type RateLimitRules } from './limits/rate-limits';
import { limitsFromEnv, type Limits } from './limits/rules';
import type { EventsConfig } from './events/jobs';
import { KNOWN_PUSH_SERVICE_HOSTS } from './notifications/push-services';
import type { PlanCheckinConfig } from './plans/checkins';

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

function pushProviderFromEnv(raw: string | undefined): Config['pushProvider'] {
  if (raw === undefined || raw === '' || raw === 'log') return 'log';
  if (raw === 'expo') return 'expo';
  throw new Error('PUSH_PROVIDER must be log or expo');
}

function personConfirmFromEnv(raw: string | undefined): Config['mcpRequirePersonConfirm'] {
  if (raw === undefined || raw === '' || raw === 'ui-hosts') return 'ui-hosts';
  if (raw === 'never') return 'never';
  throw new Error('MCP_REQUIRE_PERSON_CONFIRM must be never or ui-hosts');
}

export interface Config {
  port: number;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  /** DATABASE_DIRECT_URL (default DATABASE_URL): a session connection for LISTEN, pg-boss and migrations, past any pooler. */
  databaseDirectUrl: string | undefined;
  /** DATABASE_READ_URLS: streaming replicas for reads that tolerate lag (db/replicas.ts). */
  databaseReadUrls: string[];
  /** DATABASE_READ_MAX_LAG_SECONDS: a replica further behind than this is skipped. */
  replicaMaxLagSeconds: number;
  dataDir: string;
  /** TRUST_PROXY: reverse proxies in front; the client address is the n-th X-Forwarded-For entry from the right (0: the socket). */
  trustedProxies: TrustProxy;
  smtpUrl: string | undefined;
  mailFrom: string;
  geocoderUrl: string | undefined;
  events: EventsConfig;
  /** Vercel Blob token; when unset photos are stored under DATA_DIR/blobs and served by the app. */
  blobReadWriteToken: string | undefined;
  /** MCP_REQUIRE_PERSON_CONFIRM: whether a host that renders MCP Apps views must have a person tap Send (issue 32 §2). */
  mcpRequirePersonConfirm: 'never' | 'ui-hosts';
  moderationProvider: ModerationProviderName;
  googleVisionApiKey: string | undefined;
  googleVisionEndpoint: string;
  /** Photo decoding (sharp) per process: jobs at once, and how many more may wait before a 503. */
  photoProcessing: { concurrency: number; maxWaiting: number };
  /** Test only: loopback ports a photoURL may be fetched from over http (PHOTO_FETCH_ALLOW_LOOPBACK_PORTS). */
  photoFetchAllowLoopbackPorts: number[];
  pushProvider: 'log' | 'expo';
  /** VAPID key pair for Web Push; when unset one is generated once and kept in PostgreSQL. */
  vapid: { publicKey?: string; privateKey?: string; subject?: string };
  /** Test only: loopback ports a Web Push endpoint may use, over http too (WEB_PUSH_ALLOW_LOOPBACK_PORTS). */
  webPushAllowLoopbackPorts: number[];
  /** Hosts a Web Push endpoint may be at (WEB_PUSH_ALLOWED_HOSTS; `*.` for any name under a domain). */
  webPushAllowedHosts: string[];
  /** Test only: loopback ports an OAuth client ID metadata document may be fetched from (self-signed https or http). */
  oauthClientMetadataAllowLoopbackPorts: number[];
  expoAccessToken: string | undefined;
  /** Auth.js secret (CSRF tokens); when unset one is generated once and kept in PostgreSQL. */
  authSecret: string | undefined;
  /** Failed passwords: per account from one client address, per client address, and the account-wide backoff. */
  signinFailureLimits: FailureLimits;
  /** "Email me a sign-in link" requests allowed per address and per client IP in a rolling window. */
  signinLinkLimits: AttemptLimits;
  /** Every limit on how often someone may do something (lib/limits/rules.ts declares them). */
  limits: Limits;
  /** The limits counted by lib/limits/rate-limits (429 with Retry-After past them): part of `limits`. */
  rateLimits: RateLimitRules;
  /** PLAN_REMINDER_OFFSETS: minutes before a confirmed plan's start at which both people are reminded. */
  planReminderOffsets: number[];
  /** PLAN_REVIEW_DELAY_MIN: minutes after a confirmed plan ends before each person is asked "Did you meet?". */
  planReviewDelayMinutes: number;
  /** APP_LINK_URL: the app's scheme or universal link for a sign-in token; unset, no app is offered. */
  appLinkUrl: string | undefined;
  /** MAIL_DIGEST_DELAY: after a message or request no push reached, before its mail digest (digests stay an hour apart). */
  mailDigestDelaySeconds: number;
  /** Check-in (issue 29 §6): when "All good?" is asked after a plan's start, how long an answer may take, contact mails per account a day. */
  planCheckin: PlanCheckinConfig;
}

export const MODERATION_PROVIDERS = ['local', 'google-vision'] as const;
export type ModerationProviderName = (typeof MODERATION_PROVIDERS)[number];

function moderationProviderFromEnv(env: NodeJS.ProcessEnv): ModerationProviderName {
  const raw = env.MODERATION_PROVIDER || 'local';
  const provider = MODERATION_PROVIDERS.find((name) => name === raw);
  if (!provider) throw new Error(`MODERATION_PROVIDER must be one of ${MODERATION_PROVIDERS.join(', ')}`);
  if (provider === 'google-vision' && !env.GOOGLE_VISION_API_KEY) {
    throw new Error('MODERATION_PROVIDER=google-vision needs GOOGLE_VISION_API_KEY');
  }
  return provider;
}

function portsFromEnv(name: string, env: NodeJS.ProcessEnv): number[] {
  const raw = env[name];
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const port = Number(part.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new Error(`${name} must be a comma-separated list of ports`);
    return port;
  });
}

function upstreamUrlFromEnv(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('EVENTS_UPSTREAM_URL must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('EVENTS_UPSTREAM_URL must be an http(s) URL');
  return url.toString();
}

/** Space- or comma-separated; a comma inside a URL must be written %2C. */
export function listFromEnv(raw: string | undefined): string[] {
  return (raw ?? '').split(/[\s,]+/).filter((entry) => entry.length > 0);
}

// One sharp job per core keeps every core busy; a few jobs per core may wait (each holds
// at most a 5 MB decoded upload), and past that a request is told to come back later.
function photoProcessingFromEnv(env: NodeJS.ProcessEnv): Config['photoProcessing'] {
  const concurrency = intFromEnv(env, 'PHOTO_PROCESSING_CONCURRENCY', os.availableParallelism());
  if (concurrency < 1) throw new Error('PHOTO_PROCESSING_CONCURRENCY must be at least 1');
  return { concurrency, maxWaiting: intFromEnv(env, 'PHOTO_PROCESSING_QUEUE', 4 * concurrency) };
}

/** PLAN_REMINDER_OFFSETS: "24h,2h" (the default), or minutes ("90m", "5"), before a confirmed plan's start. */
export function reminderOffsetsFromEnv(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [24 * 60, 2 * 60];
  const offsets = raw.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(h|m)?\s*$/i.exec(part);
    const value = match ? Number(match[1]) * (match[2]?.toLowerCase() === 'h' ? 60 : 1) : Number.NaN;
    if (!Number.isInteger(value) || value < 1) throw new Error('PLAN_REMINDER_OFFSETS must be like "24h,2h" or "90m"');
    return value;
  });
  return [...new Set(offsets)].sort((a, b) => b - a);
}

/**
 * Where LISTEN/NOTIFY, pg-boss and migrations connect: they keep session state (a LISTEN,
 * advisory locks), which PgBouncer in transaction mode would hand to other clients. Read at
 * call time, since `npm start` sets DATABASE_URL once the embedded database is up.
 */
export function directDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) throw new Error('DATABASE_DIRECT_URL needs DATABASE_URL too');
  return env.DATABASE_DIRECT_URL || env.DATABASE_URL || undefined;
}

/** A duration like "60m", "1h", "30s", or a bare number of minutes, as seconds. */
export function durationFromEnv(name: string, raw: string | undefined, fallbackSeconds: number): number {
  if (raw === undefined || raw.trim() === '') return fallbackSeconds;
  const match = /^\s*(\d+)\s*(h|m|s)?\s*$/i.exec(raw);
  if (!match) throw new Error(`${name} must be like "60m", "1h" or "30s"`);
  const unit = match[2]?.toLowerCase() ?? 'm';
  return Number(match[1]) * (unit === 'h' ? 3600 : unit === 'm' ? 60 : 1);
}

/**
 * APP_LINK_URL: where a phone opens the app with a sign-in token (`buddymatch://signin`,
 * `https://app.example.com/signin`). Without it the link page offers no app button: a
 * scheme no installed app answers is an "address is invalid" dead end.
 */
export function appLinkUrlFromEnv(raw: string | undefined): string | undefined {
  if (!raw?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('APP_LINK_URL must be an absolute URL, e.g. buddymatch://signin or https://app.example.com/signin');
  }
  if (/^(javascript|data|vbscript|file|blob):$/i.test(url.protocol) || url.protocol === 'http:')
    throw new Error('APP_LINK_URL must be an app scheme or an https universal link');
  return url.toString();
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFromEnv(env, 'PORT', 3000);
  const limits = limitsFromEnv(env);
  const base = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    publicBaseUrl: base,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: directDatabaseUrl(env),
    databaseReadUrls: listFromEnv(env.DATABASE_READ_URLS),
    replicaMaxLagSeconds: intFromEnv(env, 'DATABASE_READ_MAX_LAG_SECONDS', 5),
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR || './.data'),
    trustedProxies: parseTrustProxy(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'no-reply@localhost',
    geocoderUrl: env.GEOCODER_URL || undefined,
    planReminderOffsets: reminderOffsetsFromEnv(env.PLAN_REMINDER_OFFSETS),
    planCheckin: {
      delaySeconds: durationFromEnv('PLAN_CHECKIN_DELAY', env.PLAN_CHECKIN_DELAY, 60 * 60),
      answerSeconds: durationFromEnv('PLAN_CHECKIN_ANSWER_WINDOW', env.PLAN_CHECKIN_ANSWER_WINDOW, 30 * 60),
      contactMails: limits.plan_contact_mails,
    },
    appLinkUrl: appLinkUrlFromEnv(env.APP_LINK_URL),
    mailDigestDelaySeconds: durationFromEnv('MAIL_DIGEST_DELAY', env.MAIL_DIGEST_DELAY, 10 * 60),
    planReviewDelayMinutes: intFromEnv(env, 'PLAN_REVIEW_DELAY_MIN', 120),
    events: {
      upstreamUrl: upstreamUrlFromEnv(env.EVENTS_UPSTREAM_URL),
      upstreamTimeoutMs: intFromEnv(env, 'EVENTS_UPSTREAM_TIMEOUT_MS', 5000),
      cacheSeconds: intFromEnv(env, 'EVENTS_CACHE_SECONDS', 60),
      cacheMaxBytes: intFromEnv(env, 'EVENTS_CACHE_MAX_MB', 32) * 1024 * 1024,
      feeds: listFromEnv(env.EVENTS_FEEDS),
      refreshCron: env.EVENTS_REFRESH_CRON || '7 * * * *',
      horizonDays: intFromEnv(env, 'EVENTS_HORIZON_DAYS', 90),
      sample: env.EVENTS_SAMPLE !== '0',
    },
    blobReadWriteToken: env.BLOB_READ_WRITE_TOKEN || undefined,
    mcpRequirePersonConfirm: personConfirmFromEnv(env.MCP_REQUIRE_PERSON_CONFIRM),
    moderationProvider: moderationProviderFromEnv(env),
    googleVisionApiKey: env.GOOGLE_VISION_API_KEY || undefined,
    googleVisionEndpoint: env.GOOGLE_VISION_ENDPOINT || 'https://vision.googleapis.com/v1/images:annotate',
    photoProcessing: photoProcessingFromEnv(env),
    photoFetchAllowLoopbackPorts: portsFromEnv('PHOTO_FETCH_ALLOW_LOOPBACK_PORTS', env),
    pushProvider: pushProviderFromEnv(env.PUSH_PROVIDER),
    vapid: {
      publicKey: env.VAPID_PUBLIC_KEY || undefined,
      privateKey: env.VAPID_PRIVATE_KEY || undefined,
      subject: env.VAPID_SUBJECT || undefined,
    },
    webPushAllowLoopbackPorts: portsFromEnv('WEB_PUSH_ALLOW_LOOPBACK_PORTS', env),
    webPushAllowedHosts: env.WEB_PUSH_ALLOWED_HOSTS
      ? listFromEnv(env.WEB_PUSH_ALLOWED_HOSTS)
      : [...KNOWN_PUSH_SERVICE_HOSTS],
    oauthClientMetadataAllowLoopbackPorts: portsFromEnv('OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK_PORTS', env),
    expoAccessToken: env.EXPO_ACCESS_TOKEN || undefined,
    authSecret: env.AUTH_SECRET || undefined,
    signinFailureLimits: {
      perAccountFromIp: limits.signin_failures_per_account.points,
      perIp: limits.signin_failures_per_ip.points,
      windowSeconds: limits.signin_failures_per_ip.windowSeconds,
      backoff: {
        after: limits.signin_failures_before_backoff.points,
        windowSeconds: limits.signin_failures_before_backoff.windowSeconds,
        firstPauseSeconds: 60,
        maxPauseSeconds: intFromEnv(env, 'SIGNIN_FAILURE_BACKOFF_MAX_MINUTES', 60) * 60,
      },
      knownAddressSeconds: 30 * 24 * 3600,
    },
    signinLinkLimits: {
      perAccount: limits.signin_links_per_account.points,
      perIp: limits.signin_links_per_ip.points,
      windowSeconds: limits.signin_links_per_ip.windowSeconds,
    },
    limits,
    rateLimits: Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, limits[name]])) as RateLimitRules,
  };
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
