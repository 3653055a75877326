// Registration: one call creates the account, its token and a sign-in link (SPEC 2.1, 2.2).
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import type { RegisterBody } from '../contract/accounts';
import type { Scope } from '../contract/define';
import { eitherName } from '../contract/forgiving';
import { ApiError, isUniqueViolation, uniqueConflict } from '../core/errors';
import { enqueue, QUEUES } from '../jobs/boss';
import { consumeRateLimit, inWords, rateLimitHeaders, windowUnit, type RateLimitRule } from '../limits/rate-limits';
import type { LimitRule } from '../limits/rules';
import { attachPhoto, preparePhoto, withStoredPhoto, type PhotoInput, type StoredPhoto } from '../photos/photos';
import type { PhotoServices } from '../photos/services';
import { missingFields, nextActionForUser, onboardingOf } from '../profiles/onboarding';
import {
  labelFromPublicPoint,
  queueGeocodeIfNeeded,
  resolveProfileInput,
  timezoneColumns,
  type ProfileWarnings,
} from '../profiles/fields';
import { hostLocationForSignup, withHostTimezone, type HostLocation } from '../profiles/host-location';
import { profileUrl } from '../profiles/records';
import { recordAgentAction } from '../attribution/attribution';
import { generatePassword, hashPassword } from '../core/secrets';
import type { SigninMailOccasion } from './account-mail';
import { createSigninLink } from './signin-links';
import { mintAccessToken } from './tokens';
import { uniqueSlug } from './slug';

export interface RegisterContext {
  ip: string;
  baseUrl: string;
  /** Successful registrations allowed per IP in a rolling window (limits.registrations). */
  registrationLimit: LimitRule;
  /** Photos processed at registration, counted per client address (failures too). */
  photoUploadLimit: RateLimitRule;
  /** GEOCODER_URL is set: locations the gazetteer misses get an online lookup. */
  geocoderEnabled: boolean;
  photos: PhotoServices;
  /** What parsing the body read differently from how it was written. */
  normalized: readonly string[];
  /**
   * REQUIRE_PERSON_CONSENT: an account an assistant makes waits, out of sight, for its person's
   * "Yes, show me to people nearby" on the web (issue 41 §2). The person's own signup never waits.
   */
  requirePersonConsent: boolean;
  /**
   * The coarse location the assistant's host sent with an MCP call (never set over HTTP):
   * fills the location and time zone the person did not give, each with a note.
   */
  hostLocation?: HostLocation;
}

/** The inline photo or photoURL of a registration, if any (sending both is a validation error). */
function photoInputOf(body: RegisterBody, notes: string[]): PhotoInput | null {
  if (body.photo != null && body.photoURL != null) {
    throw new ApiError('validation_failed', 'Send either photo or photoURL, not both', {
      hint: 'Keep one of them: photo (inline base64) or photoURL (a public https URL).',
      fields: { photoURL: 'send either photo or photoURL, not both' },
    });
  }
  const mimeType = eitherName<RegisterBody['photoMimeType']>(body, 'photoMimeType', 'mimeType', notes);
  if (body.photo != null) return { kind: 'inline', photo: body.photo, mimeType, field: 'photo' };
  if (body.photoURL != null) return { kind: 'url', url: body.photoURL, field: 'photoURL' };
  return null;
}

/** POST /api/v1/register.json: the account and the caller's (an assistant's) bearer token. */
export async function registerUser(db: Database, body: RegisterBody, ctx: RegisterContext) {
  const { token, ...rest } = await createAccount(db, body, ctx, true);
  return toRegisterResponse(rest.row, { ...rest, token: token! });
}

/**
 * The person's own web signup (/signup): the same account, but no bearer token, since
 * the browser signs in with a session. A key nobody holds would only alarm them on
 * Connected assistants ("someone may have signed up with your email").
 */
export async function registerPersonOnWeb(db: Database, body: RegisterBody, ctx: RegisterContext) {
  const { row, ...rest } = await createAccount(db, body, ctx, false);
  const { auth, ...response } = toRegisterResponse(row, { ...rest, token: { token: '', scopes: [] } });
  const { token: _token, token_type: _type, scopes: _scopes, ...withoutKey } = auth;
  return { ...response, auth: withoutKey };
}

