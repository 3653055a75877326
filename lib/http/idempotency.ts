// Idempotency-Key on every POST, after draft-ietf-httpapi-idempotency-key-header-06: a
// retry with the same key and the same request gets the first answer (status, body,
// headers) with no second effect; the same key with another request gets 422; a duplicate
// sent while the first is still running waits for it and gets its answer.
//
// Keys are scoped to the caller (the bearer token, the web session, or the client address
// for unauthenticated POSTs such as registration) and kept 24 hours. Only successes (2xx)
// are stored: a refusal or failure changed nothing, so its key is released and a retry
// runs again (a 429 or a validation error is never replayed). The stored answer may hold
// a new bearer token, so it is encrypted with a key derived from the client's
// Idempotency-Key, which is itself stored only as a hash: the table alone reveals nothing.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '@/db';
import { ApiError } from '../core/errors';
import type { Caller } from './caller';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a claim is honoured before another request may take over (its holder died). */
const CLAIM_LEASE_SECONDS = 120;
/** How long a duplicate waits for the first request before it is told to retry (409). */
const MAX_WAIT_MS = 30_000;
/** Expired rows deleted per new claim: the table is cleaned as it is written. */
const CLEANUP_BATCH = 20;
/** Response headers that describe this request's own counting, never replayed. */
const NOT_REPLAYED = new Set(['ratelimit', 'ratelimit-policy', 'retry-after', 'set-cookie']);

export interface IdempotencyKey {
  scope: string;
  keyHash: string;
  /** Derived from the client's key: encrypts the stored answer and keys the fingerprint. */
  secret: Buffer;
}

/** What the stored row says to a request carrying its key. */
export type Decision = 'run' | 'replay' | 'mismatch' | 'wait';

export interface StoredRow {
  fingerprint: string;
  status: number | null;
  locked_until: Date;
  expires_at: Date;
}

/**
 * The rules in one place (the SQL of `claim` applies the same ones atomically): an expired
 * key is as good as new; a different request under a live key is refused; a finished one
 * is replayed; one in progress is waited for, unless its holder's lease ran out.
 */
export function decide(row: StoredRow | undefined, fingerprint: string, now: Date): Decision {
  if (!row || row.expires_at <= now) return 'run';
  if (row.fingerprint !== fingerprint) return 'mismatch';
  if (row.status !== null) return 'replay';
  return row.locked_until <= now ? 'run' : 'wait';
}

/**
 * The header's value: a Structured Fields string ("…") as the draft defines it, or the
 * bare value most clients send. Printable ASCII, 1-255 characters.
 */
export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  let value = header.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(value);
  if (quoted) value = quoted[1]!.replace(/\\(["\\])/g, '$1');
  if (!value || value.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(value)) {
    throw new ApiError('validation_failed', 'The Idempotency-Key header is not a valid key', {
      hint: 'Send a new random UUID per request, e.g. Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324".',
      fields: { 'Idempotency-Key': `1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters` },
    });
  }
  return value;
}

export function idempotencyKey(key: string, scope: string): IdempotencyKey {
  const secret = Buffer.from(hkdfSync('sha256', key, scope, 'buddy-match idempotency-key v1', 32));
  return { scope, keyHash: createHash('sha256').update(key).digest('hex'), secret };
}

/**
 * Same key, same request: the method, the path with its query, and the body (as JSON
 * with sorted keys, so a retry that orders its fields differently still matches). Keyed
 * by the client's key, so a stored fingerprint of a body with a password reveals nothing.
 */
export function fingerprint(key: IdempotencyKey, method: string, target: string, body: string): string {
  let canonical = body;
  try {
    canonical = body.trim() ? JSON.stringify(sortKeys(JSON.parse(body))) : '';
  } catch {
    // Not JSON: the bytes as sent (the route will refuse it anyway).
  }
  return createHmac('sha256', key.secret).update(`${method}\n${target}\n${canonical}`).digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

/**
 * A POST's Idempotency-Key, scoped to the caller (its token, its web session, or its
 * address), with the request's fingerprint computed once when first needed; null for
 * other methods and POSTs without the header.
 */
export function idempotentRequest(
  request: { method: string; url: string; headers: Pick<Headers, 'get'> },
  caller: Caller | null,
  ip: string,
  body: () => Promise<string>,
) {
  if (request.method !== 'POST') return null;
  const value = parseIdempotencyKey(request.headers.get(IDEMPOTENCY_HEADER));
  if (value === null) return null;
  const scope = !caller
    ? `ip:${ip}`
    : caller.via === 'bearer'
      ? `token:${caller.tokenId}`
      : `session:${caller.sessionId}`;
  const key = idempotencyKey(value, scope);
  const { pathname, search } = new URL(request.url);
  let print: Promise<string> | undefined;
  const fingerprintOf = () => body().then((text) => fingerprint(key, request.method, pathname + search, text));
  return { key, fingerprint: () => (print ??= fingerprintOf()) };
}

/**
 * Before the request is counted against any limit: the stored answer when this key has
 * one (a retry), waiting first if the original is still running; null when the request
 * should go on (no live row, or a holder whose lease ran out).
 */
export async function storedAnswer(
  db: Database,
  key: IdempotencyKey,
  fingerprintOf: () => Promise<string>,
): Promise<Response | null> {
  if (!(await findRow(db, key))) return null;
  return settle(db, key, await fingerprintOf(), false);
}

/**
 * Claims the key for this request: null when the caller now holds it (run the request,
 * then `finish`), or the answer to replay when another request got there first.
 */
export async function claim(db: Database, key: IdempotencyKey, print: string): Promise<Response | null> {
  return settle(db, key, print, true);
}

async function settle(db: Database, key: IdempotencyKey, print: string, mayClaim: boolean): Promise<Response | null> {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    if (mayClaim && (await tryClaim(db, key, print))) return null;
    const row = await findRow(db, key);
    const decision = decide(row, print, new Date());
    if (decision === 'mismatch') throw reusedKey();
    if (decision === 'replay') return replay(key, row!.status!, (await readAnswer(db, key))!);
    if (decision === 'run') {
      if (!mayClaim) return null;
      continue;
    }
    if (Date.now() - started > MAX_WAIT_MS) throw keyInUse();
    // No connection is held while waiting: each look is one short query.
    await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, 250)));
  }
}

