// Runtime configuration from the environment (the names are fixed by RUNTIME.md).
// Read once; domain code receives values as arguments and never reads env itself.
import os from 'node:os';
import path from 'node:path';
import { ageRulesFromEnv, type AgeRules } from '@/lib/core/age-env';
import { databaseReadUrls, directDatabaseUrl, replicaMaxLagSeconds } from '@/lib/core/database-env';
import { parseTrustProxy, type TrustProxy } from './core/client-address';
import type { AttemptLimits, FailureLimits } from './accounts/attempt-limits';
import { RATE_LIMIT_NAMES, type RateLimitRules } from './limits/rate-limits';
import { limitsFromEnv, type Limits } from './limits/rules';
import type { EventsConfig } from './events/jobs';
import { KNOWN_PUSH_SERVICE_HOSTS } from './notifications/push-services';
import type { PlanCheckinConfig } from './plans/checkins';

function intFromEnv(env: NodeJS.ProcessEnv, name: ConfigVariableName, fallback: number): number {
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

/** An on/off switch: unset, empty, 0, false or off is off; 1, true or on is on; anything else stops the server. */
export function switchFromEnv(env: NodeJS.ProcessEnv, name: ConfigVariableName): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'off') return false;
  if (raw === '1' || raw === 'true' || raw === 'on') return true;
  throw new Error(`${name} must be 1 (on) or 0 (off)`);
}

/**
 * REVIEW_ACCOUNT: off (unset, 0, false, off); `1` (true, on): the review account signs in as
 * `review@` the host of PUBLIC_BASE_URL (`review@localhost` while that is an IP address or has no
 * dot, as defaultMailFrom decides); an email address: that address.
 */
