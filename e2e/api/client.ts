// A small HTTP client for the API tests: real requests to the real server.
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { createDb, type Database } from '@/db';
import { createSession, newSessionToken, SESSION_MAX_AGE_SECONDS } from '@/lib/accounts/sessions';

export const baseUrl = () => inject('baseUrl');

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

let ipCounter = 0;
let ipBlock: number | undefined;

/**
 * This module's own block of 65,536 addresses (10.<block>.x.y), claimed with an atomic
 * mkdir under the test stack's data directory. Test files run in parallel workers and
 * each loads this module afresh, so a counter alone handed the same addresses to two
 * files, and one file's registrations used up another's per-address hourly limit.
 */
function claimIpBlock(): number {
  if (ipBlock !== undefined) return ipBlock;
  const root = path.join(inject('dataDir'), 'test-ip-blocks');
  fs.mkdirSync(root, { recursive: true });
  for (let block = 1; block < 256; block++) {
    try {
      fs.mkdirSync(path.join(root, String(block)));
      return (ipBlock = block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error('No test address block left (255 test modules loaded)');
}

/** A fresh client address per simulated client (the server trusts X-Forwarded-For in tests), never reused in a run. */
export function freshIp(): string {
  ipCounter += 1;
  if (ipCounter > 65_535) throw new Error('This test module used up its 65,535 client addresses');
  return `10.${claimIpBlock()}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export async function api<T = any>(
  method: string,
  path: string,
  options: {
    body?: unknown;
    rawBody?: string;
    token?: string;
    ip?: string;
    headers?: Record<string, string>;
    base?: string;
  } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { 'x-forwarded-for': options.ip ?? freshIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${options.base ?? baseUrl()}${path}`, { method, headers, body });
  const text = await res.text();
  assertNoSecretsLeak(text);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the assertion message
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Every response of every test passes through here: no hash of a password or token may ever leave the server. */
function assertNoSecretsLeak(text: string): void {
  for (const pattern of [/\$argon2/, /password_hash/, /token_hash/, /"type":"Buffer"/]) {
    if (pattern.test(text)) throw new Error(`Response leaks a secret (${pattern}): ${text.slice(0, 200)}`);
  }
}

let emailCounter = 0;
export function uniqueEmail(tag = 'user'): string {
  emailCounter += 1;
  return `${tag}-${process.pid}-${Date.now()}-${emailCounter}@example.com`;
}

/** A 1x1 PNG, for completing profiles in tests. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export async function registerUser(overrides: Record<string, unknown> = {}) {
  const body = { email: uniqueEmail(), displayName: 'Test Person', ...overrides };
  const res = await api('POST', '/api/v1/register.json', { body });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    ...res.body,
    token: res.body.auth.token as string,
    slug: res.body.user.slug as string,
    id: res.body.user.id as string,
  };
}

/**
 * call() and register() against a stack the test started itself (one with its own
 * environment), where the shared `api()` default base does not reach.
 */
export function stackClient(base: () => string, emailTag: string) {
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await api(method, path, { base: base(), token, body });
    return { status: res.status, body: res.body };
  };
  const register = async (displayName: string) => {
    const res = await call('POST', '/api/v1/register.json', undefined, { email: uniqueEmail(emailTag), displayName });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.user.id as string, slug: res.body.user.slug as string, token: res.body.auth.token as string };
  };
  return { call, register };
}

/**
 * Changes a person's token rows behind the API's back (scopes narrowed, revoked) and
 * waits until the change's NOTIFY has gone out, as the server's listener receives it:
 * the server caches token lookups and drops them on that notification, which on a
 * loaded machine can arrive after the test's next request.
 */
export async function updateTokens(userId: string, values: { scopes?: string[]; revoked_at?: Date }): Promise<void> {
  const listener = new pg.Client({ connectionString: inject('databaseUrl') });
  await listener.connect();
  try {
    const ids = (await testDb().selectFrom('access_tokens').select('id').where('user_id', '=', userId).execute()).map(
      (r) => `t:${r.id}`,
    );
    const heard = new Set<string>();
    const all = new Promise<void>((resolve) => {
      listener.on('notification', (n) => {
        if (n.payload) heard.add(n.payload);
        if (ids.every((id) => heard.has(id))) resolve();
      });
    });
    await listener.query('listen buddy_poll');
    await testDb().updateTable('access_tokens').set(values).where('user_id', '=', userId).execute();
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    // The server's own listener got the same notification at the same moment; give it a beat to act.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    await listener.end();
  }
}

let db: Database | undefined;
/** Direct database access, for asserting stored effects. */
export function testDb(): Database {
  db ??= createDb(inject('databaseUrl'), 2);
  return db;
}

/**
 * The headers of the person's own web session (a session row as signing in makes one, and
 * the same-origin Origin the web app's writes carry), for what only the person may do
 * (personOnly endpoints): sign-in itself is tested in the auth suites.
 */
export async function personSession(userId: string, base = baseUrl()): Promise<Record<string, string>> {
  const token = newSessionToken();
  await createSession(testDb(), userId, token, new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000));
  return { cookie: `buddy.session=${token}`, origin: new URL(base).origin };
}
