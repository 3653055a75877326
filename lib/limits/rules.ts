// Every limit on how often someone may do something, in one table: its name, the
// environment variable that changes it, its default, its window, what it counts, who it
// counts per, how it is counted, and the sentence the guides show. Configuration reads the
// environment through it (lib/config.ts), the counters take their rule from it, and
// AGENTS.md and docs/configuration.md render their limits tables from it. `rules.test.ts`
// fails when a limit is declared anywhere else.

/** How a limit is counted: which code enforces it. */
export type LimitMechanism =
  /** rate-limiter-flexible's fixed windows in `rate_limits` (lib/limits/rate-limits.ts), via spec.rateLimit or a direct call. */
  | 'rate_limits'
  /** Counted in SQL over the rows the action writes, inside its own transaction (registrations, messages, contact mails). */
  | 'rows'
  /** Counted in `auth_attempts` under advisory locks (lib/accounts/attempt-limits.ts). */
  | 'auth_attempts';

export interface LimitDeclaration {
  /** The environment variable that sets `points` (RUNTIME.md and docs/configuration.md). */
  env: string;
  /** Calls allowed per window when the variable is unset. */
  points: number;
  windowSeconds: number;
  /** What is counted, as a refusal says it: "Too many Discover searches". */
  what: string;
  /** Who it is counted per, as the guides say it: "per person". */
  per: string;
  mechanism: LimitMechanism;
  /** The policy name in the RateLimit-Policy field, for limits that send the IETF fields. */
  policy?: string;
  /** The sentence docs/configuration.md shows for it (`npm run docs:config`). */
  doc: string;
  /** The row of AGENTS.md's limits table; absent for limits an agent never meets (sign-in by password). */
  guide?: { label: string; note?: string };
  /**
   * Counts what is open at one time, not what happened in a window (meetups hosted): `windowSeconds`
   * is then the longest one counted thing can stay open, and the guides say "at once".
   */
  atOnce?: true;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

export const LIMIT_RULES = {
  registrations: {
    env: 'REGISTRATION_LIMIT_PER_HOUR',
    points: 3,
    windowSeconds: HOUR,
    what: 'registrations',
    per: 'per IP address',
    mechanism: 'rows',
    doc: 'Successful registrations per client address per rolling hour.',
    policy: 'registrations',
    guide: { label: 'Registrations' },
  },
  messages: {
    env: 'MESSAGE_LIMIT_PER_10_MIN',
    points: 20,
    windowSeconds: 10 * MINUTE,
    what: 'messages in one chat',
    per: 'per chat',
    mechanism: 'rows',
    doc: 'Messages per sender per chat per rolling 10 minutes.',
    policy: 'messages',
    guide: { label: 'Messages', note: 'from one sender' },
  },
  discover: {
    env: 'DISCOVER_LIMIT_PER_HOUR',
    points: 120,
    windowSeconds: HOUR,
    what: 'Discover searches',
    per: 'per person',
    mechanism: 'rate_limits',
    doc: 'Discover searches per person per hour (API, MCP and `/account/discover` together).',
    policy: 'discover',
    guide: { label: 'Discover searches' },
  },
  location_change: {
    env: 'LOCATION_CHANGE_LIMIT_PER_DAY',
    points: 10,
    windowSeconds: DAY,
    what: 'changes of your location',
    per: 'per person',
    mechanism: 'rate_limits',
    doc: "Moves of one's own point per person per day: `PATCH /api/v1/me.json` with `coords` that differ from the stored ones, or a `location` that places the person elsewhere (through the gazetteer, or the geocoding job it queues). Counted before any write; unchanged values, clearing, registration and the geocoding job's own write do not count. Past it: 429 with `Retry-After`, `error.fields` naming the field that would have moved it, nothing stored.",
    policy: 'location_change',
    guide: { label: 'Changes of the coordinates', note: 'unchanged values do not count' },
  },
  photo_upload: {
    env: 'PHOTO_UPLOAD_LIMIT_PER_HOUR',
    points: 10,
    windowSeconds: HOUR,
    what: 'photo uploads',
    per: 'per account',
    mechanism: 'rate_limits',
    doc: 'Photos processed per account per hour (uploads and _new_ `photoURL`s in PATCH; the current `photoURL` sent back is not counted), and per client address for photos sent at registration, failed ones included.',
    policy: 'photo_upload',
    guide: { label: 'Photo uploads', note: 'uploads and new photoURLs' },
  },
  events: {
    env: 'EVENTS_LIMIT_PER_MINUTE',
    points: 120,
    windowSeconds: MINUTE,
    what: 'events feed requests from your network',
    per: 'per client address',
    mechanism: 'rate_limits',
    doc: '`events.json` calls per client address per minute.',
    policy: 'events',
    guide: { label: 'Events feed' },
  },
  availability_parse: {
    env: 'AVAILABILITY_PARSE_LIMIT_PER_MINUTE',
    points: 60,
    windowSeconds: MINUTE,
    what: 'availability checks from your network',
    per: 'per client address',
    mechanism: 'rate_limits',
    doc: '`availability/parse.json` calls per client address per minute.',
    policy: 'availability_parse',
    guide: { label: 'Availability checks (parse.json)' },
  },
  // Each new key is a row kept 24 h: 3,000 keys from one token once stored 1,501 (issue 28).
  idempotency_keys: {
    env: 'IDEMPOTENCY_KEY_LIMIT_PER_HOUR',
    points: 120,
    windowSeconds: HOUR,
    what: 'new Idempotency-Keys',
    per: 'per account',
    mechanism: 'rate_limits',
    doc: 'New `Idempotency-Key`s per account (per client address without one) per hour; past it a POST with a new key is a 429 with `Retry-After` (retries of a stored key are not counted; a POST without the header still runs).',
    policy: 'idempotency_keys',
    guide: { label: 'New Idempotency-Keys', note: 'retries do not count' },
  },
  signin_links_per_account: {
    env: 'SIGNIN_LINK_LIMIT_PER_ACCOUNT',
    points: 5,
    windowSeconds: HOUR,
    what: 'sign-in links for one email address',
    per: 'per email address',
    mechanism: 'auth_attempts',
    doc: '"Email me a sign-in link" requests per email address in a rolling hour; past it, the person is told when to ask again.',
    guide: { label: 'Emailed sign-in links' },
  },
  signin_links_per_ip: {
    env: 'SIGNIN_LINK_LIMIT_PER_IP',
    points: 20,
    windowSeconds: HOUR,
    what: 'sign-in links from your network',
    per: 'per client address',
    mechanism: 'auth_attempts',
    doc: '"Email me a sign-in link" requests per client address in a rolling hour; past it, the person is told when to ask again.',
    guide: { label: 'Emailed sign-in links' },
  },
  // Per account *from one client address*: a stranger's failures pause only the stranger.
  signin_failures_per_account: {
    env: 'SIGNIN_FAILURE_LIMIT_PER_ACCOUNT',
    points: 5,
    windowSeconds: 15 * MINUTE,
    what: 'failed passwords for one account from your network',
    per: 'per account and client address',
    mechanism: 'auth_attempts',
    doc: 'Failed passwords for one account **from one client address** in a rolling 15 minutes (it used to be per account from anywhere, which let a stranger lock the owner out).',
  },
  signin_failures_per_ip: {
    env: 'SIGNIN_FAILURE_LIMIT_PER_IP',
    points: 20,
    windowSeconds: 15 * MINUTE,
    what: 'failed passwords from your network',
    per: 'per client address',
    mechanism: 'auth_attempts',
    doc: 'Failed passwords from one client address, whatever the accounts, in a rolling 15 minutes.',
  },
  // Past these failures from anywhere, each further one pauses password sign-in of the
  // account (SIGNIN_FAILURE_BACKOFF_MAX_MINUTES caps the pause).
  signin_failures_before_backoff: {
    env: 'SIGNIN_FAILURE_BACKOFF_AFTER',
    points: 20,
    windowSeconds: DAY,
    what: 'failed passwords for one account',
    per: 'per account',
    mechanism: 'auth_attempts',
    doc: 'Failures of one account from all addresses within 24 hours at which the account-wide backoff starts (`SIGNIN_FAILURE_BACKOFF_MAX_MINUTES` caps the pause).',
  },
  plan_contact_mails: {
    env: 'PLAN_CONTACT_MAIL_LIMIT_PER_DAY',
    points: 3,
    windowSeconds: DAY,
    what: 'mails to trusted contacts',
    per: 'per account',
    mechanism: 'rows',
    doc: 'Mails to trusted contacts one account may cause in 24 hours; past it the mail is withheld (recorded as `rate_limited`).',
    guide: { label: 'Mails to a trusted contact (check-in)' },
  },
  // Counted in the hosting transaction over the host's meetups not yet over, under their user row lock.
  meetups_hosted: {
    env: 'MEETUP_LIMIT_PER_PERSON',
    points: 20,
    // A meetup counts until it ends: at most 90 days ahead and 24 hours long.
    windowSeconds: 91 * DAY,
    atOnce: true,
    what: 'open meetups you host',
    per: 'per person',
    mechanism: 'rows',
    doc: 'Meetups one person hosts at once that have not ended (each occurrence of a weekly series counts); past it `POST /api/v1/meetups.json` answers 429 with `Retry-After` (until the first of them ends).',
    guide: { label: 'Meetups hosted at once', note: 'until each ends' },
  },
  meetup_joins: {
    env: 'MEETUP_JOIN_LIMIT_PER_DAY',
    points: 30,
    windowSeconds: DAY,
    what: 'meetup joins',
    per: 'per person',
    mechanism: 'rate_limits',
    doc: '`POST /api/v1/meetups/{meetupId}/join.json` calls per person per day.',
    policy: 'meetup_joins',
    guide: { label: 'Meetup joins' },
  },
} as const satisfies Record<string, LimitDeclaration>;

export type LimitName = keyof typeof LIMIT_RULES;
export const LIMIT_NAMES = Object.keys(LIMIT_RULES) as LimitName[];

/** A limit as configured: calls per window, and what is counted. */
export interface LimitRule {
  points: number;
  windowSeconds: number;
  what: string;
}
export type Limits = Record<LimitName, LimitRule>;

/** Every limit, its points read from its environment variable (a non-negative integer) or its default. */
export function limitsFromEnv(env: Readonly<Record<string, string | undefined>>): Limits {
  const limits = {} as Limits;
  for (const name of LIMIT_NAMES) {
    const rule: LimitDeclaration = LIMIT_RULES[name];
    const raw = env[rule.env];
    let points = rule.points;
    if (raw !== undefined && raw !== '') {
      points = Number(raw);
      if (!Number.isInteger(points) || points < 0) throw new Error(`${rule.env} must be a non-negative integer`);
    }
    limits[name] = { points, windowSeconds: rule.windowSeconds, what: rule.what };
  }
  return limits;
}