async function findRow(db: Database, key: IdempotencyKey): Promise<StoredRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'status', 'locked_until', 'expires_at'])
    .where('scope', '=', key.scope)
    .where('key_hash', '=', key.keyHash)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst() as Promise<StoredRow | undefined>;
}

async function readAnswer(db: Database, key: IdempotencyKey): Promise<Buffer | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('response')
    .where('scope', '=', key.scope)
    .where('key_hash', '=', key.keyHash)
    .executeTakeFirst();
  return row?.response ?? null;
}

/** One atomic statement: a new key, an expired one, or a dead holder's claim becomes ours. */
async function tryClaim(db: Database, key: IdempotencyKey, print: string): Promise<boolean> {
  const claimed = await sql<{ claimed: number }>`
    insert into idempotency_keys (scope, key_hash, fingerprint, locked_until, expires_at)
    values (${key.scope}, ${key.keyHash}, ${print}, now() + make_interval(secs => ${CLAIM_LEASE_SECONDS}),
            now() + make_interval(secs => ${IDEMPOTENCY_TTL_SECONDS}))
    on conflict (scope, key_hash) do update
      set fingerprint = excluded.fingerprint, status = null, response = null, created_at = now(),
          locked_until = excluded.locked_until, expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= now()
         or (idempotency_keys.status is null and idempotency_keys.locked_until <= now()
             and idempotency_keys.fingerprint = excluded.fingerprint)
    returning 1 as claimed`.execute(db);
  if (claimed.rows.length === 0) return false;
  await sql`delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= now() limit ${CLEANUP_BATCH})`.execute(db);
  return true;
}

/** After the request ran: a success is stored for replays; anything else releases the key. */
export async function finish(db: Database, key: IdempotencyKey, response: Response): Promise<Response> {
  if (response.status < 200 || response.status > 299) {
    await release(db, key);
    return response;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NOT_REPLAYED.has(name)) headers[name] = value;
  });
  const body = await response.clone().text();
  await db
    .updateTable('idempotency_keys')
    .set({
      status: response.status,
      response: encrypt(key, JSON.stringify({ headers, body })),
      locked_until: sql`now()`,
    })
    .where('scope', '=', key.scope)
    .where('key_hash', '=', key.keyHash)
    .execute();
  return response;
}

export async function release(db: Database, key: IdempotencyKey): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', key.scope)
    .where('key_hash', '=', key.keyHash)
    .where('status', 'is', null)
    .execute();
}

function replay(key: IdempotencyKey, status: number, sealed: Buffer): Response {
  const { headers, body } = JSON.parse(decrypt(key, sealed)) as { headers: Record<string, string>; body: string };
  // Not in the draft; the name Stripe and others use, so a client can tell a replay.
  return new Response(body, { status, headers: { ...headers, 'idempotent-replayed': 'true' } });
}

function encrypt(key: IdempotencyKey, plaintext: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.secret, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]);
}

function decrypt(key: IdempotencyKey, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key.secret, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}

function reusedKey(): ApiError {
  return new ApiError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used in the last 24 hours for a different request (method, path or body)',
  );
}

function keyInUse(): ApiError {
  return new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed', {
    retryAfterSeconds: 1,
  });
}