async function createAccount(db: Database, body: RegisterBody, ctx: RegisterContext, withAssistantKey: boolean) {
  // Cheap checks first: an address at its limit costs no argon2 hash, no photo download
  // and no decoding (the route runs this check before reading the body, too).
  await precheckRegistrationLimit(db, ctx.ip, ctx.registrationLimit);
  await refuseKnownConflicts(db, body);
  const notes = [...ctx.normalized];
  const photoInput = photoInputOf(body, notes);
  // The person's own place always wins; the host's city goes through the gazetteer as if typed.
  const fromHost = hostLocationForSignup(body, ctx.hostLocation);
  if (fromHost) notes.push(fromHost.note);
  const resolved = resolveProfileInput(fromHost ? { ...body, location: fromHost.location } : body, notes);
  const { columns, warnings } = resolved;
  const zone = withHostTimezone(timezoneColumns(body, columns, null), ctx.hostLocation, warnings);
  // The photo is checked, processed and stored before the account exists, so a bad
  // photo is a 4xx with nothing created; if the transaction then fails, the stored
  // blobs are deleted again (withStoredPhoto).
  // Failed registrations do not count toward the registration limit, so without this a
  // corrupt 40-megapixel photo could be sent for decoding again and again.
  if (photoInput) await consumeRateLimit(db, 'photo_upload', ctx.photoUploadLimit, `ip:${ctx.ip}`);
  // The photo before the password hash: most bad photos are refused from their first
  // bytes, and should not cost an argon2 hash first.
  const stored: StoredPhoto | null = photoInput ? await preparePhoto(photoInput, ctx.photos) : null;
  const generatedPassword = body.password ? null : generatePassword();
  const wantsEmail = body.emailMagicLink !== false;

  const attempt = (passwordHash: string) =>
    db.transaction().execute(async (trx) => {
      await enforceRegistrationLimit(trx, db, ctx);
      const slug = body.slug ?? (await uniqueSlug(trx, body.displayName));
      const values = {
        ...columns,
        ...zone,
        email: body.email,
        password_hash: passwordHash,
        slug,
        display_name: body.displayName,
        agent_name: body.agentName ?? null,
        agent_session_id: body.agentSessionId ?? null,
        awaiting_person_consent: withAssistantKey && ctx.requirePersonConsent,
      };
      let inserted = await trx.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
      if (resolved.labelFromPublicPoint) inserted = await labelFromPublicPoint(trx, inserted);
      const photoSource = photoInput?.kind === 'url' ? 'url' : 'register';
      const user = stored
        ? (
            await attachPhoto(trx, inserted.id, stored, {
              source: photoSource,
              agentName: body.agentName,
              agentSessionId: body.agentSessionId,
            })
          ).user
        : inserted;
      const complete = missingFields(user).length === 0;
      const row: UserRow =
        complete && !user.onboarding_complete
          ? await trx
              .updateTable('users')
              .set({ onboarding_complete: true })
              .where('id', '=', user.id)
              .returningAll()
              .executeTakeFirstOrThrow()
          : user;
      await trx.insertInto('registrations').values({ ip: ctx.ip, user_id: user.id }).execute();
      const token = withAssistantKey
        ? await mintAccessToken(trx, user.id, {
            label: 'registration',
            agentName: body.agentName,
            agentSessionId: body.agentSessionId,
          })
        : null;
      const link = await createSigninLink(trx, user.id, 'mobile', ctx.baseUrl);
      // The emailed link is a separate single-use link minted by the mail job, so the
      // job's payload holds no secret and using one link does not burn the other. Without
      // it the address is still told, so its owner can disown an account they never made.
      const occasion: SigninMailOccasion = withAssistantKey ? 'registration' : 'web_signup';
      if (wantsEmail) await enqueue(trx, QUEUES.magicLinkMail, { userId: user.id, occasion });
      else await enqueue(trx, QUEUES.accountCreatedMail, { userId: user.id });
      await queueGeocodeIfNeeded(trx, user.id, resolved, ctx.geocoderEnabled);
      await recordAgentAction(trx, user.id, 'register', body);
      return { row, token, link };
    });
  const result = await withStoredPhoto(stored, ctx.photos.store, async () => {
    const passwordHash = await hashPassword(body.password ?? generatedPassword!);
    return retryGeneratedSlugRace(() => attempt(passwordHash), body.slug == null);
  });

  return {
    row: result.row,
    token: result.token,
    generatedPassword,
    link: result.link,
    emailed: wantsEmail,
    warnings,
    baseUrl: ctx.baseUrl,
  };
}

/**
 * A taken email or slug, found by two indexed lookups before any hashing or photo work:
 * such a request fails anyway and is not counted by the registration limit. (The
 * answer is the same 409 the insert would give; the unique indexes still decide races.)
 */
async function refuseKnownConflicts(db: Database, body: RegisterBody): Promise<void> {
  // Only live accounts hold their address (the unique index is partial, 0010): a disowned one released it.
  const email = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', sql<string>`lower(${body.email})`)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  if (email) throw uniqueConflict('users_email_lower_key');
  if (body.slug != null) {
    const slug = await db.selectFrom('users').select('id').where('slug', '=', body.slug).executeTakeFirst();
    if (slug) throw uniqueConflict('users_slug_key');
  }
}

/** Two parallel signups named alike can pick the same free slug; the loser retries with a fresh one. */
async function retryGeneratedSlugRace<T>(attempt: () => Promise<T>, slugGenerated: boolean): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!slugGenerated || tries >= 3 || !isUniqueViolation(error, 'users_slug_key')) throw error;
    }
  }
}

/**
 * At most `registrationLimit.points` successful registrations per IP in any rolling window. The
 * advisory lock serialises concurrent registrations from one IP, so the count is
 * exact across any number of app instances.
 */
