// Runtime configuration from the environment (the names are fixed by RUNTIME.md).
// Read once; domain code receives values as arguments and never reads env itself.
import path from 'node:path';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

export interface Config {
  port: number;
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  registrationLimitPerHour: number;
  messageLimitPer10Min: number;
  trustProxy: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Auth.js secret (CSRF tokens); when unset one is generated once and kept in PostgreSQL. */
  authSecret: string | undefined;
  /** Failed password attempts allowed per account and per client IP in a rolling window. */
  signinFailureLimits: { perAccount: number; perIp: number; windowSeconds: number };
  /** "Email me a sign-in link" requests allowed per address and per client IP in a rolling window. */
  signinLinkLimits: { perAccount: number; perIp: number; windowSeconds: number };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFromEnv('PORT', 3000);
  const base = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    publicBaseUrl: base,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR || './.data'),
    registrationLimitPerHour: intFromEnv('REGISTRATION_LIMIT_PER_HOUR', 3),
    messageLimitPer10Min: intFromEnv('MESSAGE_LIMIT_PER_10_MIN', 20),
    trustProxy: env.TRUST_PROXY === '1',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'no-reply@localhost',
    authSecret: env.AUTH_SECRET || undefined,
    signinFailureLimits: {
      perAccount: intFromEnv('SIGNIN_FAILURE_LIMIT_PER_ACCOUNT', 5),
      perIp: intFromEnv('SIGNIN_FAILURE_LIMIT_PER_IP', 20),
      windowSeconds: 15 * 60,
    },
    signinLinkLimits: {
      perAccount: intFromEnv('SIGNIN_LINK_LIMIT_PER_ACCOUNT', 5),
      perIp: intFromEnv('SIGNIN_LINK_LIMIT_PER_IP', 20),
      windowSeconds: 3600,
    },
  };
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
