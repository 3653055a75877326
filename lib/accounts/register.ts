// Registration: one call creates the account, its token and a sign-in link (SPEC 2.1, 2.2).
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import type { RegisterBody } from '../contract/accounts';
import type { Scope } from '../contract/define';
import { ApiError, ERROR_ADVICE, isUniqueViolation } from '../http/errors';
import { enqueue, QUEUES } from '../jobs/boss';
import { attachPhoto, preparePhoto, withStoredPhoto, type PhotoInput, type StoredPhoto } from '../photos/photos';
import type { PhotoServices } from '../photos/services';
import { missingFields, nextActionForUser } from '../profiles/onboarding';
import { queueGeocodeIfNeeded, resolveProfileInput, type ProfileWarnings } from '../profiles/fields';
import { profileUrl } from '../profiles/records';
import { recordAgentAction } from './attribution';
import { generatePassword, hashPassword } from './secrets';
import { createSigninLink } from './signin-links';
import { mintAccessToken } from './tokens';
import { uniqueSlug } from './slug';

export interface RegisterContext {
  ip: string;
  baseUrl: string;
  /** Successful registrations allowed per IP per rolling hour. */
  limitPerHour: number;
  /** GEOCODER_URL is set: locations the gazetteer misses get an online lookup. */
  geocoderEnabled: boolean;
  photos: PhotoServices;
}

/** The inline photo or photoURL of a registration, if any (sending both is a validation error). */
function photoInputOf(body: RegisterBody): PhotoInput | null {
  if (body.photo != null && body.photoURL != null) {
    throw new ApiError('validation_failed', 'Send either photo or photoURL, not both', {
      hint: 'Keep one of them: photo (inline base64) or photoURL (a public https URL).',
      fields: { photoURL: 'send either photo or photoURL, not both' },
    });
  }
  if (body.photo != null) return { kind: 'inline', photo: body.photo, mimeType: body.photoMimeType, field: 'photo' };
  if (body.photoURL != null) return { kind: 'url', url: body.photoURL, field: 'photoURL' };
  return null;
}

const HOUR_MS = 3600_000;

export async function registerUser(db: Database, body: RegisterBody, ctx: RegisterContext) {
  const resolved = resolveProfileInput(body);
  const { columns, warnings } = resolved;
  // The photo is checked, processed and stored before the account exists, so a bad
  // photo is a 4xx with nothing created; if the transaction then fails, the stored
  // blobs are deleted again (withStoredPhoto).
  const photoInput = photoInputOf(body);
  const generatedPassword = body.password ? null : generatePassword();
  const passwordHash = await hashPassword(body.password ?? generatedPassword!);
  const stored: StoredPhoto | null = photoInput ? await preparePhoto(photoInput, ctx.photos) : null;
  const wantsEmail = body.emailMagicLink !== false;

  const attempt = () => db.transaction().execute(async (trx) => {
    await enforceRegistrationLimit(trx, ctx);
    const slug = body.slug ?? (await uniqueSlug(trx, body.displayName));
    const values = {
      ...columns,
      email: body.email,
      password_hash: passwordHash,
      slug,
      display_name: body.displayName,
      agent_name: body.agentName ?? null,
      agent_session_id: body.agentSessionId ?? null,
    };
    const inserted = await trx.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
    const photoSource = photoInput?.kind === 'url' ? 'url' : 'register';
    const user = stored
      ? (await attachPhoto(trx, inserted.id, stored, { source: photoSource, agentName: body.agentName, agentSessionId: body.agentSessionId })).user
      : inserted;
    const complete = missingFields(user).length === 0;
    const row: UserRow =
      complete && !user.onboarding_complete
        ? await trx.updateTable('users').set({ onboarding_complete: true }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow()
        : user;
    await trx.insertInto('registrations').values({ ip: ctx.ip, user_id: user.id }).execute();
    const token = await mintAccessToken(trx, user.id, { label: 'registration', agentName: body.agentName, agentSessionId: body.agentSessionId });
    const link = await createSigninLink(trx, user.id, 'mobile', ctx.baseUrl);
    // The emailed link is a separate single-use link minted by the mail job, so the
    // job's payload holds no secret and using one link does not burn the other. Without
    // it the address is still told, so its owner can disown an account they never made.
    if (wantsEmail) await enqueue(trx, QUEUES.magicLinkMail, { userId: user.id, occasion: 'registration' });
    else await enqueue(trx, QUEUES.accountCreatedMail, { userId: user.id });
    await queueGeocodeIfNeeded(trx, user.id, resolved, ctx.geocoderEnabled);
    await recordAgentAction(trx, user.id, 'register', body);
    return { row, token, link };
  });
  const result = await withStoredPhoto(stored, ctx.photos.store, () => retryGeneratedSlugRace(attempt, body.slug == null));

  return toRegisterResponse(result.row, {
    token: result.token.token,
    scopes: result.token.scopes,
    generatedPassword,
    link: result.link,
    emailed: wantsEmail,
    warnings,
    baseUrl: ctx.baseUrl,
  });
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
 * At most `limitPerHour` successful registrations per IP in any rolling hour. The
 * advisory lock serialises concurrent registrations from one IP, so the count is
 * exact across any number of app instances.
 */
async function enforceRegistrationLimit(trx: Database, ctx: RegisterContext): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`register:${ctx.ip}`}, 0))`.execute(trx);
  const recent = await trx
    .selectFrom('registrations')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('ip', '=', ctx.ip)
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  if (Number(recent.count) >= ctx.limitPerHour) {
    const oldest = recent.oldest ? new Date(recent.oldest).getTime() : Date.now();
    const retryAfter = Math.max(1, Math.ceil((oldest + HOUR_MS - Date.now()) / 1000));
    throw new ApiError('rate_limited', `At most ${ctx.limitPerHour} registrations per hour from one IP address`, {
      hint: ERROR_ADVICE.rate_limited,
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

function toRegisterResponse(
  row: UserRow,
  parts: {
    token: string;
    scopes: Scope[];
    generatedPassword: string | null;
    link: { url: string; expiresInSeconds: number };
    emailed: boolean;
    warnings: ProfileWarnings;
    baseUrl: string;
  },
) {
  const missing = missingFields(row);
  const signin = `Open this link on your phone to sign in (single use, expires in about an hour): ${parts.link.url}`;
  return {
    success: true as const,
    user: { id: row.id, email: row.email, slug: row.slug, profile_url: profileUrl(parts.baseUrl, row.slug) },
    auth: {
      token: parts.token,
      token_type: 'Bearer' as const,
      scopes: parts.scopes,
      generated_password: parts.generatedPassword,
      mobile_signin_url: parts.link.url,
      mobile_signin_expires_in_seconds: parts.link.expiresInSeconds,
      emailed_magic_link: parts.emailed,
    },
    onboarding: { complete: missing.length === 0, missing },
    warnings: parts.warnings,
    next_action_for_user: `${nextActionForUser(missing)} ${signin}`,
  };
}
