// Reading and updating profiles.
import { sql } from 'kysely';
import type { Database } from '@/db';
import type { UserRow } from '@/db/types';
import { assertBirthdayChangeAllowed, mayReach } from '../ages/reach';
import { recordAgentAction } from '../attribution/attribution';
import type { ProfileUpdate } from '../contract/profiles';
import { ApiError, notFound } from '../core/errors';
import { isUuid } from '../contract/validation';
import { consumeRateLimit, inWords, windowInWords, type RateLimitRule } from '../limits/rate-limits';
import { attachPhoto, detachPhoto, preparePhoto, withStoredPhoto, type StoredPhoto } from '../photos/photos';
import type { PhotoServices } from '../photos/services';
import { missingFields, MISSING_FIELD_ADVICE, nextActionForUser, type Onboarding, onboardingOf } from './onboarding';
import {
  labelFromPublicPoint,
  queueGeocodeIfNeeded,
  resolveProfileInput,
  timezoneColumns,
  type ProfileWarnings,
  type ResolvedProfile,
} from './fields';

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getUserOrThrow(db: Database, id: string): Promise<UserRow> {
  const row = await findUserById(db, id);
  if (!row) throw notFound('User');
  return row;
}

/**
 * Whether others may meet this account at all: not disabled (lib/accounts/disable.ts), and
 * not waiting for its person to say yes to being shown (REQUIRE_PERSON_CONSENT, issue 41 §2).
 */
export const shownToOthers = (row: Pick<UserRow, 'disabled_at' | 'awaiting_person_consent'>): boolean =>
  row.disabled_at == null && !row.awaiting_person_consent;

/**
 * Public lookups accept a slug or a user id (SPEC section 4), as seen by `viewerId` (null:
 * nobody signed in). An account others may not meet (disabled, or awaiting its person's yes)
 * is not found: its profile, its page and link preview, and every path naming it answer 404,
 * as for a person who does not exist. Nor is a person of the viewer's other world by age
 * (lib/ages): to them, the same 404 as no one.
 */
export async function findUserBySlugOrId(
  db: Database,
  slugOrId: string,
  viewerId: string | null,
): Promise<UserRow | undefined> {
  const row = await findAccountBySlugOrId(db, slugOrId);
  if (!row) return undefined;
  return (await mayReach(db, viewerId, row)) ? row : undefined;
}

/**
 * The active account a slug or id names, whoever asks: only for undoing what the caller did
 * to someone themselves (an unblock), never to show or reach a person (findUserBySlugOrId).
 */
export async function findAccountBySlugOrId(db: Database, slugOrId: string): Promise<UserRow | undefined> {
  const bySlug = await db.selectFrom('users').selectAll().where('slug', '=', slugOrId.toLowerCase()).executeTakeFirst();
  const row = bySlug ?? (await findUserById(db, slugOrId));
  return row && shownToOthers(row) ? row : undefined;
}

export async function getUserBySlugOrIdOrThrow(
  db: Database,
  slugOrId: string,
  viewerId: string | null,
): Promise<UserRow> {
  const row = await findUserBySlugOrId(db, slugOrId, viewerId);
  if (!row) throw userNotFound(slugOrId);
  return row;
}

/** The 404 of a path that names no one a caller may see. */
export function userNotFound(slugOrId: string): ApiError {
  return new ApiError('not_found', `No user with slug or id "${slugOrId}"`, {
    hint: 'Check the slug; it is the last part of the profile_url.',
  });
}

/**
 * getUserBySlugOrIdOrThrow on `reads` (a replica, which may be a little behind), confirmed
 * on `db` (the primary) when they differ: a disabled or deleted account vanishes at once.
 */
export async function getActiveUserOrThrow(
  db: Database,
  reads: Database,
  slugOrId: string,
  viewerId: string | null,
): Promise<UserRow> {
  const row = await getUserBySlugOrIdOrThrow(reads, slugOrId, viewerId);
  if (reads === db) return row;
  const live = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', row.id)
    .where('disabled_at', 'is', null)
    .where('awaiting_person_consent', '=', false)
    .executeTakeFirst();
  return live ? row : getUserBySlugOrIdOrThrow(db, slugOrId, viewerId);
}

export interface UpdateResult {
  row: UserRow;
  warnings: ProfileWarnings;
}

export interface ProfileUpdateOptions {
  photos: PhotoServices;
  geocoderEnabled: boolean;
  /** Changes of one's own coordinates allowed per window (config().rateLimits.location_change). */
  locationChangeLimit: RateLimitRule;
  /** A new photoURL counts as a photo upload (config().rateLimits.photo_upload). */
  photoUploadLimit: RateLimitRule;
  /** What parsing the body read differently from how it was written. */
  normalized?: readonly string[];
}

/**
 * Whether the update moves the stored coordinates to another point: new coords, or a
 * new label that places them elsewhere (now through the gazetteer, or later through the
 * geocoding job it queues). Unchanged values and clearing them do not.
 */
export function movesCoordinates(
  current: Pick<UserRow, 'latitude' | 'longitude' | 'location'>,
  resolved: ResolvedProfile,
  geocoderEnabled: boolean,
): boolean {
  const { latitude, longitude } = resolved.columns;
  if (latitude !== undefined && latitude !== null)
    return latitude !== current.latitude || longitude !== current.longitude;
  return geocoderEnabled && resolved.unplacedLocation !== null && resolved.unplacedLocation !== current.location;
}