export function reviewAccountFromEnv(env: NodeJS.ProcessEnv, publicBaseUrl: string): Config['reviewAccount'] {
  const raw = (env.REVIEW_ACCOUNT ?? '').trim();
  if (raw.includes('@')) {
    if (!/^[^\s@]+@[^\s@]+$/.test(raw) || raw.length > 254)
      throw new Error('REVIEW_ACCOUNT must be 1 (on), 0 (off) or the email address the review account signs in with');
    return { email: raw.toLowerCase() };
  }
  if (!switchFromEnv(env, 'REVIEW_ACCOUNT')) return null;
  return { email: `review@${defaultMailFrom(publicBaseUrl).split('@')[1]}` };
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
  /** MINIMUM_AGE and TEEN_AGE_GAP_YEARS (lib/core/age-env.ts reads them; every domain applies them through lib/ages). */
  ages: AgeRules;
  /** TRUST_PROXY: reverse proxies in front; the client address is the n-th X-Forwarded-For entry from the right (0: the socket). */
  trustedProxies: TrustProxy;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** CONTACT_EMAIL: where people reach the operator (the privacy and terms pages name it). */
  contactEmail: string;
  geocoderUrl: string | undefined;
  events: EventsConfig;
  /** Vercel Blob token; when unset photos are stored under DATA_DIR/blobs and served by the app. */
  blobReadWriteToken: string | undefined;
  /**
   * REQUIRE_PERSON_CONSENT (issue 41 §2): a profile an assistant makes (register.json, the MCP register tool,
   * /signup-with-ai) stays out of sight until the person says "Yes, show me to people nearby" on the web.
   */
  requirePersonConsent: boolean;
  /** REVIEW_ACCOUNT (issue 47): the sign-in address of the app-directory review account, or null when it is off. */
  reviewAccount: { email: string } | null;
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

function portsFromEnv(name: ConfigVariableName, env: NodeJS.ProcessEnv): number[] {
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

/**
 * The sender when MAIL_FROM is unset: no-reply at the site's own host (issue 46 §5: mail from
 * no-reply@localhost is rejected or filed as spam), or no-reply@localhost, as RUNTIME.md gives
 * it, while the site has no name (an address needs a domain, not an IP).
 */
export function defaultMailFrom(publicBaseUrl: string): string {
  return addressAtSite('no-reply', publicBaseUrl);
}

/** The contact when CONTACT_EMAIL is unset: contact@ the site's own host, as MAIL_FROM's default. */
export function defaultContactEmail(publicBaseUrl: string): string {
  return addressAtSite('contact', publicBaseUrl);
}

function addressAtSite(local: string, publicBaseUrl: string): string {
  const host = new URL(publicBaseUrl).hostname;
  const named = host.includes('.') && !/^[\d.]+$/.test(host) && !host.startsWith('[');
  return `${local}@${named ? host : 'localhost'}`;
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
    databaseReadUrls: databaseReadUrls(env),
    replicaMaxLagSeconds: replicaMaxLagSeconds(env),
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR || './.data'),
    ages: ageRulesFromEnv(env),
    trustedProxies: parseTrustProxy(env.TRUST_PROXY),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || defaultMailFrom(base),
    contactEmail: env.CONTACT_EMAIL?.trim() || defaultContactEmail(base),
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
    requirePersonConsent: switchFromEnv(env, 'REQUIRE_PERSON_CONSENT'),
    reviewAccount: reviewAccountFromEnv(env, base),
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

/** One environment variable as docs/configuration.md shows it (`npm run docs:config` writes that file from here). */
export interface ConfigVariable {
  name: string;
  /** The default as a reader would say it. */
  default: string;
  /** What it sets, in a sentence or two. */
  description: string;
  /** Longer notes, shown below the tables. */
  details?: string;
  /** Read by the test runner and its tools, not by the service. */
  tests?: true;
}

/**
 * Every variable the service and its test runner read, but the limits (LIMIT_RULES in
 * lib/limits/rules.ts declares those). loadConfig's readers take their names from here, so
 * a variable read without a declaration does not compile.
 */
export const CONFIG_VARIABLES = [
  { name: 'PORT', default: '3000', description: 'HTTP port.' },
  {
    name: 'PUBLIC_BASE_URL',
    default: '`http://localhost:$PORT`',
    description:
      'Origin of every absolute link the service returns (profile_url, mobile_signin_url, poll_next_url, OpenAPI servers, MCP manifest, guides).',
  },
  { name: 'DATABASE_URL', default: 'embedded PostgreSQL', description: 'An existing PostgreSQL 14+ server.' },
  {
    name: 'DATABASE_DIRECT_URL',
    default: '`DATABASE_URL`',
    description:
      'A direct (session) connection for LISTEN/NOTIFY, pg-boss and migrations, when `DATABASE_URL` goes through a transaction pooler such as PgBouncer (see [Deployment](deployment.md#deployment)). Setting it also says no connection may use named prepared statements.',
  },
  {
    name: 'DATABASE_READ_URLS',
    default: '—',
    description:
      "Streaming replicas (comma-separated) for reads that tolerate lag: Discover, profiles, overlap, plan options, the events directory; a reader's own writes and blocks always hold (see [Deployment](deployment.md#deployment)).",
  },
  {
    name: 'DATABASE_READ_MAX_LAG_SECONDS',
    default: '5',
    description: 'A replica further behind than this is skipped (reads go to the primary) until it catches up.',
  },
  { name: 'DATA_DIR', default: '`./.data`', description: 'Embedded database, local photos, mail outbox.' },
  {
    name: 'MINIMUM_AGE',
    default: '13',
    description:
      'The youngest age that may register or set a birthday (13 as the contract says; 13-18). Raise it where the law asks (16 in several EU countries for consent to such services, or 18).',
  },
  {
    name: 'TEEN_AGE_GAP_YEARS',
    default: '2',
    description:
      'How far apart two people under 18 may be born and still find or reach each other (0-5). People under 18 and adults never do, whatever this says (see [Security](security.md)).',
  },
  {
    name: 'AUTH_SECRET',
    default: 'generated once, kept in PostgreSQL',
    description: 'Secret of the web sign-in (Auth.js CSRF cookie); set it to pin or rotate it.',
  },
  {
    name: 'SIGNIN_FAILURE_BACKOFF_MAX_MINUTES',
    default: '60',
    description: 'Longest account-wide pause of password sign-in (1, 2, 4, … minutes up to this).',
  },
  {
    name: 'TRUST_PROXY',
    default: 'unset (0: none)',
    description:
      'How many reverse proxies stand in front, or their addresses; unset or `0`: `X-Forwarded-For` is ignored.',
    details:
      "`n` ≥ 1: the client address is the `n`-th `X-Forwarded-For` entry **from the right** (`1`: the right-most, what your nearest proxy saw; see [Decisions → General](decisions/general.md)). Unset or `0`: the header is ignored. Or the proxies' addresses, comma-separated, as `proxy-addr` reads them: IPs, CIDRs (`10.0.0.0/8`), `loopback`, `linklocal`, `uniquelocal`; then the header is read only when the socket peer is one of them, right to left while each hop is one of them (the safer form). Anything else (e.g. `true`) stops the server at startup. The count form logs one `trust_proxy_public_peer` warning when a request comes straight from a public address (no proxy in front?). The `listening` log line shows `trusted_proxies`. This supersedes RUNTIME.md's \"the left-most address\": that entry is the client's own, so it let anyone dodge every per-address limit with one header.",
  },
  { name: 'SMTP_URL', default: 'unset: the outbox under `DATA_DIR/mail`', description: 'Mail delivery (`smtp://…`).' },
  {
    name: 'MAIL_FROM',
    default: '`no-reply@` the host of `PUBLIC_BASE_URL` (`no-reply@localhost` while that is unset or an IP address)',
    description: 'Sender address.',
  },
  {
    name: 'CONTACT_EMAIL',
    default: '`contact@` the host of `PUBLIC_BASE_URL` (`contact@localhost` while that is unset or an IP address)',
    description:
      'Where people reach the operator about their data, the terms or a safety problem: `/privacy` and `/terms` name it (app directories ask for a contact). Make sure someone reads it.',
  },
  {
    name: 'MAIL_DIGEST_DELAY',
    default: '`10m`',
    description:
      'After a new message or buddy request that reached no push (app or browser), when its mail digest goes; digests stay at least an hour apart. `1h`, `10m`, `30s`, or minutes.',
  },
  {
    name: 'PLAN_REMINDER_OFFSETS',
    default: '`24h,2h`',
    description:
      "Before a confirmed plan's start, when both people get a reminder (push, and mail unless turned off); hours (`24h`) or minutes (`90m`, `5`).",
  },
  {
    name: 'PLAN_CHECKIN_DELAY',
    default: '`60m`',
    description:
      'After a shared plan\'s (or meetup\'s) start, when a person who turned check-in on is asked "All good?" (push, mail, the web app); `1h`, `60m`, `30s`, or minutes.',
  },
  {
    name: 'PLAN_CHECKIN_ANSWER_WINDOW',
    default: '`30m`',
    description:
      'How long "All good?" waits for "I\'m fine" before the trusted contact gets the one mail with the plan\'s (or meetup\'s) page (same format).',
  },
  {
    name: 'PLAN_REVIEW_DELAY_MIN',
    default: '`120`',
    description: 'Minutes after a confirmed plan ends before each person is asked "Did you meet?" (web app).',
  },
  {
    name: 'GEOCODER_URL',
    default: 'unset: offline gazetteer only',
    description:
      'Nominatim-compatible search endpoint for places the gazetteer misses (rate-limited to 1 request per second).',
  },
  {
    name: 'EVENTS_UPSTREAM_URL',
    default: 'unset: the built-in directory',
    description:
      'Proxy the events feed to this upstream endpoint: the service appends the query string and expects `{events, total, scraped_at_max}` back.',
  },
  {
    name: 'EVENTS_UPSTREAM_TIMEOUT_MS',
    default: '5000',
    description: 'Upstream deadline (connection, headers and body).',
  },
  {
    name: 'EVENTS_CACHE_SECONDS',
    default: '60',
    description: 'How long an identical upstream query is answered from memory.',
  },
  {
    name: 'EVENTS_CACHE_MAX_MB',
    default: '32',
    description:
      'Upper bound of that cache, in MiB of upstream JSON (see [Decisions → Events feed](decisions/events-feed.md)); `0` turns the cache off.',
  },
  {
    name: 'EVENTS_FEEDS',
    default: 'unset',
    description:
      'iCalendar/JSON feeds (URLs or paths, space- or comma-separated, `name=url` to name one) imported by the refresh job.',
  },
  {
    name: 'EVENTS_REFRESH_CRON',
    default: '`7 * * * *`',
    description: 'When the refresh job runs (pg-boss cron, UTC).',
  },
  { name: 'EVENTS_HORIZON_DAYS', default: '90', description: 'How far ahead recurring events are expanded.' },
  { name: 'EVENTS_SAMPLE', default: 'on', description: '`0` turns the bundled sample calendar off (and removes it).' },
  {
    name: 'BLOB_READ_WRITE_TOKEN',
    default: 'unset: photos under `DATA_DIR/blobs`, served by the app',
    description: 'Vercel Blob token: photos go to Vercel Blob.',
  },
  {
    name: 'REQUIRE_PERSON_CONSENT',
    default: '`0` (off)',
    description:
      '`1`: a profile an assistant makes stays out of Discover and its public page until the person says "Yes, show me to people nearby" on the web.',
    details:
      "With it on, an account made through `POST /api/v1/register.json` (the MCP `register` tool and `/signup-with-ai` too) is created with `onboarding.awaiting_person_consent: true`: it is in no Discover search, its `/u/{slug}` page, link preview and every path naming it answer 404 like no one, and it cannot send a buddy request. The person lifts it on the web, signed in: the button on `/account` (where the emailed sign-in link lands) and after `/signup-with-ai`; the device sign-in page links there. No bearer or OAuth token can (403). Off (the contract): a complete profile shows at once. The choice is stored per account when it is made, so switching it off later does not show a profile its person has not confirmed, and switching it on hides none already shown. A person's own signup at `/signup` is theirs and shows at once.",
  },
  {
    name: 'REVIEW_ACCOUNT',
    default: '`0` (off)',
    description:
      '`1`: keep a test account for app-directory reviewers (ChatGPT, Claude), with sample buddies, chats, plans and a meetup, walled off from every real member; or the email address it signs in with (default `review@` the host of `PUBLIC_BASE_URL`). Off removes it. See [Deployment → The review account](deployment.md#the-review-account).',
    details:
      'Read by the process that runs the jobs (`npm start`, `--role=worker`). Each start with it on makes the review world afresh (whatever a reviewer changed is gone, sessions and tokens included) and writes one `review_account` log line with the `email`, the `password` and the `signin_url`; the password is the same on every start (an HMAC of the email under the `AUTH_SECRET` kept in PostgreSQL, so changing `AUTH_SECRET` changes it) and is stored only as its argon2 hash. It signs in with that password on `/signin`, and so through OAuth for MCP hosts, with no second factor; the failed-password limits and backoff apply as to anyone. Its people and real members answer each other as no one: not in Discover or meetup search, `/u/{slug}` 404, buddy requests, blocks and reports 404, either way; its own Discover is empty and says why. A start with it off deletes the review account, its sample people and everything they own.',
  },
  {
    name: 'MCP_REQUIRE_PERSON_CONFIRM',
    default: '`ui-hosts`',
    description:
      'Whether a host that renders MCP Apps views must have the person tap Send: `ui-hosts` or `never`. The REST API is unaffected.',
    details:
      '`ui-hosts`: over MCP, a buddy request, the first message in a chat and accepting a plan from a host that declares MCP Apps views (`io.modelcontextprotocol/ui`) in the request\'s capabilities wait for the person\'s tap in the view; `never`: only when the model asks (`confirm: "person"`).',
  },
  {
    name: 'MODERATION_PROVIDER',
    default: '`local`',
    description:
      '`google-vision`: every photo is checked by the Cloud Vision `images:annotate` API, SAFE_SEARCH_DETECTION and FACE_DETECTION (needs `GOOGLE_VISION_API_KEY`).',
  },
  { name: 'GOOGLE_VISION_API_KEY', default: 'unset', description: 'Cloud Vision key.' },
  {
    name: 'GOOGLE_VISION_ENDPOINT',
    default: '`https://vision.googleapis.com/v1/images:annotate`',
    description: 'Cloud Vision endpoint, overridable for a local stand-in.',
  },
  {
    name: 'PHOTO_PROCESSING_CONCURRENCY',
    default: 'the number of cores (`os.availableParallelism()`)',
    description: 'Sharp jobs (decode, resize, encode; the local moderation check) running at once in one process.',
  },
  {
    name: 'PHOTO_PROCESSING_QUEUE',
    default: '4 × the concurrency',
    description:
      'Photo requests that may wait for a sharp slot; one more gets 503 `service_unavailable` with `Retry-After`.',
  },
  {
    name: 'PHOTO_FETCH_ALLOW_LOOPBACK_PORTS',
    default: 'unset',
    description:
      '**Tests only**: comma-separated loopback ports a `photoURL` may be fetched from (over http too). Never set it in production.',
  },
  {
    name: 'PUSH_PROVIDER',
    default: '`log`',
    description: '`log` writes one line per push (no text, no token); `expo` sends through the Expo push API.',
  },
  {
    name: 'EXPO_ACCESS_TOKEN',
    default: 'unset',
    description: 'Expo access token, when push security is enabled for the project.',
  },
  {
    name: 'VAPID_PUBLIC_KEY',
    default: 'generated once, kept in PostgreSQL',
    description:
      "The Web Push key pair's public half (RFC 8292); set both halves to pin them. Changing them invalidates every browser's subscription.",
  },
  {
    name: 'VAPID_PRIVATE_KEY',
    default: 'generated once, kept in PostgreSQL',
    description: "The Web Push key pair's private half; set with `VAPID_PUBLIC_KEY`.",
  },
  {
    name: 'VAPID_SUBJECT',
    default: '`PUBLIC_BASE_URL` when https, else `mailto:push@<host>`',
    description: 'The contact push services see in the VAPID token.',
  },
  {
    name: 'WEB_PUSH_ALLOW_LOOPBACK_PORTS',
    default: 'unset',
    description: '**Tests only**: loopback ports a Web Push endpoint may use, over http too.',
  },
  {
    name: 'WEB_PUSH_ALLOWED_HOSTS',
    default: "the browsers' push services",
    description:
      "Hosts a Web Push endpoint may be at, space- or comma-separated, `*.example.com` for any name under it; replaces the default `fcm.googleapis.com`, `updates.push.services.mozilla.com`, `*.push.apple.com`, `*.notify.windows.com` (name a new browser's push service here).",
  },
  {
    name: 'APP_LINK_URL',
    default: 'unset: no app button',
    description:
      "The app's scheme or https universal link for a sign-in token (`buddymatch://signin`); `/signin/link` offers it on phones as `?token=…`.",
  },
  {
    name: 'OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK_PORTS',
    default: 'unset',
    description:
      '**Tests only**: loopback ports an OAuth client ID metadata document may be fetched from (http, or https with a self-signed certificate).',
  },
  {
    name: 'CHROMIUM_PATH',
    default: 'unset: `/usr/bin/chromium`',
    description:
      "The Chromium the browser tests drive; with none, `npm test` installs Debian's `chromium` as root with apt, or says how to get one.",
    tests: true,
  },
  {
    name: 'PGBOUNCER_PATH',
    default: 'unset: `/usr/sbin/pgbouncer`',
    description: '`pgbouncer` for `e2e/api/pgbouncer.test.ts` (skipped without it, failed when `CI=true`).',
    tests: true,
  },
  {
    name: 'PG15_BIN',
    default: 'unset: `/usr/lib/postgresql/15/bin`',
    description:
      "Debian's PostgreSQL 15 binaries for `e2e/api/read-replicas.test.ts` and `e2e/api/soak.test.ts` (skipped without them, failed when `CI=true`).",
    tests: true,
  },
  {
    name: 'FUZZ_SEED',
    default: 'random with `npm run fuzz`; 20261123 in `npm test`',
    description: "`npm run fuzz`'s seed; it prints the seed, so `FUZZ_SEED=<seed> npm run fuzz` replays a failure.",
    tests: true,
  },
  {
    name: 'FUZZ_RUNS',
    default: '300 with `npm run fuzz`; 30 in `npm test`',
    description: 'Fuzzed requests per endpoint.',
    tests: true,
  },
  {
    name: 'FUZZ_MCP_RUNS',
    default: 'a quarter of `FUZZ_RUNS`, at least 2',
    description: 'Fuzzed calls per MCP tool.',
    tests: true,
  },
] as const satisfies readonly ConfigVariable[];

export type ConfigVariableName = (typeof CONFIG_VARIABLES)[number]['name'];