async function enforceRegistrationLimit(trx: Database, db: Database, ctx: RegisterContext): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`register:${ctx.ip}`}, 0))`.execute(trx);
  await refuseIfOverLimit(trx, ctx.ip, ctx.registrationLimit, db);
}

/**
 * The cheap check, before anything expensive (reading the body, hashing the password,
 * decoding or fetching a photo): an address already at its limit is refused from one
 * indexed count, or from memory once refused. Without the lock, parallel requests may
 * all pass it; the exact check in the transaction then holds the limit.
 */
export async function precheckRegistrationLimit(db: Database, ip: string, rule: LimitRule): Promise<void> {
  const key = refusalKey(rule, ip);
  const until = refusedUntil(db).get(key);
  if (until !== undefined) {
    if (until > Date.now()) throw registrationLimited(rule, until);
    refusedUntil(db).delete(key);
  }
  await refuseIfOverLimit(db, ip, rule, db);
}

/** Keyed by the rule too, so a changed configuration (tests) does not inherit old refusals. */
const refusalKey = (rule: LimitRule, ip: string) => `${rule.points}:${rule.windowSeconds}:${ip}`;

/** Registrations from `ip` within the rule's rolling window, and when the oldest of them was made. */
function recentRegistrations(executor: Database, ip: string, rule: LimitRule) {
  return executor
    .selectFrom('registrations')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('ip', '=', ip)
    .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${rule.windowSeconds})`)
    .executeTakeFirstOrThrow();
}

/** `memory`: the database whose remembered refusals this one joins (not a transaction). */
async function refuseIfOverLimit(executor: Database, ip: string, rule: LimitRule, memory: Database): Promise<void> {
  const recent = await recentRegistrations(executor, ip, rule);
  if (Number(recent.count) >= rule.points) {
    const oldest = recent.oldest ? new Date(recent.oldest).getTime() : Date.now();
    const until = oldest + rule.windowSeconds * 1000;
    rememberRefusal(memory, refusalKey(rule, ip), until);
    throw registrationLimited(rule, until);
  }
}

function registrationLimited(rule: LimitRule, until: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  return new ApiError(
    'rate_limited',
    `At most ${rule.points} registrations per ${windowUnit(rule.windowSeconds)} from one IP address. Try again in ${inWords(retryAfter)}.`,
    {
      retryAfterSeconds: retryAfter,
      rateLimit: { policy: 'registrations', points: rule.points, windowSeconds: rule.windowSeconds },
    },
  );
}

/** The RateLimit fields after a registration: what this address has left in its rolling window. */
export async function registrationLimitHeaders(db: Database, ip: string, rule: LimitRule) {
  const recent = await recentRegistrations(db, ip, rule);
  const oldest = recent.oldest ? new Date(recent.oldest).getTime() : Date.now();
  const resetSeconds = (oldest + rule.windowSeconds * 1000 - Date.now()) / 1000;
  return rateLimitHeaders('registrations', rule, rule.points - Number(recent.count), resetSeconds);
}

// An address at its limit stays there until its oldest counted registration leaves the
// window (the count only grows meanwhile), so a refusal can be remembered until then and a
// flood of refused signups costs no database round trip. Bounded, oldest first out.
const MAX_REMEMBERED_REFUSALS = 10_000;
const refusals = new WeakMap<Database, Map<string, number>>();

function refusedUntil(db: Database): Map<string, number> {
  let map = refusals.get(db);
  if (!map) refusals.set(db, (map = new Map()));
  return map;
}

function rememberRefusal(db: Database, key: string, until: number): void {
  const map = refusedUntil(db);
  map.delete(key);
  map.set(key, until);
  if (map.size > MAX_REMEMBERED_REFUSALS) map.delete(map.keys().next().value!);
}

function toRegisterResponse(
  row: UserRow,
  parts: {
    token: { token: string; scopes: Scope[] };
    generatedPassword: string | null;
    link: { url: string; expiresInSeconds: number };
    emailed: boolean;
    warnings: ProfileWarnings;
    baseUrl: string;
  },
) {
  const onboarding = onboardingOf(row);
  const signin = `Open this link on your phone to sign in (single use, expires in about an hour): ${parts.link.url}`;
  return {
    success: true as const,
    user: { id: row.id, email: row.email, slug: row.slug, profile_url: profileUrl(parts.baseUrl, row.slug) },
    auth: {
      token: parts.token.token,
      token_type: 'Bearer' as const,
      scopes: parts.token.scopes,
      generated_password: parts.generatedPassword,
      mobile_signin_url: parts.link.url,
      mobile_signin_expires_in_seconds: parts.link.expiresInSeconds,
      emailed_magic_link: parts.emailed,
    },
    onboarding,
    warnings: parts.warnings,
    next_action_for_user: `${nextActionForUser(onboarding.missing, onboarding.awaiting_person_consent)} ${signin}`,
  };
}