/**
 * Counts one change of the caller's coordinates against the location limit, or refuses
 * it (429 with Retry-After), naming the field that would have moved them. Each move lets
 * someone measure everyone's distance from a new spot, so moves are what is limited.
 */
async function countLocationChange(
  db: Database,
  userId: string,
  input: ProfileUpdate,
  rule: RateLimitRule,
): Promise<void> {
  const field = present(input.coords) ? 'coords' : input.location !== undefined ? 'location' : 'city';
  const window = windowInWords(rule.windowSeconds);
  const hint =
    `Your location can change at most ${rule.points} times ${window}, so that nobody can move around to pin down where others live. ` +
    'Keep the current location and send the change again after the Retry-After seconds.';
  try {
    await consumeRateLimit(db, 'location_change', rule, userId, hint);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'rate_limited') throw error;
    const retryAfter = error.retryAfterSeconds ?? 0;
    const problem = `not changed: at most ${rule.points} changes ${window}; try again in ${inWords(retryAfter)}`;
    throw new ApiError(error.code, error.message, {
      hint: error.hint,
      retryAfterSeconds: error.retryAfterSeconds,
      rateLimit: error.rateLimit,
      fields: { [field]: problem },
    });
  }
}

/**
 * Applies a partial update and recomputes completeness in one transaction. A new
 * photoURL counts as a photo upload (`photoUploadLimit`, before anything is fetched),
 * then is downloaded, checked and stored before the transaction (a bad one is a 4xx
 * and changes nothing); photoURL null removes the photo; sending back the current
 * photoURL changes nothing and is not counted. A move of the coordinates is counted
 * against the location limit first, before any photo work or write.
 */
export async function updateProfile(
  db: Database,
  userId: string,
  input: ProfileUpdate,
  options: ProfileUpdateOptions,
): Promise<UpdateResult> {
  const { photos, geocoderEnabled, locationChangeLimit, photoUploadLimit } = options;
  const resolved = resolveProfileInput(input, options.normalized);
  const { columns, warnings } = resolved;
  const before = await getUserOrThrow(db, userId);
  const countedMove = movesCoordinates(before, resolved, geocoderEnabled);
  if (countedMove) await countLocationChange(db, userId, input, locationChangeLimit);
  let stored: StoredPhoto | null = null;
  if (typeof input.photoURL === 'string' && input.photoURL !== before.photo_url) {
    await consumeRateLimit(db, 'photo_upload', photoUploadLimit, userId);
    stored = await preparePhoto({ kind: 'url', url: input.photoURL, field: 'photoURL' }, photos);
  }
  const row = await withStoredPhoto(stored, photos.store, () =>
    db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('users').selectAll().where('id', '=', userId).forUpdate().executeTakeFirst();
      if (!current) throw notFound('User');
      if (columns.birthday !== undefined) await assertBirthdayChangeAllowed(trx, current, columns.birthday ?? null);
      // Another update may have moved them in between: a move is counted exactly once.
      if (!countedMove && movesCoordinates(current, resolved, geocoderEnabled))
        await countLocationChange(db, userId, input, locationChangeLimit);
      const written = { ...columns, ...timezoneColumns(input, columns, current) };
      const next = { ...current, ...written } as UserRow;
      let updated = await trx
        .updateTable('users')
        .set({ ...written, onboarding_complete: missingFields(next).length === 0, updated_at: sql`now()` })
        .where('id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (resolved.labelFromPublicPoint) updated = await labelFromPublicPoint(trx, updated);
      if (stored) {
        updated = (
          await attachPhoto(trx, userId, stored, {
            source: 'url',
            agentName: input.agentName,
            agentSessionId: input.agentSessionId,
          })
        ).user;
      } else if (input.photoURL === null && updated.photo_url !== null) {
        updated = await detachPhoto(trx, userId, 'cleared');
      }
      await queueGeocodeIfNeeded(trx, userId, resolved, geocoderEnabled);
      await recordAgentAction(trx, userId, 'update_profile', input);
      return updated;
    }),
  );
  return { row, warnings };
}

export function onboardingStatus(row: UserRow): Onboarding & { next_action_for_user: string } {
  const onboarding = onboardingOf(row);
  return {
    ...onboarding,
    next_action_for_user: nextActionForUser(onboarding.missing, onboarding.awaiting_person_consent),
  };
}

/**
 * POST /me/complete.json: succeeds only when nothing is missing (SPEC 3.1). It never shows a
 * profile its person has not said yes to (awaiting_person_consent stays as it is).
 */
export async function completeOnboarding(
  db: Database,
  userId: string,
): Promise<{ complete: true; missing: []; awaiting_person_consent: boolean }> {
  const row = await getUserOrThrow(db, userId);
  const missing = missingFields(row);
  if (missing.length > 0) {
    throw new ApiError('onboarding_incomplete', `Onboarding is incomplete: ${missing.join(', ')} missing`, {
      hint: 'Supply the missing fields with PATCH /api/v1/me.json (and the photo with POST /api/v1/me/photo.json), then call this again.',
      fields: Object.fromEntries(missing.map((field) => [field, `required: ${MISSING_FIELD_ADVICE[field]}`])),
    });
  }
  if (!row.onboarding_complete) {
    await db
      .updateTable('users')
      .set({ onboarding_complete: true, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
  }
  return { complete: true, missing: [], awaiting_person_consent: row.awaiting_person_consent };
}
